// SPDX-License-Identifier: Apache-2.0
// The simdbridge command-line tool. Its one place that turns an error into a message and an
// exit code is `report`.
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "file_input.h"
#include "simdbridge/arrow.h"
#include "simdbridge/msgpack.h"
#include "simdbridge/parser.h"
#include "simdbridge/stream.h"

namespace {

const char usage[] =
    "usage: simdbridge checksum [--ndjson [--threads N]] FILE...\n"
    "                                                the checksum of each file (- is stdin)\n"
    "       simdbridge validate [--ndjson [--threads N]] FILE...\n"
    "                                                validate each file\n"
    "       simdbridge arrow-schema FILE...          the Arrow schema inferred from NDJSON\n"
    "       simdbridge to-msgpack [--ndjson] [--threads N] FILE...\n"
    "                                                JSON as MessagePack on standard output\n"
    "                                                (--ndjson: a value per document)\n"
    "       simdbridge from-msgpack [--stream] [--threads N] FILE...\n"
    "                                                MessagePack as JSON on standard output\n"
    "                                                (--stream: a sequence of values, a line each)\n"
    "       simdbridge version\n"
    "\n"
    "--ndjson reads each file as a stream: JSON documents separated by white space (NDJSON,\n"
    "JSON Lines), a block at a time (--threads: parsed ahead on N threads); its checksum\n"
    "covers the whole stream. Errors go to standard error as\n"
    "'FILE: error: MESSAGE at byte N'; the tool goes on with the next file and exits with 1.\n"
    "\n"
    "Limits (each passed is its own error, at the byte where it was passed):\n"
    "  --max-depth N            arrays and objects nest at most N deep (default 1024)\n"
    "  --max-number-length N    characters of a number past 64 bits or the double range\n"
    "                           (default 1000; 0: no limit)\n"
    "  --max-string-length N    bytes of a string or key, unescaped (default 0: no limit)\n"
    "  --max-document-length N  bytes of a document, or of each document of a stream\n"
    "                           (default 0: no limit)\n";

/** Prints the error of `file` on standard error. */
void report(const std::string &file, const simdbridge::error &e) {
  std::fprintf(stderr, "%s: error: %s at byte %" PRIu64 "\n", file.c_str(), e.message(), e.offset);
}

/**
 * Standard output flushed and free of errors: a full disk or a closed pipe is an error the
 * tool reports (on standard error) and exits with 1 for, not a success with lost output.
 */
bool stdout_ok() {
  static bool reported = false;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) { return true; }
  if (!reported) { std::fprintf(stderr, "simdbridge: error writing standard output: %s\n", std::strerror(errno)); }
  reported = true;
  return false;
}

struct file_options {
  bool stream = false;
  unsigned threads = 1;
  simdbridge::parser_options parser;
  std::vector<std::string> files;
};

/**
 * A limit's value, from "--name N" or "--name=N": false (after saying so) where it is not a
 * whole number in [lowest, highest].
 */
bool limit_value(const std::string &name, const char *text, uint64_t lowest, uint64_t highest, uint64_t &out) {
  char *end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (*text == '\0' || *text == '-' || *end != '\0' || errno != 0 || v < lowest || v > highest) {
    std::fprintf(stderr, "simdbridge: %s takes a number from %" PRIu64 " to %" PRIu64 ", not '%s'\n",
                 name.c_str(), lowest, highest, text);
    return false;
  }
  out = v;
  return true;
}

/** Parses [--ndjson] [--max-depth N] [--max-number-length N] [--max-string-length N]
 *  [--max-document-length N] FILE...;
 *  returns false on a usage error. */
bool parse_file_options(int argc, char **argv, file_options &out) {
  bool only_files = false;
  for (int i = 0; i < argc; i++) {
    std::string arg = argv[i];
    if (only_files || arg == "-" || arg.empty() || arg[0] != '-') {
      out.files.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_files = true;
      continue;
    }
    if (arg == "--ndjson" || arg == "--stream") {
      out.stream = true;
      continue;
    }
    // The limits, "--name N" or "--name=N".
    const size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    const bool is_limit = name == "--max-depth" || name == "--max-number-length" || name == "--max-string-length" ||
                          name == "--max-document-length" || name == "--threads";
    if (!is_limit) {
      std::fprintf(stderr, "simdbridge: unknown option %s\n%s", arg.c_str(), usage);
      return false;
    }
    const char *text = nullptr;
    if (equals != std::string::npos) {
      text = argv[i] + equals + 1;
    } else if (i + 1 < argc) {
      text = argv[++i];
    } else {
      std::fprintf(stderr, "simdbridge: %s takes a number\n", name.c_str());
      return false;
    }
    uint64_t v = 0;
    if (name == "--threads") {
      if (!limit_value(name, text, 1, 1024, v)) { return false; }
      out.threads = unsigned(v);
    } else if (name == "--max-depth") {
      if (!limit_value(name, text, 1, UINT32_MAX, v)) { return false; }
      out.parser.max_depth = uint32_t(v);
    } else if (name == "--max-number-length") {
      if (!limit_value(name, text, 0, UINT32_MAX, v)) { return false; }
      out.parser.max_number_length = uint32_t(v);
    } else if (name == "--max-string-length") {
      if (!limit_value(name, text, 0, UINT64_MAX, v)) { return false; }
      out.parser.max_string_length = v;
    } else {
      if (!limit_value(name, text, 0, UINT64_MAX, v)) { return false; }
      out.parser.max_document_length = v;
    }
  }
  if (out.files.empty()) {
    std::fprintf(stderr, "simdbridge: no FILE given\n%s", usage);
    return false;
  }
  return true;
}

