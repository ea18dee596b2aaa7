// SPDX-License-Identifier: Apache-2.0
// Helpers the core's tests share: the corpus, padded buffers, the reference's outputs, and the
// scalar parser run on its own (the arbiter the fast paths are checked against).
#ifndef SIMDBRIDGE_TESTS_TEST_SUPPORT_H
#define SIMDBRIDGE_TESTS_TEST_SUPPORT_H

#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "simdbridge/document.h"
#include "simdbridge/parser.h"

namespace simdbridge::test {

/** SIMDBRIDGE_DATA, or the data directory the build was configured with. */
std::string data_directory();

/** The files of `directory` whose names end with `suffix`, sorted. */
std::vector<std::string> list_files(const std::string &directory, const std::string &suffix);

std::string read_file(const std::string &path);

/** The line and column (from 1) of byte `at` of `text`. */
std::pair<uint64_t, uint64_t> line_and_column_of(const std::string &text, uint64_t at);

/** The heap in use now, in bytes (AddressSanitizer's count under it, else glibc's). */
size_t heap_in_use();

/** A document's value rendered compactly from its tape (for comparisons). */
std::string render(const tape_view &t, size_t i);

/** The last path component. */
std::string base_name(const std::string &path);

/** `text` in a fresh buffer with `padding` bytes of `fill` after it (to show they are ignored). */
struct padded_copy {
  explicit padded_copy(const std::string &text, char fill = '1');
  input in() const noexcept { return input::padded(bytes.data(), size, bytes.size()); }
  std::vector<uint8_t> bytes;
  size_t size;
};

/**
 * A page that can be read and written, followed by one that cannot: bytes placed so that they end
 * at end() - n are read no further than n bytes past them, or the test faults.
 */
class guarded_page {
public:
  guarded_page();
  ~guarded_page();
  guarded_page(const guarded_page &) = delete;
  guarded_page &operator=(const guarded_page &) = delete;
  /** Whether the pages were mapped and the second made unreadable. */
  bool ok() const noexcept { return end_ != nullptr; }
  /** The writable page's first byte, and its size. */
  uint8_t *begin() const noexcept { return end_ - page_; }
  size_t size() const noexcept { return page_; }
  /** The first byte of the page that cannot be read. */
  uint8_t *end() const noexcept { return end_; }

private:
  size_t page_;
  void *map_;
  uint8_t *end_ = nullptr;
};

std::string hex64(uint64_t value);
std::string from_hex(const std::string &hex);

/** The double with these bits. */
inline double from_bits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

/** A line of a reference file: "<16 hex> <payload>". */
struct reference_line {
  uint64_t checksum;
  std::string payload;
};
/** Reads a file written by tests/reference/checksum_reference.py. */
std::vector<reference_line> read_reference(const std::string &path);
/** A test vector of the checksum contract: JSON text and its checksum in hex. */
struct spec_vector {
  std::string json;
  std::string checksum;
};
/**
 * The vectors of the contract's table in docs/checksum.md, read from that file (the one place
 * they are written); `stream` is set to its stream vector (the table's \n made newlines).
 */
std::vector<spec_vector> read_spec_vectors(spec_vector *stream = nullptr);
/** How GoogleTest names a vector in its output: its JSON text. */
inline void PrintTo(const spec_vector &v, std::ostream *os) { *os << v.json; }

/** Where ctest's reference fixtures wrote `name` (reference_corpus.txt, ...). */
std::string reference_path(const std::string &name);

/**
 * `text` damaged by one to three edits: a byte replaced, deleted, inserted or swapped with the
 * next (structural and number bytes the likeliest, any byte possible).
 */
std::string mutate(const std::string &text, std::mt19937_64 &rng);

/** The outcome of a read, for comparisons: a checksum, or an error and its offset. */
struct outcome {
  bool ok = false;
  uint64_t checksum = 0;
  error_code code = error_code::success;
  uint64_t offset = 0;
  bool operator==(const outcome &o) const {
    return ok == o.ok && (ok ? checksum == o.checksum : code == o.code && offset == o.offset);
  }
};
std::string describe(const outcome &o);
outcome outcome_of(const result<uint64_t> &r);

/** The scalar parser alone, as the engine's slow path runs it. */
outcome slow_checksum(const std::string &text, uint32_t max_depth = SIMDBRIDGE_DEFAULT_MAX_DEPTH);
outcome slow_checksum_stream(const std::string &text);

} // namespace simdbridge::test

#endif // SIMDBRIDGE_TESTS_TEST_SUPPORT_H
