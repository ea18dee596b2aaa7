// SPDX-License-Identifier: Apache-2.0
// Integers past 64 bits, which simdjson 3.0.1 does not read (a number error): read as the
// nearest double, as pyarrow's and DuckDB's JSON readers read them.
#ifndef SIMDBRIDGE_SRC_ARROW_BIG_INTEGER_H
#define SIMDBRIDGE_SRC_ARROW_BIG_INTEGER_H

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include <simdjson.h>

namespace simdbridge::arrow {

/** Whether the JSON integer of `n` bytes at `p` is past 64 bits: past uint64's maximum, or below int64's minimum. */
inline bool past_64_bits(const uint8_t *p, size_t n) noexcept {
  const bool negative = p[0] == '-';
  const std::string_view digits(reinterpret_cast<const char *>(p) + negative, n - negative);
  const std::string_view most = negative ? "9223372036854775808" : "18446744073709551615";
  return digits.size() > most.size() || (digits.size() == most.size() && digits > most);
}

/**
 * The length of the JSON integer past 64 bits at `p` (ended by white space or a structural
 * character, read from the padding where it ends the input); 0 where `p` holds anything else (a
 * number simdjson reads, a fraction or exponent, a leading zero).
 */
inline size_t big_integer_length(const uint8_t *p) noexcept {
  size_t n = p[0] == '-';
  const size_t first = n;
  while (p[n] >= '0' && p[n] <= '9') { n++; }
  if (n == first || p[first] == '0' || simdjson::fallback::jsoncharutils::is_not_structural_or_whitespace(p[n]) != 0 ||
      !past_64_bits(p, n)) {
    return 0;
  }
  return n;
}

/** The JSON integer past 64 bits at `p` (see big_integer_length) as the nearest double; false where there is none. */
inline bool parse_big_integer(const uint8_t *p, double &out) noexcept {
  const size_t n = big_integer_length(p);
  if (n == 0) { return false; }
  const char *text = reinterpret_cast<const char *>(p);
  const std::from_chars_result r = std::from_chars(text, text + n, out);
  return r.ec == std::errc() && r.ptr == text + n;
}

/**
 * The valid JSON document [p, p + n) into `out` with ".0" after each integer past 64 bits, so
 * that simdjson's DOM reads it as a double; false (and `out` unspecified) where it has none.
 */
inline bool widen_big_integers(const uint8_t *p, size_t n, std::vector<uint8_t> &out) {
  out.clear();
  bool widened = false;
  for (size_t i = 0; i < n;) {
    const uint8_t c = p[i];
    if (c == '"') { // a string or key, whole (its escapes skipped over)
      size_t j = i + 1;
      while (j < n && p[j] != '"') { j += p[j] == '\\' ? 2 : 1; }
      j = j < n ? j + 1 : n;
      out.insert(out.end(), p + i, p + j);
      i = j;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t j = i + 1;
      bool integer = true;
      for (; j < n; j++) {
        const uint8_t d = p[j];
        if (d == '.' || d == 'e' || d == 'E' || d == '+' || d == '-') {
          integer = false;
        } else if (d < '0' || d > '9') {
          break;
        }
      }
      out.insert(out.end(), p + i, p + j);
      if (integer && past_64_bits(p + i, j - i)) {
        out.push_back('.');
        out.push_back('0');
        widened = true;
      }
      i = j;
    } else {
      out.push_back(c);
      i++;
    }
  }
  return widened;
}

} // namespace simdbridge::arrow

#endif // SIMDBRIDGE_SRC_ARROW_BIG_INTEGER_H
