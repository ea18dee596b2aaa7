// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * DoubleText against the JDK's Double.toString (shortest since JDK 19), on every power of two and
 * its neighbours (where the rounding interval is lopsided), subnormals, integers, powers of ten,
 * short decimals and random bit patterns: the same text, except where the shortest decimal has
 * one digit and the JDK, which writes two at least, picks a closer two-digit one; every text
 * reads back as its double. The logarithms it uses are checked exactly.
 */
class DoubleTextTest {
    private final byte[] buf = new byte[64];
    private final int[] scratch = new int[1];
    private int differences;

    private String text(double d) {
        int end = DoubleText.write(d, buf, 0, scratch);
        assertTrue(end <= DoubleText.MAX_LENGTH, () -> "too long: " + d);
        return new String(buf, 0, end, StandardCharsets.US_ASCII);
    }

    private void check(double d) {
        if (!Double.isFinite(d)) {
            return;
        }
        String ours = text(d), jdk = Double.toString(d);
        if (Double.doubleToRawLongBits(Double.parseDouble(ours)) != Double.doubleToRawLongBits(d)) {
            fail(ours + " does not read back as " + jdk + " (bits " + Long.toHexString(Double.doubleToRawLongBits(d)) + ")");
        }
        if (ours.equals(jdk)) {
            return;
        }
        // The one difference allowed: a one-digit shortest decimal where the JDK writes a closer two-digit one.
        BigDecimal a = new BigDecimal(ours).stripTrailingZeros(), b = new BigDecimal(jdk).stripTrailingZeros();
        if (a.precision() != 1 || b.precision() != 2) {
            fail(ours + " against the JDK's " + jdk + " (bits " + Long.toHexString(Double.doubleToRawLongBits(d)) + ")");
        }
        differences++;
    }

    @Test
    void layoutAsDoubleToString() {
        String[][] cases = {{"0.0", "0.0"}, {"-0.0", "-0.0"}, {"12.5", "12.5"}, {"0.001", "0.001"}, {"1.0E-4", "1.0E-4"},
            {"1234567.0", "1234567.0"}, {"1.0E7", "1.0E7"}, {"1.234E-5", "1.234E-5"}, {"-2.5E-10", "-2.5E-10"},
            {"1.0E22", "1.0E22"}, {"0.1", "0.1"}, {"0.30000000000000004", "0.30000000000000004"},
            {"1.7976931348623157E308", "1.7976931348623157E308"}, {"4.9E-324", "4.9E-324"}, {"2.2250738585072014E-308",
            "2.2250738585072014E-308"}, {"123456.789", "123456.789"}, {"9.999999999999999E22", "1.0E23"}};
        for (String[] c : cases) { // (the double nearest 1e23 reads 9.999999999999999E22: its shortest is 1.0E23)
            assertEquals(c[1], text(Double.parseDouble(c[0])), c[0]);
            assertEquals(Double.toString(Double.parseDouble(c[0])), c[1], c[0]);
        }
    }

    @Test
    void everyPowerOfTwoAndItsNeighbours() {
        for (long exponent = 0; exponent < 0x7FF; exponent++) {
            long power = exponent << 52;
            for (long delta = 0; delta < 4; delta++) {
                check(Double.longBitsToDouble(power + delta));
                if (power > delta) {
                    check(Double.longBitsToDouble(power - delta));
                }
            }
            check(Double.longBitsToDouble(power | (1L << 52) - 1));
            check(-Double.longBitsToDouble(power | 1L << 51));
        }
    }

    @Test
    void subnormalsIntegersAndPowersOfTen() {
        for (long c = 1; c < 5000; c++) {
            check(Double.longBitsToDouble(c));
        }
        for (long n = 1; n < 100_000; n++) {
            check(n);
            check(n / 8.0);
        }
        for (int e = -325; e <= 309; e++) {
            double d = Double.parseDouble("1e" + e);
            check(d);
            check(Math.nextDown(d));
            check(Math.nextUp(d));
        }
        // The one-digit difference does happen (on subnormals): the test would see no other kind.
        assertTrue(differences > 0);
    }

    @Test
    void randomBitPatternsAndShortDecimals() {
        SplittableRandom random = new SplittableRandom(20261201);
        for (int i = 0; i < 2_000_000; i++) {
            check(Double.longBitsToDouble(random.nextLong()));
        }
        for (int i = 0; i < 300_000; i++) {
            check(Double.parseDouble(random.nextLong(100_000_000) + "e" + (random.nextInt(60) - 40)));
        }
    }

    @Test
    void theLogarithmsAreExact() {
        for (int q = -1100; q <= 1100; q++) {
            // 2^q and 3/4 x 2^q as fractions a / b
            BigInteger a = q >= 0 ? BigInteger.ONE.shiftLeft(q) : BigInteger.ONE, b = q >= 0 ? BigInteger.ONE : BigInteger.ONE.shiftLeft(-q);
            assertEquals(floorLog10(a, b), DoubleText.floorLog10Pow2(q), "q = " + q);
            assertEquals(floorLog10(a.multiply(BigInteger.valueOf(3)), b.shiftLeft(2)), DoubleText.floorLog10ThreeQuartersPow2(q), "q = " + q);
        }
    }

    /** floor(log10(a / b)), exactly. */
    private static int floorLog10(BigInteger a, BigInteger b) {
        int k = (int) Math.floor((a.bitLength() - b.bitLength()) * Math.log10(2)) - 2; // below it
        while (BigInteger.TEN.pow(Math.max(k + 1, 0)).multiply(b).compareTo(a.multiply(BigInteger.TEN.pow(Math.max(-k - 1, 0)))) <= 0) {
            k++; // 10^(k+1) <= a / b
        }
        return k;
    }
}
