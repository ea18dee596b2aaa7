// SPDX-License-Identifier: Apache-2.0
// Dates and timestamps from their JSON forms: "YYYY-MM-DD" and ISO 8601 strings into days and
// seconds since the epoch (proleptic Gregorian, UTC), counts in a timestamp's unit.
#ifndef SIMDBRIDGE_SRC_ARROW_TEMPORAL_H
#define SIMDBRIDGE_SRC_ARROW_TEMPORAL_H

#include <cstdint>
#include <string_view>

namespace simdbridge::arrow {

/** Days from 1970-01-01 to a civil date (proleptic Gregorian). */
inline int64_t days_from_civil(int64_t y, unsigned m, unsigned d) noexcept {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = unsigned(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + int64_t(doe) - 719468;
}

inline bool digits(std::string_view s, size_t at, size_t n, unsigned &out) {
  if (at + n > s.size()) { return false; }
  out = 0;
  for (size_t i = at; i < at + n; i++) {
    if (s[i] < '0' || s[i] > '9') { return false; }
    out = out * 10 + unsigned(s[i] - '0');
  }
  return true;
}

/** "YYYY-MM-DD": days since the epoch. */
inline bool parse_date(std::string_view s, int64_t &days) {
  unsigned y, m, d;
  if (s.size() < 10 || !digits(s, 0, 4, y) || s[4] != '-' || !digits(s, 5, 2, m) || s[7] != '-' ||
      !digits(s, 8, 2, d) || m < 1 || m > 12 || d < 1 || d > 31) {
    return false;
  }
  days = days_from_civil(y, m, d);
  return true;
}

/**
 * ISO 8601: "YYYY-MM-DD", then optionally 'T' or ' ', "HH:MM[:SS[.fraction]]", and 'Z' or
 * "±HH:MM" / "±HHMM" (no offset: the time is read as UTC). Into seconds since the epoch and
 * the nanoseconds past them.
 */
inline bool parse_timestamp(std::string_view s, int64_t &seconds_out, int64_t &nanos_out) {
  int64_t days;
  if (!parse_date(s, days)) { return false; }
  int64_t seconds = days * 86400, fraction = 0;
  size_t p = 10;
  if (p < s.size() && (s[p] == 'T' || s[p] == ' ')) {
    unsigned h, mi, se = 0;
    if (!digits(s, p + 1, 2, h) || p + 3 >= s.size() || s[p + 3] != ':' || !digits(s, p + 4, 2, mi) || h > 23 || mi > 59) {
      return false;
    }
    p += 6;
    if (p < s.size() && s[p] == ':') {
      if (!digits(s, p + 1, 2, se) || se > 60) { return false; }
      p += 3;
      if (p < s.size() && (s[p] == '.' || s[p] == ',')) {
        p++;
        int64_t scale = 100000000;
        const size_t first = p;
        while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
          fraction += (s[p] - '0') * scale;
          scale /= 10;
          p++;
        }
        if (p == first) { return false; }
      }
    }
    seconds += int64_t(h) * 3600 + int64_t(mi) * 60 + se;
    if (p < s.size() && (s[p] == 'Z' || s[p] == 'z')) {
      p++;
    } else if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
      const int sign = s[p] == '+' ? 1 : -1;
      unsigned oh, om = 0;
      if (!digits(s, p + 1, 2, oh)) { return false; }
      p += 3;
      if (p < s.size() && s[p] == ':') { p++; }
      if (p < s.size()) {
        if (!digits(s, p, 2, om)) { return false; }
        p += 2;
      }
      seconds -= sign * (int64_t(oh) * 3600 + int64_t(om) * 60);
    }
  }
  if (p != s.size()) { return false; }
  seconds_out = seconds;
  nanos_out = fraction;
  return true;
}

inline int64_t nanos_per(char unit) { return unit == 's' ? 1000000000 : unit == 'm' ? 1000000 : unit == 'u' ? 1000 : 1; }

/** seconds and nanoseconds as a count of `unit`; false past int64 (found by make fuzz: year 4048 in ns). */
inline bool to_unit(int64_t seconds, int64_t nanos, char unit, int64_t &out) {
  const int64_t per = nanos_per(unit), per_second = 1000000000 / per;
  int64_t scaled;
  return !__builtin_mul_overflow(seconds, per_second, &scaled) && !__builtin_add_overflow(scaled, nanos / per, &out);
}

} // namespace simdbridge::arrow

#endif // SIMDBRIDGE_SRC_ARROW_TEMPORAL_H
