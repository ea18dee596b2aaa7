// SPDX-License-Identifier: Apache-2.0
#include "test_support.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include "checksum_sink.h"
#include "scalar_parser.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIMDBRIDGE_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SIMDBRIDGE_TEST_ASAN 1
#endif
#ifdef SIMDBRIDGE_TEST_ASAN
// The sanitizer runtime's count (declared here: GCC ships no sanitizer/allocator_interface.h).
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif

namespace simdbridge::test {

std::string data_directory() {
  const char *env = std::getenv("SIMDBRIDGE_DATA");
  if (env && *env) { return env; }
  return SIMDBRIDGE_TEST_DATA;
}

std::vector<std::string> list_files(const std::string &directory, const std::string &suffix) {
  std::vector<std::string> out;
  DIR *d = opendir(directory.c_str());
  if (!d) { throw std::runtime_error("cannot open " + directory + " (set SIMDBRIDGE_DATA)"); }
  while (dirent *entry = readdir(d)) {
    const std::string name = entry->d_name;
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 && name != "." &&
        name != "..") {
      out.push_back(directory + "/" + name);
    }
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) { throw std::runtime_error("cannot read " + path); }
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::pair<uint64_t, uint64_t> line_and_column_of(const std::string &text, uint64_t at) {
  const std::string head = text.substr(0, size_t(at));
  const size_t newline = head.rfind('\n');
  const uint64_t line_start = newline == std::string::npos ? 0 : newline + 1;
  return {uint64_t(std::count(head.begin(), head.end(), '\n')) + 1, at - line_start + 1};
}

size_t heap_in_use() {
#ifdef SIMDBRIDGE_TEST_ASAN
  return __sanitizer_get_current_allocated_bytes();
#else
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd; // (large blocks are mapped apart from the heap's arena)
#endif
}

std::string base_name(const std::string &path) { return path.substr(path.find_last_of('/') + 1); }

padded_copy::padded_copy(const std::string &text, char fill)
    : bytes(text.size() + padding, uint8_t(fill)), size(text.size()) {
  std::copy(text.begin(), text.end(), bytes.begin());
}

guarded_page::guarded_page() : page_(size_t(sysconf(_SC_PAGESIZE))) {
  map_ = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map_ == MAP_FAILED) { return; }
  uint8_t *const second = static_cast<uint8_t *>(map_) + page_;
  if (mprotect(second, page_, PROT_NONE) == 0) { end_ = second; }
}

guarded_page::~guarded_page() {
  if (map_ != MAP_FAILED) { munmap(map_, 2 * page_); }
}

namespace {
/** Structural and number bytes make the most telling mutations; any byte may appear. */
char mutation_byte(std::mt19937_64 &rng) {
  static const char telling[] = "{}[],:\"\\0123456789-+.eEtrufalsn \n\t\x01\x7F\xC3\xA9\xED\xF0\xFF";
  if (rng() % 4 == 0) { return char(rng() % 256); }
  return telling[rng() % (sizeof telling - 1)];
}
} // namespace

std::string mutate(const std::string &text, std::mt19937_64 &rng) {
  std::string out = text;
  const int edits = 1 + int(rng() % 3);
  for (int e = 0; e < edits && !out.empty(); e++) {
    const size_t at = rng() % out.size();
    switch (rng() % 4) {
    case 0: out[at] = mutation_byte(rng); break;
    case 1: out.erase(at, 1); break;
    case 2: out.insert(out.begin() + long(at), mutation_byte(rng)); break;
    default:
      if (at + 1 < out.size()) { std::swap(out[at], out[at + 1]); }
      break;
    }
  }
  return out;
}

std::string hex64(uint64_t value) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(value));
  return buf;
}

