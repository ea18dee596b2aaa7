// SPDX-License-Identifier: Apache-2.0
// The fast path's second half: one linear pass over the tape that simdjson's DOM parser wrote,
// feeding a sink in document order: the tape is dense and read in order, cheaper per value than
// a generic On Demand walk (docs/cpp.md, "Design", has the figures).
#ifndef SIMDBRIDGE_SRC_TAPE_WALK_H
#define SIMDBRIDGE_SRC_TAPE_WALK_H

#include <cstdint>
#include <cstring>
#include <vector>

#include <simdjson.h>

#include "parser_state.h"

namespace simdbridge::internal {

/**
 * Whether every string and key of a parsed document is at most `limit` bytes (unescaped): one
 * pass over the tape's string entries. The fast paths call it where a document is long enough
 * to hold a longer string; the scalar parser then names the one that is, at its offset.
 */
inline bool strings_within(const simdjson::dom::document &doc, uint64_t limit) noexcept {
  const uint64_t *tape = doc.tape.get();
  const uint8_t *strings = doc.string_buf.get();
  const size_t end = size_t(tape[0] & simdjson::internal::JSON_VALUE_MASK);
  for (size_t i = 1; i < end; i++) {
    switch (uint8_t(tape[i] >> 56)) {
    case '"': {
      uint32_t length;
      std::memcpy(&length, strings + (tape[i] & simdjson::internal::JSON_VALUE_MASK), sizeof length);
      if (length > limit) { return false; }
      break;
    }
    case 'l': case 'u': case 'd': i++; break; // a number's second word
    default: break;
    }
  }
  return true;
}

/**
 * Whether a document of `size` bytes that simdjson parsed into `doc` holds a string past
 * max_string_length: checked only where the document is long enough to hold one.
 */
inline bool string_past_limit(const parser_options &options, size_t size, const simdjson::dom::document &doc) noexcept {
  return strings_may_pass(options, size) && !strings_within(doc, options.max_string_length);
}

/**
 * Feeds every value of a parsed document (its tape and string buffer) to `sink`. `scopes` must
 * hold at least the document's depth + 1 bytes; it records, per open container, whether it is
 * an object.
 *
 * The tape (simdjson's dom::document::tape) is one 64-bit word per value: the type in the top
 * byte, a payload in the low 56 bits. Numbers take a second word with their bits; strings point
 * into string_buf, at a 32-bit length followed by the unescaped bytes. Keys are strings, told
 * apart by their position: in an object, every other string-or-value starts with a key.
 */
template <typename Sink>
inline void walk_tape(const uint64_t *tape, const uint8_t *strings, Sink &sink, uint8_t *scopes) noexcept {
  const size_t end = size_t(tape[0] & simdjson::internal::JSON_VALUE_MASK);
  size_t depth = 0;
  scopes[0] = 0;
  bool expect_key = false;
  for (size_t i = 1; i < end; i++) {
    const uint64_t word = tape[i];
    switch (uint8_t(word >> 56)) {
    case '{':
      sink.object_begin();
      scopes[++depth] = 1;
      expect_key = true;
      break;
    case '[':
      sink.array_begin();
      scopes[++depth] = 0;
      expect_key = false;
      break;
    case '}':
      sink.object_end();
      expect_key = scopes[--depth];
      break;
    case ']':
      sink.array_end();
      expect_key = scopes[--depth];
      break;
    case '"': {
      uint32_t length;
      std::memcpy(&length, strings + (word & simdjson::internal::JSON_VALUE_MASK), sizeof length);
      if (expect_key) {
        sink.key(length);
        expect_key = false;
      } else {
        sink.string(length);
        expect_key = scopes[depth];
      }
      break;
    }
    case 'l':
    case 'u':
      sink.integer(tape[++i]);
      expect_key = scopes[depth];
      break;
    case 'd': {
      double value;
      std::memcpy(&value, &tape[++i], sizeof value);
      sink.floating(value);
      expect_key = scopes[depth];
      break;
    }
    case 't':
      sink.boolean(true);
      expect_key = scopes[depth];
      break;
    case 'f':
      sink.boolean(false);
      expect_key = scopes[depth];
      break;
    case 'n':
      sink.null();
      expect_key = scopes[depth];
      break;
    default:
      break;
    }
  }
}

template <typename Sink>
inline void walk_tape(const simdjson::dom::document &doc, Sink &sink, uint8_t *scopes) noexcept {
  walk_tape(doc.tape.get(), doc.string_buf.get(), sink, scopes);
}

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_SRC_TAPE_WALK_H
