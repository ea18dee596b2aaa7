// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The output of {@link Codec#write}: UTF-8 JSON in a growing byte array. Strings are checked
 * eight bytes at a time and copied in bulk between escapes; doubles are written in the shortest form that reads back to the same value
 * (the JDK's {@code Double.toString}, shortest since JDK 19).
 */
final class JsonWriter {
    private static final byte[] HEX = "0123456789abcdef".getBytes();
    /** The ASCII chars JSON escapes: control characters, '"' and '\\'. */
    private static final boolean[] NEEDS_ESCAPE = new boolean[128];
    /** Their escapes ("\\n", "\\u0001", ...) as the bytes of a little-endian long, written 8 at once. */
    private static final long[] ESCAPE_WORD = new long[128];
    /** And their lengths, 2 or 6. */
    private static final int[] ESCAPE_LENGTH = new int[128];
    /** Two digits per index: "00" to "99". */
    private static final byte[] DIGIT_PAIRS = new byte[200];

    static {
        for (int i = 0; i < 0x20; i++) {
            NEEDS_ESCAPE[i] = true;
        }
        NEEDS_ESCAPE['"'] = true;
        NEEDS_ESCAPE['\\'] = true;
        for (int c = 0; c < 128; c++) {
            if (!NEEDS_ESCAPE[c]) {
                continue;
            }
            String e = switch (c) {
                case '"' -> "\\\"";
                case '\\' -> "\\\\";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                case '\b' -> "\\b";
                case '\f' -> "\\f";
                default -> String.format("\\u%04x", c);
            };
            byte[] bytes = java.util.Arrays.copyOf(e.getBytes(StandardCharsets.US_ASCII), 8);
            ESCAPE_WORD[c] = (long) Tape.LONGS.get(bytes, 0);
            ESCAPE_LENGTH[c] = e.length();
        }
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
     * A JSON string. Its UTF-8 comes from the JDK in one call (a copy for ASCII), is checked
     * eight bytes at a time for what JSON escapes (control characters, '"', '\\'), and is
     * copied in bulk up to the first escape. A string with a lone surrogate, which has no UTF-8, goes
     * char by char and keeps it as a \\u escape.
     */
    void writeString(String s) {
        int length = s.length();
        if (length > LONG_STRING && !isAscii(s, length)) {
            // A long string with non-ASCII: one pass over its chars (copied out by isAscii). The
            // JDK's UTF-8 encoder takes about 1 ns per char of such a string; the check, which
            // stops at the first block of 16 with non-ASCII, costs about 0.2 ns per char of an
            // ASCII one: worth it where strings are long.
            ensure(1);
            buf[pos++] = '"';
            writeEscaped(chars, length);
            ensure(1);
            buf[pos++] = '"';
            return;
        }
        byte[] v = s.getBytes(StandardCharsets.UTF_8);
        int n = v.length;
        int special = nextSpecial(v, 0, n);
        ensure(special + 2);
        int start = pos;
        buf[pos++] = '"';
        System.arraycopy(v, 0, buf, pos, special);
        pos += special;
        if (special < n) {
            // From the first byte that may need work on, one byte at a time (escapes come in
            // clusters: control characters, quoted words, paths).
            ensure((n - special) * 6 + 8); // + 8: an escape is written as 8 bytes
            byte[] b = buf;
            int p = pos;
            boolean surrogatesChecked = false;
            for (int i = special; i < n; i++) {
                int c = v[i];
                if (c < 0 || c >= 0x20 && c != '"' && c != '\\' && c != '?') {
                    b[p++] = (byte) c;
                } else if (c == '?') {
                    // What the JDK writes for a lone surrogate: is there one? (Once per string.)
                    if (!surrogatesChecked) {
                        surrogatesChecked = true;
                        if (hasLoneSurrogate(s)) {
                            pos = start;
                            writeChars(s);
                            return;
                        }
                    }
                    b[p++] = '?';
                } else {
                    Tape.LONGS.set(b, p, ESCAPE_WORD[c]);
                    p += ESCAPE_LENGTH[c];
                }
            }
            pos = p;
        }
        ensure(1);
        buf[pos++] = '"';
    }

    /**
     * The index of the first byte at or after i that JSON escapes, or that may stand for a lone
     * surrogate ('?'), or n. Eight bytes at a time; the tests never miss a byte (a borrow can only
     * flag one past a real hit).
     */
    private static int nextSpecial(byte[] v, int i, int n) {
        for (; i + 8 <= n; i += 8) {
            long w = (long) Tape.LONGS.get(v, i);
            long quote = w ^ 0x2222222222222222L, backslash = w ^ 0x5C5C5C5C5C5C5C5CL, question = w ^ 0x3F3F3F3F3F3F3F3FL;
            long hit = ((w - 0x2020202020202020L) & ~w) | ((quote - 0x0101010101010101L) & ~quote)
                    | ((backslash - 0x0101010101010101L) & ~backslash) | ((question - 0x0101010101010101L) & ~question);
            if ((hit & 0x8080808080808080L) != 0) {
                break; // found below, byte by byte
            }
        }
        for (; i < n; i++) {
            int b = v[i];
            if (b >= 0 && (b < 0x20 || b == '"' || b == '\\' || b == '?')) {
                return i;
            }
        }
        return n;
    }

    /** Strings longer than this are checked for non-ASCII before they are encoded (see writeString). */
    private static final int LONG_STRING = 512;

    /** Whether every char is ASCII; the chars are left in {@code chars}. */
    private boolean isAscii(String s, int n) {
        if (n > chars.length) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
        char[] c = chars;
        s.getChars(0, n, c, 0);
        int i = 0;
        for (; i + 16 <= n; i += 16) { // sixteen at a time, leaving at the first block with non-ASCII
            int acc = 0;
            for (int k = 0; k < 16; k++) {
                acc |= c[i + k];
            }
            if (acc >= 0x80) {
                return false;
            }
        }
        int acc = 0;
        for (; i < n; i++) {
            acc |= c[i];
        }
        return acc < 0x80;
    }

    private static boolean hasLoneSurrogate(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** The careful path: char by char. */
    private void writeChars(String s) {
        int n = s.length();
        if (n > chars.length) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
        s.getChars(0, n, chars, 0);
        ensure(1);
        buf[pos++] = '"';
        writeEscaped(chars, n);
        ensure(1);
        buf[pos++] = '"';
    }

    private void writeEscaped(char[] c, int n) {
        ensure(n * 6 + 8); // the most a char takes (\\uXXXX, written as 8 bytes); a pair: 4 for 2 chars
        byte[] b = buf;
        int p = pos;
        for (int i = 0; i < n; i++) {
            char x = c[i];
            if (x < 0x80) {
                if (!NEEDS_ESCAPE[x]) {
                    b[p++] = (byte) x;
                } else {
                    Tape.LONGS.set(b, p, ESCAPE_WORD[x]);
                    p += ESCAPE_LENGTH[x];
                }
            } else if (x < 0x800) {
                b[p++] = (byte) (0xC0 | (x >> 6));
                b[p++] = (byte) (0x80 | (x & 0x3F));
            } else if (Character.isSurrogate(x)) {
                if (Character.isHighSurrogate(x) && i + 1 < n && Character.isLowSurrogate(c[i + 1])) {
                    int cp = Character.toCodePoint(x, c[++i]);
                    b[p++] = (byte) (0xF0 | (cp >> 18));
                    b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    b[p++] = (byte) (0x80 | (cp & 0x3F));
                } else {
                    // A lone surrogate has no UTF-8: its escape keeps it (and reads back).
                    b[p] = '\\';
                    b[p + 1] = 'u';
                    b[p + 2] = HEX[(x >> 12) & 0xF];
                    b[p + 3] = HEX[(x >> 8) & 0xF];
                    b[p + 4] = HEX[(x >> 4) & 0xF];
                    b[p + 5] = HEX[x & 0xF];
                    p += 6;
                }
            } else {
                b[p++] = (byte) (0xE0 | (x >> 12));
                b[p++] = (byte) (0x80 | ((x >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (x & 0x3F));
            }
        }
        pos = p;
    }

}
