// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_WRITER_H
#define SIMDBRIDGE_WRITER_H

#include <cstddef>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace simdbridge {

/**
 * The room write_json_string() needs for `units` UTF-16 code units: each as \uXXXX, the quotes,
 * and 8 bytes of slack (it writes an escape as one 8-byte store).
 */
constexpr size_t json_string_capacity(size_t units) noexcept { return 6 * units + 10; }

/**
 * Writes UTF-16 text (a Java String's chars) as a JSON string in UTF-8, quotes included, into
 * `out` (room for json_string_capacity(units) bytes); returns the bytes written. Escaped: '"',
 * '\\', and the control characters U+0000 to U+001F (\b \t \n \f \r in their short form, the
 * others as \u00xx); '/' and U+007F are not. A surrogate pair becomes its 4-byte UTF-8; a lone
 * surrogate, which has no UTF-8, its \uXXXX escape (so that it reads back). Lowercase hex digits.
 * Sixteen or eight code units at a time where none needs work (SSE2), one at a time in a block
 * that holds one; the last ones as the text's last eight where those need none.
 */
size_t write_json_string(const char16_t *text, size_t units, uint8_t *out) noexcept;

/** The room write_json_string_utf8() and write_json_escaped_utf8() need for `bytes` bytes of
 *  UTF-8: each byte as \u00xx, the quotes, and the 16 bytes a last vector is stored as. */
constexpr size_t json_string_capacity_utf8(size_t bytes) noexcept { return 6 * bytes + 18; }

/**
 * Writes UTF-8 text (an Arrow string's bytes) as a JSON string, quotes included, escaped as
 * write_json_string escapes (controls, '"', '\\'); every other byte as it is: the quotes
 * around write_json_escaped_utf8's text.
 */
size_t write_json_string_utf8(const uint8_t *text, size_t bytes, uint8_t *out) noexcept;

/**
 * The inside of a JSON string for UTF-8 text, without its quotes: '"', '\\' and the controls
 * escaped as write_json_string escapes them, DEL (U+007F) as \u007f where `escape_del` (Python's
 * json.dumps with ensure_ascii), every other byte as it is. `out` needs room for
 * json_string_capacity_utf8(bytes) bytes; returns the bytes written. Sixteen bytes at a time
 * (SSE2), the last ones in one vector where it does not cross a page, so that a string's length
 * costs no branch per size; text of up to 32 bytes with nothing to escape in one or two vectors.
 */
size_t write_json_escaped_utf8(const uint8_t *text, size_t bytes, uint8_t *out, bool escape_del) noexcept;

/** A decimal number: significand x 10^exponent. */
struct decimal {
  uint64_t significand = 0;
  int exponent = 0;
};

/**
 * The shortest decimal that reads back as `d` (finite; its sign is the caller's), and of those
 * the closest to `d` (on a tie, the even significand): the digits of Python's repr(float) and of
 * std::to_chars. No trailing zeros in the significand (0 for zero); at most 17 digits. Schubfach:
 * one table lookup and three 128-bit multiplications, no loop over digits.
 */
decimal shortest_decimal(double d) noexcept;

/**
 * The 8 digits of x < 10^8, leading zeros included, as ASCII in one little-endian word (first
 * digit in the lowest byte): x's two 4-digit halves in two 32-bit lanes, each split into two
 * 2-digit pairs in 16-bit lanes, each pair into two digits in bytes (quotients by
 * multiplication: x*10486 >> 20 is x/100 below 10^4, x*103 >> 10 is x/10 below 100).
 */
inline uint64_t eight_digit_word(uint32_t x) noexcept {
  const uint64_t halves = uint64_t(x / 10000) | uint64_t(x % 10000) << 32;
  const uint64_t hundreds = (halves * 10486 >> 20) & 0x0000007F0000007FULL;
  const uint64_t pairs = hundreds | (halves - hundreds * 100) << 16;
  const uint64_t tens = (pairs * 103 >> 10) & 0x000F000F000F000FULL;
  return (tens | (pairs - tens * 10) << 8) | 0x3030303030303030ULL;
}

/**
 * The decimal digits of `v`, most significant first, with no leading zero ("0" for 0), into `out`,
 * which must have room for 24 bytes: the digits are made eight at a time in one 64-bit word each
 * (eight_digit_word) and stored whole, so up to 7 bytes past the last digit are written over.
 * Returns the count (1 to 20). No division and no loop per digit.
 */
inline size_t write_decimal_digits(uint64_t v, char *out) noexcept {
  const auto store = [](char *to, uint64_t word) noexcept {
    for (int i = 0; i < 8; i++) { to[i] = char(word >> (8 * i)); } // one 8-byte store (GCC)
  };
  // The leading group (1 to 8 digits): its word shifted past the leading zeros.
  const auto lead = [&](uint32_t x, char *to) noexcept -> size_t {
    const size_t n = 1 + size_t(x >= 10) + size_t(x >= 100) + size_t(x >= 1000) + size_t(x >= 10000) +
                     size_t(x >= 100000) + size_t(x >= 1000000) + size_t(x >= 10000000);
    store(to, eight_digit_word(x) >> (8 * (8 - n)));
    return n;
  };
  constexpr uint64_t e8 = 100000000;
  if (v < e8) { return lead(uint32_t(v), out); }
  const uint64_t high = v / e8;
  const uint32_t low = uint32_t(v - high * e8);
  size_t n;
  if (high < 100) { // 9 or 10 digits (ids, timestamps): the one or two before the last eight
    const uint32_t tens = uint32_t(high) / 10;
    out[0] = char('0' + tens);
    out[tens != 0] = char('0' + uint32_t(high) - 10 * tens);
    n = 1 + size_t(tens != 0);
  } else if (high < e8) {
    n = lead(uint32_t(high), out);
  } else {
    const uint64_t top = high / e8; // up to 1844
    n = lead(uint32_t(top), out);
    store(out + n, eight_digit_word(uint32_t(high - top * e8)));
    n += 8;
  }
  store(out + n, eight_digit_word(low));
  return n + 8;
}

/** The number of decimal digits of v (1 to 20). */
inline int decimal_length(uint64_t v) noexcept {
  static constexpr uint64_t powers[20] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
                                          10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
                                          100000000000ULL, 1000000000000ULL, 10000000000000ULL,
                                          100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
                                          100000000000000000ULL, 1000000000000000000ULL,
                                          10000000000000000000ULL};
  const int log10_floor = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12; // of 2^bits: v's, or one more
  return log10_floor + 1 - int(v < powers[log10_floor]);
}

/**
 * A finite double as text, with its shortest round-trip digits (shortest_decimal), into `out`
 * (room for 48 bytes, all of which may be written over); returns the bytes written. Positional
 * ("0.001", "120.0", "1.5") where the number of digits before the point is from `lowest_point`
 * (-5 to 0) to 16, else d[.ddd]e[+-]x, with at least two exponent digits where
 * `two_digit_exponent`: Python's repr is (-3, true), orjson's (-4, false).
 */
size_t write_double(double d, char *out, int lowest_point, bool two_digit_exponent) noexcept;

} // namespace simdbridge

#endif // SIMDBRIDGE_WRITER_H
