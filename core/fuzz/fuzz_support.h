// SPDX-License-Identifier: Apache-2.0
// What the fuzz targets share: how a finding stops the run (abort with a message, which
// libFuzzer saves with its input), outcomes to compare, and the scalar parser run alone, the
// second implementation the fast paths are checked against.
#ifndef SIMDBRIDGE_FUZZ_SUPPORT_H
#define SIMDBRIDGE_FUZZ_SUPPORT_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "checksum_sink.h"
#include "scalar_parser.h"
#include "simdbridge/parser.h"
#include "simdbridge/stream.h"

namespace simdbridge::fuzz {

/** A stream in memory handed out `piece` bytes at a time. */
class pieces final : public stream_source {
public:
  pieces(const uint8_t *data, size_t size, size_t piece) : data_(data), size_(size), piece_(piece) {}
  result<size_t> read(uint8_t *into, size_t capacity) noexcept override {
    const size_t n = std::min({capacity, piece_, size_ - at_});
    if (n > 0) { std::memcpy(into, data_ + at_, n); }
    at_ += n;
    return n;
  }

private:
  const uint8_t *data_;
  size_t size_, piece_, at_ = 0;
};

/** A checksum, or an error and its offset. */
struct outcome {
  bool ok = false;
  uint64_t value = 0;
  error_code code = error_code::success;
  uint64_t offset = 0;

  static outcome of(const result<uint64_t> &r) {
    return r.ok() ? outcome{true, r.value(), error_code::success, 0} : outcome{false, 0, r.error().code, r.error().offset};
  }
  static outcome of(const error &e) { return {e.ok(), 0, e.code, e.offset}; }
  bool same_verdict(const outcome &o) const { return ok == o.ok && (ok || (code == o.code && offset == o.offset)); }
  bool operator==(const outcome &o) const { return same_verdict(o) && value == o.value; }
  std::string describe() const {
    char text[96];
    if (ok) {
      std::snprintf(text, sizeof text, "ok %016llx", (unsigned long long)value);
    } else {
      std::snprintf(text, sizeof text, "%s at byte %llu", error_name(code), (unsigned long long)offset);
    }
    return text;
  }
};

/** A finding: says what differed, then aborts (libFuzzer writes the input to crash-*). */
[[noreturn]] inline void fail(const char *what, const outcome &a, const outcome &b) {
  std::fprintf(stderr, "FINDING: %s: %s vs %s\n", what, a.describe().c_str(), b.describe().c_str());
  std::abort();
}

inline void expect(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "FINDING: %s\n", what);
    std::abort();
  }
}

/** The scalar parser's checksum of one document, with a parser's limits. */
inline outcome slow_checksum(const uint8_t *data, size_t size, const parser_options &options) {
  internal::checksum_sink sink;
  std::vector<uint8_t> scopes;
  internal::scalar_parser<internal::checksum_sink> slow(data, size, options, sink, scopes);
  if (options.max_document_length != 0 && size > options.max_document_length) {
    return {false, 0, error_code::document_too_long, options.max_document_length};
  }
  const error e = slow.parse_document();
  return e.ok() ? outcome{true, sink.h, error_code::success, 0} : outcome::of(e);
}

/** The scalar parser's checksum of a stream. */
inline outcome slow_checksum_stream(const uint8_t *data, size_t size, const parser_options &options) {
  internal::checksum_sink sink;
  std::vector<uint8_t> scopes;
  internal::scalar_parser<internal::checksum_sink> slow(data, size, options, sink, scopes);
  size_t pos = 0;
  uint64_t documents = 0;
  const error e = slow.parse_stream(pos, size + 1, documents);
  return e.ok() ? outcome{true, sink.h, error_code::success, 0} : outcome::of(e);
}

/**
 * The bytes followed by `padding` bytes of '1' (which would continue a number at the end, so
 * that the parser must not read them as part of the input): read in place.
 */
struct padded_bytes {
  padded_bytes(const uint8_t *data, size_t size) : bytes(data, data + size), length(size) {
    bytes.resize(size + SIMDBRIDGE_PADDING, '1');
  }
  input in() const { return input::padded(bytes.data(), length, bytes.size()); }
  std::vector<uint8_t> bytes;
  size_t length;
};

} // namespace simdbridge::fuzz

#endif // SIMDBRIDGE_FUZZ_SUPPORT_H
