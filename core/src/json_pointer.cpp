// SPDX-License-Identifier: Apache-2.0
#include "simdbridge/json_pointer.h"

namespace simdbridge {

bool parse_json_pointer(std::string_view pointer, std::vector<std::string> &tokens) {
  tokens.clear();
  if (pointer.empty()) { return true; }
  if (pointer[0] != '/') { return false; }
  std::string token;
  for (size_t i = 1; i <= pointer.size(); i++) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(token);
      token.clear();
    } else if (pointer[i] == '~') {
      if (i + 1 == pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) { return false; }
      token.push_back(pointer[i + 1] == '0' ? '~' : '/');
      i++;
    } else {
      token.push_back(pointer[i]);
    }
  }
  return true;
}

int64_t json_pointer_index(std::string_view token) noexcept {
  if (token.empty() || token.size() > 18 || (token.size() > 1 && token[0] == '0')) { return -1; }
  int64_t value = 0;
  for (char c : token) {
    if (c < '0' || c > '9') { return -1; }
    value = value * 10 + (c - '0');
  }
  return value;
}

} // namespace simdbridge