/**
 * Reads each file named on the command line and hands its bytes to `read` (which reports its
 * own errors and returns false for them); a file that cannot be read is reported here. Exits
 * with 2 on a usage error, 1 if any file failed or standard output could not be written.
 * `one_document`: each file is one document (JSON, or a MessagePack value; not --ndjson or
 * --stream), so that under --max-document-length no more of it is read than the limit and one
 * byte (a pipe that never ends is then refused at once, not read into memory).
 */
template <typename Read> int each_file(const file_options &options, bool one_document, Read &&read) {
  const uint64_t limit = options.parser.max_document_length;
  const bool bounded = one_document && !options.stream && limit > 0 && limit < SIZE_MAX - 1;
  const size_t max_bytes = bounded ? size_t(limit) + 1 : SIZE_MAX;
  simdbridge::cli::file_bytes file;
  int status = 0;
  for (const std::string &name : options.files) {
    std::string why;
    if (!simdbridge::cli::read_file(name, file, why, max_bytes)) {
      std::fprintf(stderr, "%s: error: %s\n", name.c_str(), why.c_str());
      status = 1;
      continue;
    }
    if (!read(options, name, file.as_input())) { status = 1; }
    if (!stdout_ok()) { return 1; }
  }
  return status;
}

/** A file's line on standard output: its checksum (as sha256sum prints a hash), or that it is valid. */
void print_verdict(const std::string &name, bool with_checksum, uint64_t checksum) {
  if (with_checksum) {
    std::printf("%016" PRIx64 "  %s\n", checksum, name.c_str());
  } else {
    std::printf("%s: OK\n", name.c_str());
  }
}

/**
 * Opens each file named on the command line as a source read a block at a time (standard input
 * for "-") and hands it to `read` (which reports its own errors and returns false for them); a
 * file that cannot be opened is reported here. 1 if any failed or standard output could not be
 * written, else 0.
 */
template <typename Read> int each_source(const file_options &options, Read &&read) {
  int status = 0;
  for (const std::string &name : options.files) {
    simdbridge::cli::file_source source;
    std::string why;
    if (!source.open(name, why)) {
      std::fprintf(stderr, "%s: error: %s\n", name.c_str(), why.c_str());
      status = 1;
      continue;
    }
    if (!read(name, source)) { status = 1; }
    if (!stdout_ok()) { return 1; }
  }
  return status;
}

/**
 * checksum --ndjson and validate --ndjson: each file read a block at a time (block_reader, on
 * --threads threads), never whole, so that memory is bounded by a block and the longest
 * document however long the stream; the same checksum and errors as over its bytes at once.
 */
int run_streams(const file_options &options, bool with_checksum) {
  simdbridge::block_options blocks;
  blocks.threads = options.threads;
  blocks.parser = options.parser;
  return each_source(options, [&](const std::string &name, simdbridge::cli::file_source &source) {
    const simdbridge::result<uint64_t> r =
        with_checksum ? simdbridge::checksum_stream(source, blocks) : simdbridge::validate_stream(source, blocks);
    if (!r.ok()) {
      report(name, r.error());
      return false;
    }
    print_verdict(name, with_checksum, r.value());
    return true;
  });
}

/** checksum and validate: one line per file. */
int run_files(int argc, char **argv, bool with_checksum) {
  file_options files;
  if (!parse_file_options(argc, argv, files)) { return 2; }
  if (files.stream) { return run_streams(files, with_checksum); }
  std::optional<simdbridge::parser> parser;
  return each_file(files, true, [&](const file_options &options, const std::string &name, simdbridge::input in) {
    if (!parser) { parser.emplace(options.parser); }
    uint64_t checksum = 0;
    simdbridge::error e;
    if (with_checksum) {
      const simdbridge::result<uint64_t> r = parser->checksum(in);
      e = r.error();
      checksum = r.value();
    } else {
      e = parser->validate(in);
    }
    if (!e.ok()) {
      report(name, e);
      return false;
    }
    print_verdict(name, with_checksum, checksum);
    return true;
  });
}

