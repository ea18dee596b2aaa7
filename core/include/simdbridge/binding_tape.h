// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_BINDING_TAPE_H
#define SIMDBRIDGE_BINDING_TAPE_H

#include <cstddef>
#include <cstdint>

namespace simdbridge {

/**
 * The binding tape: a parsed document written into the caller's two arrays in one call, for a
 * front end that binds values to its own objects (the JVM's data binding) without calling back
 * per value. Unlike simdjson's tape (document.h) it keeps every value's byte offset in the
 * input, for error messages, and it holds what simdjson cannot (integers past 64 bits, numbers
 * past the double range, lone surrogate escapes).
 *
 * Every value and every object key is one entry of two 64-bit words, in document order:
 *
 * - word 0: the kind (`binding_tape_entry`) in the top 8 bits; bit 55 set on a string that holds
 *   a lone surrogate (see below), bit 54 on a string known to be ASCII, bit 53 on a string left
 *   in the input (see below); the value's byte offset in the input in the low 48 bits (a
 *   string's or key's opening quote, a number's first byte, a container's bracket).
 * - word 1, by kind:
 *   - object, array: the word index just past the container's last entry in the high 32 bits,
 *     the number of members or elements in the low 32 bits;
 *   - string, and an object's keys: offset into `strings` in the high 32 bits, byte length in
 *     the low 32 bits. `strings` holds the unescaped UTF-8, one string after another; a lone
 *     surrogate escape (\uD800) is written as its 3-byte generalized UTF-8 form (WTF-8);
 *     a string value left in the input (bit 53 set, binding_tape_buffer::strings_in_input) has
 *     the offset of its first byte in the input in the high 32 bits instead, its bytes there
 *     being its value as they are;
 *   - int64: the value; uint64: the value (an integer in [2^63, 2^64)); float64: the bits of
 *     the double;
 *   - big_number: the length of the number's token (an integer past 64 bits, or a number past
 *     the double range), which the caller reads from the input at the entry's offset;
 *   - true, false, null: 0.
 *
 * An object's entries alternate key, value. The document's value is the entry at word 0.
 */
enum class binding_tape_entry : uint8_t {
  object = 1,
  array = 2,
  string = 3,
  int64 = 4,
  uint64 = 5,
  float64 = 6,
  big_number = 7,
  true_value = 8,
  false_value = 9,
  null_value = 10,
};

/** Bit 55 of word 0: the string holds a lone surrogate (in WTF-8). */
inline constexpr uint64_t binding_tape_lone_surrogate = uint64_t(1) << 55;
/** Bit 54 of word 0: the string is all ASCII (set by the fast reader; a hint, never required). */
inline constexpr uint64_t binding_tape_ascii = uint64_t(1) << 54;
/**
 * Bit 53 of word 0: the string value is its bytes in the input, unchanged (word 1's high 32 bits
 * then give their offset in the input, not in `strings`). Written only where the caller asked
 * for it (binding_tape_buffer::strings_in_input) and the fast reader found the input all ASCII
 * with no backslash, so that no string of it needs unescaping: such a string is also ASCII.
 * Keys are always copied into `strings`.
 */
inline constexpr uint64_t binding_tape_in_input = uint64_t(1) << 53;
/** The low 48 bits of word 0: the byte offset. */
inline constexpr uint64_t binding_tape_offset_mask = (uint64_t(1) << 48) - 1;

/**
 * The caller's arrays, and what a call wrote (or, when it returned output_too_small, the sizes
 * it would have needed: grow the arrays to those and call again).
 */
struct binding_tape_buffer {
  uint64_t *words = nullptr;
  size_t word_capacity = 0;
  uint8_t *strings = nullptr;
  size_t string_capacity = 0;
  /**
   * In: string values may be left in the input (binding_tape_in_input) rather than copied into
   * `strings`, for a caller that keeps the input and reads them from there (the JVM's binding
   * does). A copy less per string on inputs that have no escape.
   */
  bool strings_in_input = false;
  /** Out: words written (or needed). */
  size_t words_used = 0;
  /** Out: bytes of `strings` written (or needed). */
  size_t strings_used = 0;
  /** Out: whether the objects of a binding plan were written without their keys (binding_plan.h). */
  bool planned = false;
};

} // namespace simdbridge

#endif // SIMDBRIDGE_BINDING_TAPE_H
