// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.math.BigInteger;

/**
 * A double's shortest round-trip text written straight into the output, in the layout of
 * {@code Double.toString} ("12.5", "0.001", "1.0E10", "1.234E-5"), without the String that
 * {@code Double.toString} makes. The digits are the core's {@code shortest_decimal}
 * (core/src/shortest_decimal.cpp, the Schubfach method) in Java: the shortest decimal that reads
 * back as the double, the closest of those. They differ from {@code Double.toString}'s only
 * where the shortest has one digit and the JDK, which writes at least two, picks a closer
 * two-digit one (both read back as the same double).
 */
final class DoubleText {
    private DoubleText() {}

    private static final int E_MIN = -292, E_MAX = 324;
    private static final long MASK_63 = (1L << 63) - 1;
    /**
     * For e in [E_MIN, E_MAX]: g = floor(10^e x 2^(125 - floor(log2 10^e))) + 1, in [2^125,
     * 2^126), split at bit 63 (G1: g >> 63, G0: its 63 low bits); LOG2: floor(log2 10^e).
     */
    private static final long[] G1 = new long[E_MAX - E_MIN + 1], G0 = new long[E_MAX - E_MIN + 1];
    private static final int[] LOG2 = new int[E_MAX - E_MIN + 1];

    static {
        BigInteger mask = BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE);
        for (int e = E_MIN; e <= E_MAX; e++) {
            BigInteger g;
            int log2;
            if (e >= 0) {
                BigInteger p = BigInteger.TEN.pow(e);
                log2 = p.bitLength() - 1;
                g = log2 >= 125 ? p.shiftRight(log2 - 125) : p.shiftLeft(125 - log2);
            } else {
                BigInteger p = BigInteger.TEN.pow(-e); // 10^e = 1 / p, p not a power of two
                log2 = -p.bitLength();
                g = BigInteger.ONE.shiftLeft(125 - log2).divide(p);
            }
            g = g.add(BigInteger.ONE);
            G1[e - E_MIN] = g.shiftRight(63).longValueExact();
            G0[e - E_MIN] = g.and(mask).longValue();
            LOG2[e - E_MIN] = log2;
        }
    }

    /** floor(q log10 2), and floor(q log10 2 + log10 3/4): as the core's decimal_logarithms.h. */
    static int floorLog10Pow2(int q) {
        return (int) (q * 661971961083L >> 41);
    }

    static int floorLog10ThreeQuartersPow2(int q) {
        return (int) (q * 661971961083L - 274743187321L >> 41);
    }

    /** g x cp / 2^127 rounded to odd, counting only the 63 bits after the point (see the core). */
    private static long roundToOdd(long g1, long g0, long cp) {
        long x1 = Math.multiplyHigh(g0, cp); // both below 2^63: the signed high half is the unsigned one
        long y0 = g1 * cp;
        long y1 = Math.multiplyHigh(g1, cp);
        long z = (y0 >>> 1) + x1;
        long integer = y1 + (z >>> 63);
        return integer | ((z & MASK_63) + MASK_63) >>> 63;
    }

    /**
     * The shortest decimal of v = c x 2^q (c >= 3), the closest of those: its significand, with
     * the power of ten in {@code exponent[0]}.
     */
    static long shortest(long c, int q, int[] exponent) {
        long out = c & 1;
        long cb = c << 2, cbr = cb + 2, cbl;
        int k;
        if (c != 1L << 52 || q == -1074) {
            cbl = cb - 2;
            k = floorLog10Pow2(q);
        } else {
            cbl = cb - 1;
            k = floorLog10ThreeQuartersPow2(q);
        }
        int i = -k - E_MIN;
        long g1 = G1[i], g0 = G0[i];
        int h = q + LOG2[i] + 2;
        long vb = roundToOdd(g1, g0, cb << h), vbl = roundToOdd(g1, g0, cbl << h), vbr = roundToOdd(g1, g0, cbr << h);
        exponent[0] = k;
        long s = vb >> 2;
        if (s >= 10) {
            long sp10 = s / 10 * 10, tp10 = sp10 + 10;
            boolean upin = vbl + out <= sp10 << 2, wpin = (tp10 << 2) + out <= vbr;
            if (upin != wpin) {
                return upin ? sp10 : tp10;
            }
        }
        long t = s + 1;
        boolean uin = vbl + out <= s << 2, win = (t << 2) + out <= vbr;
        if (uin != win) {
            return uin ? s : t;
        }
        long cmp = vb - (s + t << 1);
        return cmp < 0 || cmp == 0 && (s & 1) == 0 ? s : t;
    }

    /** Room {@link #write} needs: "-1.2345678901234567E-308". */
    static final int MAX_LENGTH = 26;

    /** Writes finite d at buf[pos] (MAX_LENGTH bytes of room); returns the position after it. */
    static int write(double d, byte[] buf, int pos, int[] scratch) {
        long bits = Double.doubleToRawLongBits(d);
        if (bits < 0) {
            buf[pos++] = '-';
        }
        long fraction = bits & (1L << 52) - 1;
        int biased = (int) (bits >>> 52) & 0x7FF;
        long significand;
        int exponent;
        if (biased == 0) {
            if (fraction == 0) {
                buf[pos] = '0';
                buf[pos + 1] = '.';
                buf[pos + 2] = '0';
                return pos + 3;
            }
            if (fraction < 3) { // 2^-1074 and 2^-1073: too wide an interval for the scaling (as the core)
                return ascii(Double.toString(Math.abs(d)), buf, pos);
            }
            significand = shortest(fraction, -1074, scratch);
            exponent = scratch[0];
        } else {
            long c = fraction | 1L << 52;
            int q = biased - 1075;
            if (q < 0 && q > -53 && (c & (1L << -q) - 1) == 0) { // an integer below 2^53: itself
                significand = c >> -q;
                exponent = 0;
            } else {
                significand = shortest(c, q, scratch);
                exponent = scratch[0];
            }
        }
        while (significand % 100 == 0) {
            significand /= 100;
            exponent += 2;
        }
        if (significand % 10 == 0) {
            significand /= 10;
            exponent++;
        }
        return layout(significand, exponent, buf, pos);
    }

    /** significand x 10^exponent (no trailing zeros) as Double.toString lays it out. */
    private static int layout(long significand, int exponent, byte[] buf, int pos) {
        int n = JsonWriter.digits(significand);
        int scientific = n + exponent - 1; // the exponent of d.ddd x 10^scientific
        if (scientific >= -3 && scientific < 7) {
            if (scientific < 0) { // 0.000ddd
                buf[pos++] = '0';
                buf[pos++] = '.';
                for (int z = -scientific - 1; z > 0; z--) {
                    buf[pos++] = '0';
                }
                JsonWriter.putDigits(significand, n, buf, pos);
                return pos + n;
            }
            int whole = scientific + 1; // digits before the point
            if (n <= whole) { // ddd000.0
                JsonWriter.putDigits(significand, n, buf, pos);
                pos += n;
                for (int z = whole - n; z > 0; z--) {
                    buf[pos++] = '0';
                }
                buf[pos++] = '.';
                buf[pos++] = '0';
                return pos;
            }
            JsonWriter.putDigits(significand, n, buf, pos + 1); // dd.ddd: the digits, then the first ones moved left
            System.arraycopy(buf, pos + 1, buf, pos, whole);
            buf[pos + whole] = '.';
            return pos + n + 1;
        }
        JsonWriter.putDigits(significand, n, buf, pos + 1); // d.dddE-x
        buf[pos] = buf[pos + 1];
        buf[pos + 1] = '.';
        pos += n + 1;
        if (n == 1) {
            buf[pos++] = '0';
        }
        buf[pos++] = 'E';
        if (scientific < 0) {
            buf[pos++] = '-';
            scientific = -scientific;
        }
        int e = JsonWriter.digits(scientific);
        JsonWriter.putDigits(scientific, e, buf, pos);
        return pos + e;
    }

    private static int ascii(String s, byte[] buf, int pos) {
        for (int i = 0; i < s.length(); i++) {
            buf[pos++] = (byte) s.charAt(i);
        }
        return pos;
    }
}
