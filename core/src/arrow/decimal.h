// SPDX-License-Identifier: Apache-2.0
// decimal128 values from number text, as Java's BigDecimal reads them (Spark's JSON source reads
// decimals so), and back to text.
#ifndef SIMDBRIDGE_SRC_ARROW_DECIMAL_H
#define SIMDBRIDGE_SRC_ARROW_DECIMAL_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace simdbridge::arrow {

// (__extension__: GCC's and Clang's 128-bit integers, which -Wpedantic names.)
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

/**
 * The unscaled value of the number `s` at `scale` digits after the point, rounded half up (away
 * from zero on a tie), as BigDecimal(s).setScale(scale, HALF_UP); false where `s` is not a number
 * in BigDecimal's grammar ([+-] digits [. digits] [e [+-] digits], a digit before or after the
 * point) or the value needs more than `precision` (1 to 38) digits.
 */
inline bool parse_decimal(std::string_view s, unsigned precision, int scale, int128 &out) noexcept {
  const size_t n = s.size();
  size_t i = 0;
  bool negative = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) { negative = s[i++] == '-'; }
  char digits[40];   // the significant digits (no leading zero), the first 39
  size_t count = 0;  // significant digits in all
  int64_t fraction = 0; // digits after the point
  bool any = false, point = false;
  for (; i < n; i++) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      any = true;
      fraction += point;
      if (count > 0 || c != '0') {
        if (count < sizeof digits) { digits[count] = c; }
        count++;
      }
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!any) { return false; }
  int64_t exponent = 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    bool down = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) { down = s[i++] == '-'; }
    const size_t first = i;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
      if (exponent < 1000000000) { exponent = exponent * 10 + (s[i] - '0'); }
    }
    if (i == first) { return false; }
    if (down) { exponent = -exponent; }
  }
  if (i != n) { return false; }
  if (count == 0) { // zero
    out = 0;
    return true;
  }
  // value = digits x 10^(exponent - fraction); unscaled = digits x 10^shift
  const int64_t shift = exponent - fraction + scale;
  const int64_t kept = int64_t(count) + shift; // the digits of the unscaled value before rounding
  if (kept > int64_t(precision)) { return false; }
  int128 v = 0;
  if (shift >= 0) {
    for (size_t k = 0; k < count; k++) { v = v * 10 + (digits[k] - '0'); }
    for (int64_t k = 0; k < shift; k++) { v *= 10; }
  } else {
    for (int64_t k = 0; k < kept; k++) { v = v * 10 + (digits[k] - '0'); }
    // The first digit dropped decides (half up); past the significant digits it is a zero.
    if (kept >= 0 && size_t(kept) < count && size_t(kept) < sizeof digits && digits[kept] >= '5') { v += 1; }
  }
  int128 limit = 1;
  for (unsigned k = 0; k < precision; k++) { limit *= 10; }
  if (v >= limit) { return false; } // (a carry from rounding)
  out = negative ? -v : v;
  return true;
}

/** The decimal text of `v` at `scale` ("-12.50" for -1250 at 2), into `out` (room for 42 bytes). */
inline size_t write_decimal128(int128 v, int scale, char *out) noexcept {
  char digits[40];
  size_t count = 0;
  const bool negative = v < 0;
  uint128 u = negative ? uint128(0) - uint128(v) : uint128(v);
  do {
    digits[count++] = char('0' + int(u % 10));
    u /= 10;
  } while (u != 0);
  while (count <= size_t(scale)) { digits[count++] = '0'; } // a digit before the point
  size_t n = 0;
  if (negative) { out[n++] = '-'; }
  for (size_t k = count; k-- > 0;) {
    out[n++] = digits[k];
    if (k == size_t(scale) && scale > 0) { out[n++] = '.'; }
  }
  return n;
}

} // namespace simdbridge::arrow

#endif // SIMDBRIDGE_SRC_ARROW_DECIMAL_H
