// SPDX-License-Identifier: Apache-2.0
#include "machine_info.h"

#include <cstdio>
#include <fstream>
#include <sys/utsname.h>
#include <thread>

#include "simdbridge/parser.h"

namespace simdbridge::bench {

std::string json_quote(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

namespace {
std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) { return line.substr(line.find_first_not_of(' ', colon + 1)); }
    }
  }
  return "unknown";
}
} // namespace

std::string machine_info_json() {
  struct utsname uts {};
  const std::string kernel = uname(&uts) == 0 ? std::string(uts.sysname) + " " + uts.release : "unknown";
  std::string out = "{";
  out += "\"cpu\": " + json_quote(cpu_model());
  out += ", \"hardware_threads\": " + std::to_string(std::thread::hardware_concurrency());
  out += ", \"kernel\": " + json_quote(kernel);
  out += ", \"compiler\": " + json_quote(std::string("g++ ") + __VERSION__);
  out += ", \"simdbridge\": " + json_quote(simdbridge::version());
  out += ", \"simdjson\": " + json_quote(simdbridge::simdjson_version());
  out += ", \"simdjson_implementation\": " + json_quote(simdbridge::simd_implementation());
  return out + "}";
}

} // namespace simdbridge::bench
