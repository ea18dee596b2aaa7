// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The fast ISO-8601 readers against the JDK's parse: whatever a fast reader accepts, the JDK
 * accepts with the same value; what it declines, the JDK decides (and the mapper then reads it
 * the JDK's way, or names the error).
 */
class IsoTimeTest {
    private static <T> int agree(String text, ScalarCodecs.FastParse<T> fast, Function<String, T> jdk) {
        byte[] b = ("xx" + text + "\"padding").getBytes(StandardCharsets.UTF_8);
        int length = text.getBytes(StandardCharsets.UTF_8).length;
        T mine = fast.parse(b, 2, length);
        T theirs;
        try {
            theirs = jdk.apply(text);
        } catch (DateTimeParseException e) {
            assertNull(mine, () -> "the fast reader accepts what the JDK rejects: " + text);
            return 0;
        }
        if (mine != null) {
            assertEquals(theirs, mine, text);
            return 1;
        }
        return 0;
    }

    /** Texts around the common forms: every field at its bounds and past them, and broken forms. */
    private static List<String> texts(Random random, int n) {
        String[] years = {"0000", "0001", "1970", "1999", "2000", "2024", "2100", "9999", "+10000", "-0001", "20a4", "202"};
        String[] months = {"00", "01", "02", "09", "10", "12", "13", "1", "0a"};
        String[] days = {"00", "01", "28", "29", "30", "31", "32", "3"};
        String[] hours = {"00", "09", "12", "23", "24", "1"};
        String[] minutes = {"00", "30", "59", "60"};
        String[] seconds = {"", ":00", ":59", ":60", ":5"};
        String[] fractions = {"", ".", ".1", ".12", ".123", ".123456", ".123456789", ".1234567891", ".5x"};
        String[] zones = {"", "Z", "z", "+00:00", "-00:00", "+01:00", "-05:30", "+18:00", "-18:00", "+18:01", "+19:00",
                "+01", "+0100", "+01:00:30", "+1:00", "+01:60"};
        String[] separators = {"T", "T", "T", "t", " "};
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String date = years[random.nextInt(years.length)] + "-" + months[random.nextInt(months.length)] + "-"
                    + days[random.nextInt(days.length)];
            out.add(date);
            out.add(date + separators[random.nextInt(separators.length)] + hours[random.nextInt(hours.length)] + ":"
                    + minutes[random.nextInt(minutes.length)] + seconds[random.nextInt(seconds.length)]
                    + fractions[random.nextInt(fractions.length)] + zones[random.nextInt(zones.length)]);
        }
        out.add("");
        out.add("2024-02-29T12:00:00Z\u00e9");
        out.add("2024-02-2\u00e9");
        return out;
    }

    @Test
    void fastReadersAgreeWithTheJdk() {
        int accepted = 0;
        for (String text : texts(new Random(11), 40_000)) {
            accepted += agree(text, IsoTime::date, LocalDate::parse);
            accepted += agree(text, IsoTime::dateTime, LocalDateTime::parse);
            accepted += agree(text, IsoTime::instant, Instant::parse);
            accepted += agree(text, IsoTime::offsetDateTime, OffsetDateTime::parse);
        }
        assertTrue(accepted > 4_000, "the fast readers took too few: " + accepted); // 8,189 with this seed
    }

    @Test
    void theCommonFormsTakeTheFastPath() {
        byte[] b = "2026-11-29T12:34:56.789Z".getBytes(StandardCharsets.US_ASCII);
        assertEquals(LocalDate.of(2026, 11, 29), IsoTime.date(b, 0, 10));
        assertEquals(Instant.parse("2026-11-29T12:34:56.789Z"), IsoTime.instant(b, 0, b.length));
        assertEquals(LocalDateTime.parse("2026-11-29T12:34:56.789"), IsoTime.dateTime(b, 0, b.length - 1));
        assertNotNull(IsoTime.offsetDateTime("2026-11-29T12:34:56-05:30".getBytes(StandardCharsets.US_ASCII), 0, 25));
    }

    record Dated(LocalDate date, Instant instant, LocalDateTime local, OffsetDateTime offset) {}

    @Test
    void theMapperReadsBothPathsAndNamesErrors() {
        JsonMapper m = JsonMapper.builder().build();
        // Fast forms, and forms only the JDK reads (lowercase t, no seconds, +10000).
        Dated fast = m.read("{\"date\":\"2024-02-29\",\"instant\":\"2024-05-06T07:08:09.5Z\","
                + "\"local\":\"2024-05-06T07:08:09\",\"offset\":\"2024-05-06T07:08:09+02:00\"}", Dated.class);
        assertEquals(new Dated(LocalDate.of(2024, 2, 29), Instant.parse("2024-05-06T07:08:09.5Z"),
                LocalDateTime.of(2024, 5, 6, 7, 8, 9), OffsetDateTime.parse("2024-05-06T07:08:09+02:00")), fast);
        Dated slow = m.read("{\"date\":\"+10000-01-01\",\"instant\":\"2024-05-06t07:08:09Z\","
                + "\"local\":\"2024-05-06T07:08\",\"offset\":\"2024-05-06T07:08:09+02:00:30\"}", Dated.class);
        assertEquals(new Dated(LocalDate.parse("+10000-01-01"), Instant.parse("2024-05-06T07:08:09Z"),
                LocalDateTime.parse("2024-05-06T07:08"), OffsetDateTime.parse("2024-05-06T07:08:09+02:00:30")), slow);
        // An empty string first in the tape's string bytes (offset 0): an error, not a read before it.
        for (Class<?> type : List.of(LocalDate.class, LocalDateTime.class, Instant.class, OffsetDateTime.class)) {
            JsonBindException empty = assertThrows(JsonBindException.class, () -> m.read("\"\"", type));
            assertTrue(empty.getMessage().startsWith("$: expected an ISO-8601"), empty.getMessage());
        }
        JsonBindException e = assertThrows(JsonBindException.class,
                () -> m.read("{\"date\":\"2023-02-29\"}", Dated.class));
        assertTrue(e.getMessage().contains("$.date: expected an ISO-8601 date, found \"2023-02-29\" (byte 8)"), e.getMessage());
    }
}
