// SPDX-License-Identifier: Apache-2.0
#include "scalar_parser.h"

#include <clocale>
#include <cstring>
#include <cstdlib>
#include <locale.h>
#include <string>

namespace simdbridge::internal {

namespace {
// strtod follows LC_NUMERIC; a JSON number's decimal point is always '.', so read it in "C".
locale_t c_locale() noexcept {
  static const locale_t locale = newlocale(LC_ALL_MASK, "C", locale_t(0));
  return locale;
}
} // namespace

double number_token_to_double(const uint8_t *token, size_t length) {
  // glibc's strtod is correctly rounded at any length: +/-HUGE_VAL (infinity) past the range,
  // the rounded subnormal or signed zero below it. It needs a terminated copy of the token;
  // a token of megabytes may throw std::bad_alloc, which the parser turns into out_of_memory.
  char small[128];
  std::string large;
  char *text = small;
  if (length < sizeof small) {
    std::memcpy(small, token, length);
    small[length] = '\0';
  } else {
    large.assign(reinterpret_cast<const char *>(token), length);
    text = large.data();
  }
  const locale_t locale = c_locale();
  return locale ? strtod_l(text, nullptr, locale) : std::strtod(text, nullptr);
}

} // namespace simdbridge::internal