std::string from_hex(const std::string &hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(char(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

std::vector<reference_line> read_reference(const std::string &path) {
  std::vector<reference_line> out;
  std::ifstream f(path);
  if (!f) { throw std::runtime_error("cannot read the reference's output " + path); }
  std::string line;
  while (std::getline(f, line)) {
    if (line.size() < 17) { continue; }
    const size_t payload = line.find_first_not_of(' ', 16);
    out.push_back({std::stoull(line.substr(0, 16), nullptr, 16),
                   payload == std::string::npos ? "" : line.substr(payload)});
  }
  return out;
}

std::vector<spec_vector> read_spec_vectors(spec_vector *stream) {
  std::ifstream in(SIMDBRIDGE_CHECKSUM_SPEC);
  std::vector<spec_vector> rows;
  std::string line;
  while (std::getline(in, line)) {
    // "| `JSON` | `16 hex` |", and "Stream `TEXT` (...): `16 hex`."
    const size_t middle = line.find("` | `");
    if (line.rfind("| `", 0) == 0 && middle != std::string::npos && line.size() >= middle + 5 + 16 + 3) {
      rows.push_back({line.substr(3, middle - 3), line.substr(middle + 5, 16)});
    } else if (line.rfind("Stream `", 0) == 0 && stream != nullptr) {
      const size_t end = line.find("` ", 8);
      const size_t hex = line.find(": `", end);
      if (end == std::string::npos || hex == std::string::npos) { break; }
      std::string text = line.substr(8, end - 8);
      for (size_t at; (at = text.find("\\n")) != std::string::npos;) { text.replace(at, 2, "\n"); }
      *stream = {text, line.substr(hex + 3, 16)};
    }
  }
  if (rows.size() < 15 || (stream != nullptr && stream->checksum.empty())) {
    throw std::runtime_error(std::string("the test vectors' table was not found in ") + SIMDBRIDGE_CHECKSUM_SPEC);
  }
  return rows;
}

std::string reference_path(const std::string &name) {
  return std::string(SIMDBRIDGE_REFERENCE_DIR) + "/" + name;
}

std::string describe(const outcome &o) {
  if (o.ok) { return "checksum " + hex64(o.checksum); }
  return std::string(error_name(o.code)) + " at byte " + std::to_string(o.offset);
}

outcome outcome_of(const result<uint64_t> &r) {
  if (r.ok()) { return {true, r.value(), error_code::success, 0}; }
  return {false, 0, r.error().code, r.error().offset};
}

outcome slow_checksum(const std::string &text, uint32_t max_depth) {
  internal::checksum_sink sink;
  std::vector<uint8_t> scopes;
  internal::scalar_parser<internal::checksum_sink> slow(
      reinterpret_cast<const uint8_t *>(text.data()), text.size(), max_depth, sink, scopes);
  const error e = slow.parse_document();
  if (!e.ok()) { return {false, 0, e.code, e.offset}; }
  return {true, sink.h, error_code::success, 0};
}

outcome slow_checksum_stream(const std::string &text) {
  internal::checksum_sink sink;
  std::vector<uint8_t> scopes;
  internal::scalar_parser<internal::checksum_sink> slow(
      reinterpret_cast<const uint8_t *>(text.data()), text.size(), SIMDBRIDGE_DEFAULT_MAX_DEPTH,
      sink, scopes);
  size_t pos = 0;
  uint64_t documents = 0;
  const error e = slow.parse_stream(pos, text.size() + 1, documents);
  if (!e.ok()) { return {false, 0, e.code, e.offset}; }
  return {true, sink.h, error_code::success, 0};
}

/** A document's value rendered compactly from its tape (for comparisons). */
std::string render(const tape_view &t, size_t i) {
  switch (t.kind(i)) {
  case tape_kind::object: {
    std::string out = "{";
    size_t j = i + 1;
    while (t.kind(j) != tape_kind::object_end) {
      if (out.size() > 1) { out += ','; }
      out += '"' + std::string(t.string(j)) + "\":" + render(t, j + 1);
      j = t.next(j + 1);
    }
    return out + "}";
  }
  case tape_kind::array: {
    std::string out = "[";
    for (size_t j = i + 1; t.kind(j) != tape_kind::array_end; j = t.next(j)) {
      if (out.size() > 1) { out += ','; }
      out += render(t, j);
    }
    return out + "]";
  }
  case tape_kind::string: return '"' + std::string(t.string(i)) + '"';
  case tape_kind::int64: return std::to_string(t.int64(i));
  case tape_kind::uint64: return std::to_string(t.uint64(i));
  case tape_kind::float64: return std::to_string(t.float64(i));
  case tape_kind::true_value: return "true";
  case tape_kind::false_value: return "false";
  default: return "null";
  }
}

} // namespace simdbridge::test
