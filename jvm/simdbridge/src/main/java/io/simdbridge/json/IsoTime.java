// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The common ISO-8601 forms read straight from a string's UTF-8 bytes, with no String made and
 * no DateTimeFormatter (whose parse costs about 0.3 us a value): {@code 2026-11-29},
 * {@code 2026-11-29T12:34:56} with an optional fraction of 1 to 9 digits, then {@code Z} for an
 * Instant, {@code Z} or {@code +01:00} for an OffsetDateTime. Each reader returns null for
 * anything else (other years, a lowercase {@code t}, no seconds, a leap second, an invalid
 * date...), and its caller then hands the text to the JDK's own parse, which decides: what the
 * fast path accepts, the JDK accepts with the same value.
 */
final class IsoTime {
    private IsoTime() {}

    /** yyyy-MM-dd. */
    static LocalDate date(byte[] b, int at, int length) {
        if (length != 10) {
            return null;
        }
        return localDate(b, at);
    }

    /** yyyy-MM-ddTHH:mm:ss[.f], no offset. */
    static LocalDateTime dateTime(byte[] b, int at, int length) {
        int end = timeEnd(b, at, length);
        return end == length ? localDateTime(b, at, length) : null;
    }

    /** yyyy-MM-ddTHH:mm:ss[.f]Z. */
    static Instant instant(byte[] b, int at, int length) {
        int end = timeEnd(b, at, length);
        if (end < 0 || end != length - 1 || b[at + end] != 'Z') {
            return null;
        }
        LocalDateTime t = localDateTime(b, at, end);
        return t == null ? null : t.toInstant(ZoneOffset.UTC);
    }

    /** yyyy-MM-ddTHH:mm:ss[.f] then Z or +HH:mm / -HH:mm. */
    static OffsetDateTime offsetDateTime(byte[] b, int at, int length) {
        int end = timeEnd(b, at, length);
        if (end < 0) {
            return null;
        }
        ZoneOffset offset;
        if (end == length - 1 && b[at + end] == 'Z') {
            offset = ZoneOffset.UTC;
        } else if (end == length - 6 && (b[at + end] == '+' || b[at + end] == '-') && b[at + end + 3] == ':') {
            int hours = two(b, at + end + 1), minutes = two(b, at + end + 4);
            if (hours < 0 || minutes < 0 || hours > 18 || minutes > 59) {
                return null;
            }
            int sign = b[at + end] == '-' ? -1 : 1;
            try {
                offset = ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
            } catch (DateTimeException e) {
                return null;
            }
        } else {
            return null;
        }
        LocalDateTime t = localDateTime(b, at, end);
        return t == null ? null : OffsetDateTime.of(t, offset);
    }

    /**
     * Where the date-time part (yyyy-MM-ddTHH:mm:ss with an optional fraction) of the text ends,
     * counted from at, or -1 where the text does not start with one.
     */
    private static int timeEnd(byte[] b, int at, int length) {
        if (length < 19 || b[at + 10] != 'T' || b[at + 13] != ':' || b[at + 16] != ':') {
            return -1;
        }
        int end = 19;
        if (end < length && b[at + end] == '.') {
            int digits = 0;
            for (end++; end < length && isDigit(b[at + end]); end++) {
                digits++;
            }
            if (digits == 0 || digits > 9) {
                return -1;
            }
        }
        return end;
    }

    /** The date-time in [at, at + end) (its form checked by timeEnd), or null where a field is out of range. */
    private static LocalDateTime localDateTime(byte[] b, int at, int end) {
        LocalDate date = localDate(b, at);
        int hour = two(b, at + 11), minute = two(b, at + 14), second = two(b, at + 17);
        if (date == null || hour < 0 || minute < 0 || second < 0 || hour > 23 || minute > 59 || second > 59) {
            return null;
        }
        int nanos = 0;
        if (end > 19) {
            int i = 20;
            for (; i < end; i++) {
                nanos = nanos * 10 + (b[at + i] - '0');
            }
            for (; i < 29; i++) {
                nanos *= 10;
            }
        }
        return LocalDateTime.of(date, LocalTime.of(hour, minute, second, nanos));
    }

    /** yyyy-MM-dd at `at` (four-digit year), or null. */
    private static LocalDate localDate(byte[] b, int at) {
        if (b[at + 4] != '-' || b[at + 7] != '-') {
            return null;
        }
        int high = two(b, at), low = two(b, at + 2), month = two(b, at + 5), day = two(b, at + 8);
        if (high < 0 || low < 0 || month < 1 || month > 12 || day < 1) {
            return null;
        }
        try {
            return LocalDate.of(high * 100 + low, month, day);
        } catch (DateTimeException e) {
            return null; // a day past the month's end: the JDK's parse names the error
        }
    }

    /** Two decimal digits at i as a number, or -1. */
    private static int two(byte[] b, int i) {
        return isDigit(b[i]) && isDigit(b[i + 1]) ? (b[i] - '0') * 10 + (b[i + 1] - '0') : -1;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }
}
