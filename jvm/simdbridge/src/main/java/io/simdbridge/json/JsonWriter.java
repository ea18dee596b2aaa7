// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import io.simdbridge.internal.BindingWriter;
import io.simdbridge.internal.NativeWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The output of {@link Codec#write}: UTF-8 JSON in a growing byte array. Strings are checked
 * eight bytes at a time and copied in bulk between escapes; doubles are written in the shortest form that reads back to the same value
 * ({@link DoubleText}: the core's shortest digits, in Double.toString's layout, with no String made).
 */
final class JsonWriter extends BindingWriter {
    private static final byte[] HEX = "0123456789abcdef".getBytes();
    /**
     * The escapes of the chars JSON escapes (control characters, '"' and '\\'): "\\n",
     * "\\u0001", ... as the bytes of a little-endian long, written 8 at once.
     */
    private static final long[] ESCAPE_WORD = new long[128];
    /** And their lengths, 2 or 6. */
    private static final int[] ESCAPE_LENGTH = new int[128];
    /** Two digits per index: "00" to "99", as the little-endian short that stores both. */
    private static final short[] PAIR_WORDS = new short[100];
    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    static {
        for (int c = 0; c < 128; c++) {
            if (c >= 0x20 && c != '"' && c != '\\') {
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
            byte[] bytes = Arrays.copyOf(e.getBytes(StandardCharsets.US_ASCII), 8);
            ESCAPE_WORD[c] = (long) BindingTape.LONGS.get(bytes, 0);
            ESCAPE_LENGTH[c] = e.length();
        }
        for (int i = 0; i < 100; i++) {
            PAIR_WORDS[i] = (short) (('0' + i / 10) | ('0' + i % 10) << 8);
        }
    }

    /** Whether long strings go to the core's writer (the native library loads on this platform). */
    private static final boolean NATIVE = NativeWriter.available();
    /** Strings from this many chars on go to it: below, the call costs more than it saves. */
    static final int NATIVE_MIN_CHARS = 32;
    /** And up to this many (the chars are copied to a scratch array of the writer's, kept). */
    static final int NATIVE_MAX_CHARS = 1 << 20;

    byte[] buf;
    int pos;
    /** DoubleText's second result (a decimal exponent), kept so that writing a double allocates nothing. */
    private final int[] exponent = new int[1];
    /** The chars of a string written natively. */
    private char[] chars = new char[0];
    /** Policies of the write in progress. */
    boolean omitNulls;

    @Override
    public boolean omitsNulls() {
        return omitNulls;
    }
    /** Set while a write uses this writer (a nested write on the same thread takes another). */
    boolean inUse;
    /** Nesting of the values being written, to refuse cycles instead of overflowing the stack. */
    int depth;
    /** The deepest nesting a write may reach (the mapper's maxDepth). */
    int maxDepth = 1024;

    JsonWriter(int capacity) {
        buf = new byte[capacity];
    }

    void reset() {
        pos = 0;
        depth = 0;
    }

    /**
     * Enters an array or object: past maxDepth (a cycle, most often) an exception that says so,
     * instead of a StackOverflowError.
     */
    void enter(Object container) {
        if (++depth > maxDepth) {
            throw tooDeep(container); // the message built out of line: enter() stays small enough to inline
        }
    }

    private IllegalStateException tooDeep(Object container) {
        return new IllegalStateException("simdbridge: values nest more than " + maxDepth + " deep writing a "
                + container.getClass().getName() + " (a cycle? the limit is the mapper's maxDepth)");
    }

    void leave() {
        depth--;
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

    @Override
    public void writeRaw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, pos, bytes.length);
        pos += bytes.length;
    }

    /** Two word stores in place of a copy: the 16 - length bytes past the key lie past pos (written over next, or never output). */
    @Override
    public void writeRaw16(long first, long second, int length) {
        ensure(16);
        BindingTape.LONGS.set(buf, pos, first);
        BindingTape.LONGS.set(buf, pos + 8, second);
        pos += length;
    }

    @Override
    public void writeNull() {
        ensure(4);
        buf[pos] = 'n';
        buf[pos + 1] = 'u';
        buf[pos + 2] = 'l';
        buf[pos + 3] = 'l';
        pos += 4;
    }

    @Override
    public void writeBoolean(boolean b) {
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

    @Override
    public void writeInt(int v) {
        writeLong(v);
    }

    @Override
    public void writeLong(long v) {
        ensure(20);
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                writeAscii("-9223372036854775808");
                return;
            }
            buf[pos++] = '-';
            v = -v;
        }
        int n = digits(v);
        putDigits(v, n, buf, pos);
        pos += n;
    }

    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        long p = 1;
        for (int i = 0; i < 19; i++, p *= 10) {
            POWERS_OF_TEN[i] = p;
        }
    }

    /** The decimal digits of v (>= 0): from its bit length (1233 / 4096 is log10 2 to 4 digits), one comparison. */
    static int digits(long v) {
        int n = (64 - Long.numberOfLeadingZeros(v)) * 1233 >>> 12;
        return n < 19 && v >= POWERS_OF_TEN[n] ? n + 1 : Math.max(n, 1);
    }

    /**
     * v's n decimal digits (v >= 0) at buf[pos], from the right: eight at a time (putEight: made
     * in the lanes of a long with no division waiting on another, one store); then what is left
     * below 10^8, four at once where it has them, then two at a time.
     */
    static void putDigits(long v, int n, byte[] buf, int pos) {
        int p = pos + n;
        while (v >= 100_000_000L) {
            long q = v / 100_000_000L;
            p -= 8;
            putEight((int) (v - q * 100_000_000L), buf, p);
            v = q;
        }
        int x = (int) v;
        if (x >= 10_000) { // four of the last at once, as above
            int high = x / 10_000;
            int low = x - high * 10_000;
            int a = low / 100;
            p -= 4;
            putPair(a, buf, p);
            putPair(low - a * 100, buf, p + 2);
            x = high;
        }
        while (x >= 100) {
            int r = x % 100;
            x /= 100;
            p -= 2;
            putPair(r, buf, p);
        }
        if (x >= 10) {
            putPair(x, buf, p - 2);
        } else {
            buf[p - 1] = (byte) ('0' + x);
        }
    }

    /**
     * x (below 10^8) as exactly eight digits, leading zeros included, at buf[at], in one 8-byte
     * store. The digits are made in the lanes of a long (little-endian: the first digit in its
     * low byte): the two halves of four digits in 32-bit lanes, each divided by 100 in 16-bit
     * lanes and by 10 in bytes, with multiplications that never carry from one lane into the
     * next (9999 x 5243 < 2^32, 99 x 103 < 2^16).
     */
    private static void putEight(int x, byte[] buf, int at) {
        int high = x / 10_000;
        long v = high | (long) (x - high * 10_000) << 32; // [first four | last four]
        long hundreds = (v * 5243 >>> 19) & 0x0000_007F_0000_007FL; // n / 100 per lane, n < 10^4
        long pairs = hundreds | (v - hundreds * 100) << 16; // [n / 100 | n % 100] per 32-bit lane
        long tens = (pairs * 103 >>> 10) & 0x000F_000F_000F_000FL; // n / 10 per 16-bit lane, n < 100
        long digits = tens | (pairs - tens * 10) << 8;
        BindingTape.LONGS.set(buf, at, digits | 0x3030_3030_3030_3030L);
    }

    /** The two digits of r (below 100) at buf[at], in one two-byte store. */
    private static void putPair(int r, byte[] buf, int at) {
        SHORTS.set(buf, at, PAIR_WORDS[r]);
    }

    /** Shortest round-trip form; NaN and the infinities as strings, as Jackson writes them. */
    @Override
    public void writeDouble(double d) {
        if (Double.isFinite(d)) {
            if (d == (long) d && Math.abs(d) < 1e15 && (d != 0 || 1 / d > 0)) {
                writeLong((long) d);
                ensure(2);
                buf[pos++] = '.';
                buf[pos++] = '0';
                return;
            }
            ensure(DoubleText.MAX_LENGTH);
            pos = DoubleText.write(d, buf, pos, exponent);
        } else {
            writeQuotedAscii(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        }
    }

    @Override
    public void writeFloat(float f) {
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
     * A JSON string: from {@link #NATIVE_MIN_CHARS} chars on, through the core's writer (see
     * {@link #writeStringNatively}); shorter ones here, where the call would cost more than it saves.
     */
    @Override
    public void writeString(String s) {
        int length = s.length();
        if (length >= NATIVE_MIN_CHARS && length <= NATIVE_MAX_CHARS && NATIVE) {
            writeStringNatively(s, length);
        } else {
            writeStringHere(s);
        }
    }

    /**
     * {@link #writeString} in Java, whatever the string's length. Its chars come from the JDK as
     * Latin-1 bytes in one call (a plain copy for the JDK's Latin-1 strings, which ASCII text is;
     * a vectorized encoding for others, with '?' for each char past Latin-1 and for each
     * surrogate pair). Most strings need no escape: they are checked and copied in the same
     * eight-byte words ({@link #copyPlain}), and this method stays small enough for the JIT to
     * inline into the writers that call it. The others go to {@link #writeStringEscaped}.
     */
    void writeStringHere(String s) {
        byte[] v = s.getBytes(StandardCharsets.ISO_8859_1);
        int n = v.length;
        ensure(n + 2);
        byte[] b = buf;
        int p = pos;
        if (copyPlain(v, n, b, p + 1)) {
            b[p] = '"';
            b[p + n + 1] = '"';
            pos = p + n + 2;
        } else {
            writeStringEscaped(s, v, n);
        }
    }

    /**
     * Copies the n bytes of v to b at {@code at} and says whether none of them is one
     * {@link #nextSpecial} stops at. From 8 bytes on, by words: each loaded once, tested and
     * stored (the last one overlapping the one before it where n is not a multiple of 8), so that
     * the string is read once, with no call to the JDK's copy, whose fixed cost is most of a
     * short string's. Below 8, byte by byte. A string that needs work leaves bytes past pos,
     * which the escaping writer writes over.
     */
    private static boolean copyPlain(byte[] v, int n, byte[] b, int at) {
        if (n < 8) {
            for (int i = 0; i < n; i++) {
                int c = v[i];
                if (needsWork(c)) {
                    return false;
                }
                b[at + i] = (byte) c;
            }
            return true;
        }
        long flags = 0;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long w = (long) BindingTape.LONGS.get(v, i);
            flags |= special(w);
            BindingTape.LONGS.set(b, at + i, w);
        }
        if (i < n) {
            long w = (long) BindingTape.LONGS.get(v, n - 8);
            flags |= special(w);
            BindingTape.LONGS.set(b, at + n - 8, w);
        }
        return (flags & 0x8080808080808080L) == 0;
    }

    /**
     * The strings {@link #copyPlain} refuses: copied in bulk up to the first byte that needs work
     * (control characters, '"', '\\', bytes past ASCII, '?'); from there one byte at a time, a
     * '?' looked up in the string itself: a '?', or a char past Latin-1 written as UTF-8 (a lone
     * surrogate, which has no UTF-8, as its \\u escape). One pass whatever the string holds: no
     * char is encoded twice.
     */
    private void writeStringEscaped(String s, byte[] v, int n) {
        int special = nextSpecial(v, 0, n);
        ensure(special + 2);
        buf[pos++] = '"';
        System.arraycopy(v, 0, buf, pos, special);
        pos += special;
        if (special < n) {
            // Escapes come in clusters (control characters, quoted words, paths, non-Latin text).
            ensure((n - special) * 6 + 8); // the most a byte stands for: \\uXXXX, written as 8 bytes
            byte[] b = buf;
            int p = pos;
            int shift = 0; // chars of s before byte i's char, less i: a surrogate pair is one '?'
            for (int i = special; i < n; i++) {
                int c = v[i];
                if (!needsWork(c)) {
                    b[p++] = (byte) c;
                } else if (c < 0) { // Latin-1 past ASCII: two bytes of UTF-8
                    b[p] = (byte) (0xC0 | ((c & 0xFF) >> 6));
                    b[p + 1] = (byte) (0x80 | (c & 0x3F));
                    p += 2;
                } else if (c != '?') {
                    BindingTape.LONGS.set(b, p, ESCAPE_WORD[c]);
                    p += ESCAPE_LENGTH[c];
                } else {
                    int at = i + shift;
                    char x = s.charAt(at);
                    if (x == '?') {
                        b[p++] = '?';
                    } else if (x < 0x800) {
                        b[p] = (byte) (0xC0 | (x >> 6));
                        b[p + 1] = (byte) (0x80 | (x & 0x3F));
                        p += 2;
                    } else if (!Character.isSurrogate(x)) {
                        b[p] = (byte) (0xE0 | (x >> 12));
                        b[p + 1] = (byte) (0x80 | ((x >> 6) & 0x3F));
                        b[p + 2] = (byte) (0x80 | (x & 0x3F));
                        p += 3;
                    } else if (Character.isHighSurrogate(x) && at + 1 < s.length() && Character.isLowSurrogate(s.charAt(at + 1))) {
                        int cp = Character.toCodePoint(x, s.charAt(at + 1));
                        b[p] = (byte) (0xF0 | (cp >> 18));
                        b[p + 1] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                        b[p + 2] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                        b[p + 3] = (byte) (0x80 | (cp & 0x3F));
                        p += 4;
                        shift++;
                    } else { // a lone surrogate has no UTF-8: its escape keeps it (and reads back)
                        b[p] = '\\';
                        b[p + 1] = 'u';
                        b[p + 2] = HEX[(x >> 12) & 0xF];
                        b[p + 3] = HEX[(x >> 8) & 0xF];
                        b[p + 4] = HEX[(x >> 4) & 0xF];
                        b[p + 5] = HEX[x & 0xF];
                        p += 6;
                    }
                }
            }
            pos = p;
        }
        ensure(1);
        buf[pos++] = '"';
    }

    /**
     * A long string through the core's writer (NativeWriter): its chars copied out in one call
     * (a plain copy, or the JDK's vectorized widening of a Latin-1 string), then escaped and
     * encoded natively, eight at a time where nothing needs escaping: past NATIVE_MIN_CHARS, the
     * crossing costs less than Java's char-by-char escaping.
     */
    private void writeStringNatively(String s, int length) {
        char[] c = chars;
        if (c.length < length) {
            c = chars = new char[Math.max(length, Math.min(2 * c.length, NATIVE_MAX_CHARS))];
        }
        s.getChars(0, length, c, 0);
        ensure((int) NativeWriter.capacity(length));
        pos += NativeWriter.writeString(c, length, buf, pos);
    }

    /**
     * Whether byte b (of a string's Latin-1 bytes) cannot be copied as it is: a control character,
     * '"' or '\\' (escaped), a byte past ASCII (b < 0: two bytes of UTF-8), or '?' (which may
     * stand for a char past Latin-1).
     */
    private static boolean needsWork(int b) {
        return b < 0x20 || b == '"' || b == '\\' || b == '?';
    }

    /** The top bit of each byte of w set where nextSpecial would stop (or just above such a byte). */
    private static long special(long w) {
        long borrows = (w - 0x2020202020202020L) | ((w ^ 0x2222222222222222L) - 0x0101010101010101L)
                | ((w ^ 0x5C5C5C5C5C5C5C5CL) - 0x0101010101010101L) | ((w ^ 0x3F3F3F3F3F3F3F3FL) - 0x0101010101010101L);
        return borrows & ~w | w;
    }

    /**
     * The index of the first byte at or after i that JSON escapes, that is past ASCII, or that may
     * stand for a char past Latin-1 ('?'), or n. Eight bytes at a time: per byte, x - 1 borrows
     * into the top bit where x is 0, for x = b ^ '"', b ^ '\\', b ^ '?' (and b - 0x20 where b is
     * below 0x20), counted only where b's top bit is clear; a set top bit counts too. The tests
     * never miss a byte (a borrow can only flag one past a real hit, and the bytes are then read
     * one by one from the block's start).
     */
    private static int nextSpecial(byte[] v, int i, int n) {
        for (; i + 8 <= n; i += 8) {
            if ((special((long) BindingTape.LONGS.get(v, i)) & 0x8080808080808080L) != 0) {
                break; // found below, byte by byte
            }
        }
        for (; i < n; i++) {
            int b = v[i];
            if (needsWork(b)) {
                return i;
            }
        }
        return n;
    }
}
