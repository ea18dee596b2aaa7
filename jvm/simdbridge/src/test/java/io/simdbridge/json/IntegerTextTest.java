// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * JsonWriter's integer digits (putDigits: groups of eight made in the lanes of a long, the rest
 * by pairs) against Long.toString: every digit count, each power of ten and its neighbours,
 * digits of every kind in every group (zeros inside and at the ends of a group, nines), random
 * values, and the bytes around the number left as they were.
 */
class IntegerTextTest {
    private static void check(long v) {
        JsonWriter w = new JsonWriter(64);
        w.writeLong(v);
        assertEquals(Long.toString(v), new String(w.buf, 0, w.pos, StandardCharsets.US_ASCII));
        if (v >= 0) { // the digits alone, between bytes that must survive
            int n = JsonWriter.digits(v);
            byte[] buf = new byte[n + 16];
            Arrays.fill(buf, (byte) '#');
            JsonWriter.putDigits(v, n, buf, 8);
            assertEquals("########" + v + "########", new String(buf, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void everyPowerOfTenAndItsNeighbours() {
        check(0);
        check(Long.MAX_VALUE);
        check(Long.MIN_VALUE);
        check(Long.MIN_VALUE + 1);
        for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10 * 10; p *= 10) {
            for (long d = -2; d <= 2; d++) {
                check(p + d);
                check(-(p + d));
                check(p * 9 + d); // 899...998 to 900...002
            }
        }
    }

    @Test
    void groupsOfEveryShape() {
        // Within a group of eight: zeros at its ends and inside it, nines, and each digit value.
        String[] groups = {"00000000", "00000001", "10000000", "00010000", "99999999", "09090909", "12345678", "87654321",
            "00990099", "99000099"};
        for (String a : groups) {
            for (String b : groups) {
                check(Long.parseLong("1" + a + b));
                check(Long.parseLong("9" + a + b));
                check(Long.parseLong("12" + a));
                check(Long.parseLong(a + b.substring(0, 2)));
            }
        }
    }

    @Test
    void randomValuesOfEveryLength() {
        SplittableRandom r = new SplittableRandom(17);
        for (int i = 0; i < 200_000; i++) {
            long v = r.nextLong() >>> r.nextInt(64);
            check(v);
            check(-v);
            check((int) v);
        }
    }
}
