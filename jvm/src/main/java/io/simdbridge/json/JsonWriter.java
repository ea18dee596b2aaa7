// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The output of {@link Codec#write}: UTF-8 JSON in a growing byte array. Strings are checked a
 * whole string at a time (one pass that the JIT vectorizes) and copied in bulk where nothing
 * needs escaping; doubles are written in the shortest form that reads back to the same value
 * (the JDK's {@code Double.toString}, shortest since JDK 19).
 */
final class JsonWriter {
    private static final byte[] HEX = "0123456789abcdef".getBytes();
    /** Two digits per index: "00" to "99". */
    private static final byte[] DIGIT_PAIRS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
            DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    byte[] buf;
    int pos;
    /** Scratch for strings: their chars, copied out of the String in one call. */
    private char[] chars = new char[256];
    /** Policies of the write in progress. */
    boolean omitNulls;
    /** Set while a write uses this writer (a nested write on the same thread takes another). */
    boolean inUse;
    /** Nesting of the values being written, to refuse cycles instead of overflowing the stack. */
    int depth;

    JsonWriter(int capacity) {
        buf = new byte[capacity];
    }

    void reset() {
        pos = 0;
        depth = 0;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(buf, 0, pos);
    }

    void ensure(int n) {
        if (pos + n > buf.length) {
            grow(n);
        }
    }

    private void grow(int n) {
        long wanted = Math.max((long) buf.length * 2, (long) pos + n);
        if (wanted > Integer.MAX_VALUE - 16) {
            if ((long) pos + n > Integer.MAX_VALUE - 16) {
                throw new OutOfMemoryError("simdbridge: JSON output past 2 GB");
            }
            wanted = Integer.MAX_VALUE - 16;
        }
        buf = Arrays.copyOf(buf, (int) wanted);
    }

    void writeByte(byte b) {
        ensure(1);
        buf[pos++] = b;
    }

    void writeRaw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, pos, bytes.length);
        pos += bytes.length;
    }

    void writeNull() {
        ensure(4);
        buf[pos] = 'n';
        buf[pos + 1] = 'u';
        buf[pos + 2] = 'l';
        buf[pos + 3] = 'l';
        pos += 4;
    }

    void writeBoolean(boolean b) {
        if (b) {
            ensure(4);
            buf[pos] = 't';
            buf[pos + 1] = 'r';
            buf[pos + 2] = 'u';
            buf[pos + 3] = 'e';
            pos += 4;
        } else {
            ensure(5);
            buf[pos] = 'f';
            buf[pos + 1] = 'a';
            buf[pos + 2] = 'l';
            buf[pos + 3] = 's';
            buf[pos + 4] = 'e';
            pos += 5;
        }
    }

    void writeInt(int v) {
        writeLong(v);
    }

    void writeLong(long v) {
        ensure(20);
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                writeAscii("-9223372036854775808");
                return;
            }
            buf[pos++] = '-';
            v = -v;
        }
        int digits = digits(v);
        int end = pos + digits;
        int p = end;
        while (v >= 100) {
            int r = (int) (v % 100);
            v /= 100;
            p -= 2;
            buf[p] = DIGIT_PAIRS[2 * r];
            buf[p + 1] = DIGIT_PAIRS[2 * r + 1];
        }
        if (v >= 10) {
            p -= 2;
            buf[p] = DIGIT_PAIRS[2 * (int) v];
            buf[p + 1] = DIGIT_PAIRS[2 * (int) v + 1];
        } else {
            buf[--p] = (byte) ('0' + v);
        }
        pos = end;
    }

    private static int digits(long v) {
        long p = 10;
        for (int d = 1; d < 19; d++) {
            if (v < p) {
                return d;
            }
            p *= 10;
        }
        return 19;
    }

    /** Shortest round-trip form; NaN and the infinities as strings, as Jackson writes them. */
    void writeDouble(double d) {
        if (Double.isFinite(d)) {
            if (d == (long) d && Math.abs(d) < 1e15 && (d != 0 || 1 / d > 0)) {
                writeLong((long) d);
                ensure(2);
                buf[pos++] = '.';
                buf[pos++] = '0';
                return;
            }
            writeAscii(Double.toString(d));
        } else {
            writeByte((byte) '"');
            writeAscii(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
            writeByte((byte) '"');
        }
    }

    void writeFloat(float f) {
        if (Float.isFinite(f)) {
            writeAscii(Float.toString(f));
        } else {
            writeDouble(f);
        }
    }

    /** A string known to be ASCII with nothing to escape (numbers, ISO dates, UUIDs). */
    @SuppressWarnings("deprecation")
    void writeAscii(String s) {
        int n = s.length();
        ensure(n);
        s.getBytes(0, n, buf, pos);
        pos += n;
    }

    void writeQuotedAscii(String s) {
        int n = s.length();
        ensure(n + 2);
        buf[pos++] = '"';
        writeAscii(s);
        buf[pos++] = '"';
    }

    /**
     * A JSON string. One pass over the chars tells whether any needs escaping or is not ASCII
     * (arithmetic only, so that the JIT vectorizes it); if none does, a narrowing copy writes
     * them all, else the careful loop below.
     */
    void writeString(String s) {
        int n = s.length();
        if (n > chars.length) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
        char[] c = chars;
        s.getChars(0, n, c, 0);
        int acc = 0;
        for (int i = 0; i < n; i++) {
            int x = c[i];
            acc |= (x - 0x20) | (0x7E - x) | ((x ^ '"') - 1) | ((x ^ '\\') - 1);
        }
        ensure(n + 2);
        byte[] b = buf;
        int p = pos;
        b[p++] = '"';
        if (acc >= 0) {
            for (int i = 0; i < n; i++) {
                b[p + i] = (byte) c[i];
            }
            p += n;
            b[p++] = '"';
            pos = p;
            return;
        }
        pos = p;
        writeEscaped(c, n);
        ensure(1);
        buf[pos++] = '"';
    }

    private void writeEscaped(char[] c, int n) {
        for (int i = 0; i < n; i++) {
            char x = c[i];
            if (x < 0x80) {
                if (x >= 0x20 && x != '"' && x != '\\') {
                    ensure(1);
                    buf[pos++] = (byte) x;
                    continue;
                }
                ensure(6);
                buf[pos++] = '\\';
                switch (x) {
                    case '"' -> buf[pos++] = '"';
                    case '\\' -> buf[pos++] = '\\';
                    case '\n' -> buf[pos++] = 'n';
                    case '\r' -> buf[pos++] = 'r';
                    case '\t' -> buf[pos++] = 't';
                    case '\b' -> buf[pos++] = 'b';
                    case '\f' -> buf[pos++] = 'f';
                    default -> unicodeEscape(x);
                }
            } else if (x < 0x800) {
                ensure(2);
                buf[pos++] = (byte) (0xC0 | (x >> 6));
                buf[pos++] = (byte) (0x80 | (x & 0x3F));
            } else if (Character.isSurrogate(x)) {
                if (Character.isHighSurrogate(x) && i + 1 < n && Character.isLowSurrogate(c[i + 1])) {
                    int cp = Character.toCodePoint(x, c[++i]);
                    ensure(4);
                    buf[pos++] = (byte) (0xF0 | (cp >> 18));
                    buf[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    buf[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    buf[pos++] = (byte) (0x80 | (cp & 0x3F));
                } else {
                    // A lone surrogate has no UTF-8: its escape keeps it (and reads back).
                    ensure(6);
                    buf[pos++] = '\\';
                    unicodeEscape(x);
                }
            } else {
                ensure(3);
                buf[pos++] = (byte) (0xE0 | (x >> 12));
                buf[pos++] = (byte) (0x80 | ((x >> 6) & 0x3F));
                buf[pos++] = (byte) (0x80 | (x & 0x3F));
            }
        }
    }

    /** "uXXXX" after a backslash already written. */
    private void unicodeEscape(char x) {
        buf[pos++] = 'u';
        buf[pos++] = HEX[(x >> 12) & 0xF];
        buf[pos++] = HEX[(x >> 8) & 0xF];
        buf[pos++] = HEX[(x >> 4) & 0xF];
        buf[pos++] = HEX[x & 0xF];
    }
}
