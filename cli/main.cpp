// SPDX-License-Identifier: Apache-2.0
// The simdbridge command-line tool. Its one place that turns an error into a message and an
// exit code is `report`.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "commands.h"
#include "file_input.h"
#include "simdbridge/parser.h"

namespace {

const char usage[] =
    "usage: simdbridge checksum [--ndjson] FILE...   the checksum of each file (- is stdin)\n"
    "       simdbridge validate [--ndjson] FILE...   validate each file\n"
    "       simdbridge bench [--json] [--rounds N] [--sample-ms MS] [FILE...]\n"
    "                                                MB/s of the checksum engine beside simdjson\n"
    "       simdbridge version\n"
    "\n"
    "--ndjson reads each file as a stream: JSON documents separated by white space (NDJSON,\n"
    "JSON Lines); its checksum covers the whole stream. Errors go to standard error as\n"
    "'FILE: error: MESSAGE at byte N'; the tool goes on with the next file and exits with 1.\n"
    "--max-depth N sets the nesting limit (default 1024).\n";

/** Prints the error of `file` on standard error. */
void report(const std::string &file, const simdbridge::error &e) {
  std::fprintf(stderr, "%s: error: %s at byte %" PRIu64 "\n", file.c_str(), e.message(), e.offset);
}

struct file_options {
  bool stream = false;
  uint32_t max_depth = SIMDBRIDGE_DEFAULT_MAX_DEPTH;
  std::vector<std::string> files;
};

/** Parses [--ndjson] [--max-depth N] FILE...; returns false on a usage error. */
bool parse_file_options(int argc, char **argv, file_options &out) {
  bool only_files = false;
  for (int i = 0; i < argc; i++) {
    const std::string arg = argv[i];
    if (only_files || arg == "-" || arg.empty() || arg[0] != '-') {
      out.files.push_back(arg);
    } else if (arg == "--") {
      only_files = true;
    } else if (arg == "--ndjson") {
      out.stream = true;
    } else if (arg == "--max-depth" && i + 1 < argc) {
      char *end = nullptr;
      const unsigned long depth = std::strtoul(argv[++i], &end, 10);
      if (*end != '\0' || depth == 0 || depth > 100000000UL) {
        std::fprintf(stderr, "simdbridge: --max-depth takes a number from 1 to 100000000\n");
        return false;
      }
      out.max_depth = uint32_t(depth);
    } else {
      std::fprintf(stderr, "simdbridge: unknown option %s\n%s", arg.c_str(), usage);
      return false;
    }
  }
  if (out.files.empty()) {
    std::fprintf(stderr, "simdbridge: no FILE given\n%s", usage);
    return false;
  }
  return true;
}

/** checksum and validate: one line per file, errors reported, exit 1 if any file failed. */
int run_files(int argc, char **argv, bool with_checksum) {
  file_options options;
  if (!parse_file_options(argc, argv, options)) { return 2; }
  simdbridge::parser parser(simdbridge::parser_options{options.max_depth});
  simdbridge::cli::file_bytes file;
  int status = 0;
  for (const std::string &name : options.files) {
    std::string why;
    if (!simdbridge::cli::read_file(name, file, why)) {
      std::fprintf(stderr, "%s: error: %s\n", name.c_str(), why.c_str());
      status = 1;
      continue;
    }
    const simdbridge::input in = file.as_input();
    if (with_checksum) {
      const auto r = options.stream ? parser.checksum_stream(in) : parser.checksum(in);
      if (!r.ok()) {
        report(name, r.error());
        status = 1;
        continue;
      }
      std::printf("%016" PRIx64 "  %s\n", r.value(), name.c_str());
    } else {
      const simdbridge::error e =
          options.stream ? parser.validate_stream(in).error() : parser.validate(in);
      if (!e.ok()) {
        report(name, e);
        status = 1;
        continue;
      }
      std::printf("%s: OK\n", name.c_str());
    }
    std::fflush(stdout);
  }
  return status;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fputs(usage, stderr);
    return 2;
  }
  const std::string command = argv[1];
  if (command == "checksum") { return run_files(argc - 2, argv + 2, true); }
  if (command == "validate") { return run_files(argc - 2, argv + 2, false); }
  if (command == "bench") { return simdbridge::cli::run_bench(argc - 2, argv + 2); }
  if (command == "version" || command == "--version") {
    std::printf("simdbridge %s (simdjson %s, %s kernel)\n", simdbridge::version(),
                simdbridge::simdjson_version(), simdbridge::simd_implementation());
    return 0;
  }
  if (command == "help" || command == "--help" || command == "-h") {
    std::fputs(usage, stdout);
    return 0;
  }
  std::fprintf(stderr, "simdbridge: unknown command %s\n%s", command.c_str(), usage);
  return 2;
}
