// SPDX-License-Identifier: Apache-2.0
// A program of a user of the installed core: it checksums one document, reports the error of
// a broken one with its byte offset, and prints the version, so that each way of building
// against the package (find_package, pkg-config, add_subdirectory) is checked end to end.
#include <simdbridge/simdbridge.h>

#include <cstdio>
#include <cstring>

int main() {
  simdbridge::parser parser;
  auto ok = parser.checksum(simdbridge::input::copy_of(R"({"a":[1,2.5,"x",null,true]})"));
  auto bad = parser.checksum(simdbridge::input::copy_of(R"({"a":[1,})"));
  if (!ok.ok() || bad.ok() || bad.error().offset != 8 || std::strlen(simdbridge::version()) == 0) {
    std::fprintf(stderr, "consumer: unexpected result\n");
    return 1;
  }
  std::printf("simdbridge %s %016llx; %s at byte %llu\n", simdbridge::version(),
              static_cast<unsigned long long>(ok.value()), bad.error().message(),
              static_cast<unsigned long long>(bad.error().offset));
  return 0;
}
