// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.engines;

import java.math.BigInteger;

/**
 * The fold of docs/checksum.md, for the Java engines: each calls {@link #fold} once per
 * event, in document order. The native engines compute the same in C++.
 */
public final class Checksum {
    public static final long SEED = 0xcbf29ce484222325L;
    static final long PRIME = 0x100000001b3L;

    public static final int OBJECT_BEGIN = 1;
    public static final int OBJECT_END = 2;
    public static final int ARRAY_BEGIN = 3;
    public static final int ARRAY_END = 4;
    public static final int KEY = 5;
    public static final int STRING = 6;
    public static final int INTEGER = 7;
    public static final int DOUBLE = 8;
    public static final int TRUE = 9;
    public static final int FALSE = 10;
    public static final int NULL = 11;
    public static final int DOCUMENT_END = 12;

    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
    private static final BigInteger MIN_LONG = BigInteger.valueOf(Long.MIN_VALUE);

    private Checksum() {}

    public static long fold(long h, int tag, long payload) {
        h = (h ^ tag) * PRIME;
        return (h ^ payload) * PRIME;
    }

    public static long foldDouble(long h, double value) {
        return fold(h, DOUBLE, Double.doubleToRawLongBits(value));
    }

    /**
     * An integral token that does not fit a long: in [2^63, 2^64) its unsigned pattern (tag 7),
     * past that the correctly rounded double (tag 8; BigInteger.doubleValue rounds correctly).
     */
    public static long foldBigInteger(long h, BigInteger value) {
        if (value.compareTo(MIN_LONG) >= 0 && value.compareTo(TWO_TO_64) < 0) {
            return fold(h, INTEGER, value.longValue());
        }
        return foldDouble(h, value.doubleValue());
    }

    /** UTF-8 length of chars, a lone surrogate counting 3 bytes (its generalized UTF-8). */
    public static long utf8Length(CharSequence s) {
        long n = 0;
        int length = s.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    public static long utf8Length(char[] chars, int offset, int length) {
        long n = 0;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            char c = chars[i];
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(chars[i + 1])) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
