// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_DOCUMENT_H
#define SIMDBRIDGE_DOCUMENT_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

namespace simdbridge {

/**
 * A parsed document as a tape: one 64-bit word per value, in document order, which a front end
 * walks to build its own objects (Python's, say) without seeing simdjson. It is simdjson's DOM
 * tape, described here so that nothing else needs simdjson's headers:
 *
 * - word 0 is the root; the document's value starts at word 1 (`tape_view::first`).
 * - the top byte of a word is its kind (`tape_kind`), the low 56 bits its payload.
 * - '{' and '[': the low 32 bits are the index just past the matching '}' or ']'; bits 32-55
 *   hold the number of members or elements (saturated at 0xFFFFFF).
 * - '"': the payload is an offset into `strings`, where a 32-bit length precedes the
 *   unescaped UTF-8 bytes. In an object, the words alternate key string, value.
 * - 'l', 'u', 'd': the next word holds the int64, uint64 or double bits.
 *
 * A view is valid as long as the document it came from.
 */
enum class tape_kind : uint8_t {
  object = '{',
  object_end = '}',
  array = '[',
  array_end = ']',
  string = '"',
  int64 = 'l',
  uint64 = 'u',
  float64 = 'd',
  true_value = 't',
  false_value = 'f',
  null_value = 'n',
};

struct tape_view {
  const uint64_t *words = nullptr;
  const uint8_t *strings = nullptr;

  /** Where the document's value starts. */
  static constexpr size_t first = 1;
  /** The count in a container word saturates here; count it by walking beyond. */
  static constexpr uint32_t count_saturated = 0xFFFFFF;

  tape_kind kind(size_t i) const noexcept { return tape_kind(words[i] >> 56); }

  /** The index just past the value at i (a container's end, or the scalar's word or words). */
  size_t next(size_t i) const noexcept {
    const uint64_t w = words[i];
    switch (tape_kind(w >> 56)) {
    case tape_kind::object:
    case tape_kind::array: return size_t(w & 0xFFFFFFFF);
    case tape_kind::int64:
    case tape_kind::uint64:
    case tape_kind::float64: return i + 2;
    default: return i + 1;
    }
  }

  /** Members of an object or elements of an array at i, saturated at count_saturated. */
  uint32_t count(size_t i) const noexcept { return uint32_t((words[i] >> 32) & 0xFFFFFF); }

  std::string_view string(size_t i) const noexcept {
    const uint8_t *p = strings + (words[i] & 0x00FFFFFFFFFFFFFF);
    uint32_t length;
    std::memcpy(&length, p, sizeof length);
    return {reinterpret_cast<const char *>(p + sizeof length), length};
  }

  int64_t int64(size_t i) const noexcept { return int64_t(words[i + 1]); }
  uint64_t uint64(size_t i) const noexcept { return words[i + 1]; }
  double float64(size_t i) const noexcept {
    double d;
    std::memcpy(&d, &words[i + 1], sizeof d);
    return d;
  }
};

class parser;

/**
 * A parsed document that owns its tape: it outlives the next parse of the parser that made it,
 * and moves without copying. Fill it with parser::parse(input, document&).
 *
 * Example:
 *
 *     simdbridge::document doc;
 *     if (parser.parse(simdbridge::input::copy_of(R"({"a":[1,2]})"), doc).ok()) {
 *       simdbridge::tape_view t = doc.tape();
 *       // t.kind(tape_view::first) == tape_kind::object
 *     }
 */
class document {
public:
  document() noexcept;
  ~document();
  document(document &&) noexcept;
  document &operator=(document &&) noexcept;
  document(const document &) = delete;
  document &operator=(const document &) = delete;

  /** The tape; empty (words == nullptr) before a successful parse. */
  tape_view tape() const noexcept;

  /** Bytes of JSON this document can hold without allocating again (a reused document keeps
   *  the buffers of its largest parse). */
  size_t capacity() const noexcept;

  struct state;

private:
  std::unique_ptr<state> state_;
  friend class parser;
  friend class stream_reader;
  friend class block_reader;
};

} // namespace simdbridge

#endif // SIMDBRIDGE_DOCUMENT_H
