// SPDX-License-Identifier: Apache-2.0
// The text of dates, times and UUIDs as orjson writes them (dumpb): RFC 3339 dates and times,
// UTC offsets in whole minutes, UUIDs in their 8-4-4-4-12 form. Each writes into the output
// with room it reserves itself.
#ifndef SIMDBRIDGE_PYTHON_DATETIME_TEXT_H
#define SIMDBRIDGE_PYTHON_DATETIME_TEXT_H

#include "text_output.h"

namespace simdbridge::python {

/** n as `width` digits, zero-padded (unchecked: the caller reserved them). */
inline void put_digits(output &out, int n, int width) {
  char buf[8];
  for (int i = width - 1; i >= 0; i--) {
    buf[i] = char('0' + n % 10);
    n /= 10;
  }
  out.put(buf, size_t(width));
}

/** YYYY-MM-DD, with room reserved for a whole datetime after it ('T', a time and an offset). */
inline void put_date(output &out, int year, int month, int day) {
  out.reserve(32);
  put_digits(out, year, 4);
  out.put('-');
  put_digits(out, month, 2);
  out.put('-');
  put_digits(out, day, 2);
}

/** HH:MM:SS, then .ffffff where there are microseconds and `microseconds` asks for them. */
inline void put_time(output &out, int hour, int minute, int second, int microsecond, bool microseconds) {
  out.reserve(15);
  put_digits(out, hour, 2);
  out.put(':');
  put_digits(out, minute, 2);
  out.put(':');
  put_digits(out, second, 2);
  if (microsecond != 0 && microseconds) {
    out.put('.');
    put_digits(out, microsecond, 6);
  }
}

/**
 * An offset east of UTC, in seconds, as +HH:MM, or Z for 0 if `utc_z`. As orjson writes it: the
 * minutes rounded to the nearest (RFC 3339's "closest representable UTC offset": 19 minutes 32
 * seconds is +00:20), the hours not carried into (59 minutes 30 seconds is :60).
 */
inline void put_utc_offset(output &out, long offset, bool utc_z) {
  out.reserve(6);
  if (offset == 0 && utc_z) {
    out.put('Z');
    return;
  }
  const long magnitude = offset < 0 ? -offset : offset;
  out.put(offset < 0 ? '-' : '+');
  put_digits(out, int(magnitude / 3600), 2);
  out.put(':');
  put_digits(out, int(magnitude / 60 % 60 + (magnitude % 60 >= 30 ? 1 : 0)), 2);
}

/** A UUID's 32 hexadecimal digits (UUID.hex) as 8-4-4-4-12. */
inline void put_uuid(output &out, const char *hex) {
  out.reserve(36);
  out.put(hex, 8);
  out.put('-');
  out.put(hex + 8, 4);
  out.put('-');
  out.put(hex + 12, 4);
  out.put('-');
  out.put(hex + 16, 4);
  out.put('-');
  out.put(hex + 20, 12);
}

} // namespace simdbridge::python

#endif // SIMDBRIDGE_PYTHON_DATETIME_TEXT_H