/**
 * arrow-schema: the schema loads_arrow would infer, one field a line ("name: type"); each file
 * (or pipe) read a block at a time, never whole.
 */
int run_arrow_schema(int argc, char **argv) {
  file_options options;
  if (!parse_file_options(argc, argv, options)) { return 2; }
  return each_source(options, [&](const std::string &name, simdbridge::cli::file_source &source) {
    simdbridge::arrow_read_options read;
    read.limits = options.parser;
    ArrowSchema schema{};
    const simdbridge::arrow_error e = simdbridge::infer_arrow_schema_file(source.descriptor(), read, &schema);
    if (!e.ok()) {
      std::fprintf(stderr, "%s: error: %s\n", name.c_str(), e.message.c_str());
      return false;
    }
    if (options.files.size() > 1) { std::printf("%s:\n", name.c_str()); }
    for (int64_t c = 0; c < schema.n_children; c++) {
      const std::string type = simdbridge::describe_arrow_schema(*schema.children[c]);
      std::printf("%s: %s\n", schema.children[c]->name, type.c_str());
    }
    schema.release(&schema);
    return true;
  });
}

/**
 * to-msgpack --ndjson and from-msgpack --stream: each file read a step at a time and its
 * documents or values written as they are converted, so that memory is bounded by a step and
 * the longest one; at an error, the ones before it have been written.
 */
int run_msgpack_streams(const file_options &options, bool to_msgpack) {
  simdbridge::msgpack_options o;
  o.threads = options.threads;
  o.max_depth = options.parser.max_depth;
  o.max_value_length = options.parser.max_document_length;
  simdbridge::parser parser(options.parser);
  const auto write = [](const uint8_t *data, size_t size) { return std::fwrite(data, 1, size, stdout) == size; };
  return each_source(options, [&](const std::string &name, simdbridge::cli::file_source &source) {
    const simdbridge::msgpack_error e = to_msgpack ? simdbridge::json_to_msgpack(parser, source, o, write)
                                                   : simdbridge::msgpack_to_json(source, o, write);
    // (A failed write is said by each_source's check of standard output.)
    if (!e.ok() && e.e.code != simdbridge::error_code::write_failed) { // with the document or value it is in
      std::fprintf(stderr, "%s: error: document %" PRIu64 ": %s at byte %" PRIu64 "\n", name.c_str(), e.document,
                   e.e.message(), e.e.offset);
    }
    return e.ok();
  });
}

/**
 * to-msgpack and from-msgpack: each file converted (msgpack.h) and written to standard output,
 * one after another; an error is reported and nothing of that file written (a stream: the
 * documents or values before it).
 */
int run_msgpack(int argc, char **argv, bool to_msgpack) {
  file_options files;
  if (!parse_file_options(argc, argv, files)) { return 2; }
  if (files.stream) { return run_msgpack_streams(files, to_msgpack); }
  std::optional<simdbridge::parser> parser;
  std::vector<uint8_t> out;
  return each_file(files, true, [&](const file_options &options, const std::string &name, simdbridge::input in) {
    simdbridge::msgpack_options o;
    o.max_depth = options.parser.max_depth;
    o.max_value_length = options.parser.max_document_length;
    simdbridge::msgpack_error e;
    if (to_msgpack) {
      if (!parser) { parser.emplace(options.parser); }
      e = simdbridge::json_to_msgpack(*parser, in, o, out);
    } else {
      e = simdbridge::msgpack_to_json(in, o, out);
      if (e.ok()) { out.push_back('\n'); }
    }
    if (!e.ok()) {
      report(name, e.e);
      return false;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return true;
  });
}

int run(int argc, char **argv) {
  if (argc < 2) {
    std::fputs(usage, stderr);
    return 2;
  }
  const std::string command = argv[1];
  if (command == "checksum") { return run_files(argc - 2, argv + 2, true); }
  if (command == "validate") { return run_files(argc - 2, argv + 2, false); }
  if (command == "arrow-schema") { return run_arrow_schema(argc - 2, argv + 2); }
  if (command == "to-msgpack") { return run_msgpack(argc - 2, argv + 2, true); }
  if (command == "from-msgpack") { return run_msgpack(argc - 2, argv + 2, false); }
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

} // namespace

int main(int argc, char **argv) {
  const int status = run(argc, argv);
  if (!stdout_ok()) { return status == 0 ? 1 : status; }
  return status;
}
