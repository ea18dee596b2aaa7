// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import io.simdbridge.internal.BindingTapeReader;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A parsed document as the native core wrote it (core/include/simdbridge/binding_tape.h): two words per
 * value and per key, in document order, with every value's byte offset; strings unescaped into
 * {@link #strings}. Codecs read values from it by word index; a value that is not what a codec
 * expects is a {@link Mismatch} naming that index, which {@link JsonMapper} turns into a
 * {@link JsonBindException} with the JSON path and the byte offset.
 */
final class BindingTape extends BindingTapeReader {
    static final int OBJECT = 1, ARRAY = 2, STRING = 3, INT64 = 4, UINT64 = 5, FLOAT64 = 6, BIG = 7,
            TRUE = 8, FALSE = 9, NULL = 10;
    static final long OFFSET_MASK = (1L << 48) - 1;
    static final long LONE_SURROGATE = 1L << 55;
    static final long ASCII = 1L << 54;
    /** A string value left in the input (ASCII, no escape): word 1's offset is into the input. */
    static final long IN_INPUT = 1L << 53;
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    long[] words;
    byte[] strings;
    /**
     * The input, for number tokens and error messages: inputLength bytes of an array from
     * inputOffset, or a buffer from its position to its limit.
     */
    byte[] input;
    int inputOffset;
    int inputLength;
    ByteBuffer inputBuffer;
    /** Policies of the read in progress (from the mapper). */
    boolean failOnUnknown;
    boolean failOnDuplicate;
    boolean failOnNullPrimitive;
    /**
     * The mapper's limit on a number's characters (0: none), applied here too where a number
     * becomes a BigInteger or BigDecimal: to the digits an exponent gives an integer
     * ({@code 1e999999999} would be a billion) and to numbers written as strings.
     */
    int maxNumberLength;
    /** Set while a read uses this tape (a nested read on the same thread takes another one). */
    boolean inUse;

    BindingTape(int words, int strings) {
        this.words = new long[words];
        this.strings = new byte[strings];
    }

    /** At least this many words and string bytes (both with 16 of slack, see NativeParser.tape). */
    void ensure(int wordCount, int stringBytes) {
        if (words.length < wordCount + 16) {
            words = new long[Math.max(wordCount + 16, words.length * 2)];
        }
        if (strings.length < stringBytes + 16) {
            strings = new byte[Math.max(stringBytes + 16, strings.length * 2)];
        }
    }

    int kind(int w) {
        return (int) (words[w] >>> 56);
    }

    long offset(int w) {
        return words[w] & OFFSET_MASK;
    }

    /** The word index just past the value at w. */
    @Override
    public int next(int w) {
        return kind(w) <= ARRAY ? (int) (words[w + 1] >>> 32) : w + 2;
    }

    /** Members of an object, elements of an array. */
    int count(int w) {
        return (int) words[w + 1];
    }

    int stringOffset(int w) {
        return (int) (words[w + 1] >>> 32);
    }

    /** The array that holds the bytes of the string value at w: the input, or {@link #strings}. */
    byte[] stringBytes(int w) {
        return (words[w] & IN_INPUT) != 0 ? input : strings;
    }

    /** Where the string value at w starts in {@link #stringBytes}. */
    int stringStart(int w) {
        return (words[w] & IN_INPUT) != 0 ? inputOffset + stringOffset(w) : stringOffset(w);
    }

    int stringLength(int w) {
        return (int) words[w + 1];
    }

    /**
     * Whether the key at k is the name whose UTF-8 is {@code length} bytes, the first 16 of them
     * (zero-padded, little-endian) {@code first} and {@code second}: the generated readers'
     * check for the property they expect next.
     */
    @Override
    public boolean keyIs(int k, int length, long first, long second) {
        long word = words[k + 1];
        if ((int) word != length) {
            return false;
        }
        int off = (int) (word >>> 32);
        // The string array keeps 16 bytes of slack: 8-byte reads never run past it.
        return Keys.word(strings, off, length) == first && (length <= 8 || Keys.word(strings, off + 8, length - 8) == second);
    }

    /** Whether the bytes of the key at k past its 16th are those of {@code name} (its length checked already). */
    @Override
    public boolean keyTailIs(int k, byte[] name) {
        int off = stringOffset(k);
        return java.util.Arrays.equals(strings, off + 16, off + name.length, name, 16, name.length);
    }

    // --- values --------------------------------------------------------------------------------

    /**
     * Whether the value at w is of the given kind: false for null (the codecs read it as null),
     * a mismatch naming what was expected for anything else.
     */
    boolean is(int w, int kind, String expected) {
        int k = kind(w);
        if (k == kind) {
            return true;
        }
        if (k == NULL) {
            return false;
        }
        throw mismatch(w, expected);
    }

    @Override
    public String string(int w) {
        int k = kind(w);
        if (k == STRING) {
            return text(w);
        }
        if (k == NULL) {
            return null;
        }
        throw mismatch(w, "a string");
    }

    /**
     * The string at w (kind STRING): ASCII (flagged by the native reader) copied as Latin-1 from
     * the tape's strings or, where the native reader left it there, from the input; else
     * decoded as UTF-8. The ASCII copy goes through String(byte[], int hibyte, int, int), which
     * for hibyte 0 is a plain copy with none of the charset constructor's dispatch.
     */
    @SuppressWarnings("deprecation")
    String text(int w) {
        long word = words[w];
        if ((word & ASCII) != 0) { // known ASCII: one copy, no scan (one constructor call for both arrays)
            return new String(stringBytes(w), 0, stringStart(w), stringLength(w));
        }
        if ((word & LONE_SURROGATE) != 0) {
            return Utf8.decodeGeneralized(strings, stringOffset(w), stringLength(w));
        }
        return new String(strings, stringOffset(w), stringLength(w), StandardCharsets.UTF_8);
    }

    long longValue(int w, String expected) {
        switch (kind(w)) {
            case INT64:
                return words[w + 1];
            case FLOAT64:
                return integralLong(w, expected);
            case NULL:
                if (failOnNullPrimitive) {
                    throw mismatch(w, expected);
                }
                return 0;
            case UINT64:
            case BIG:
                throw mismatch(w, expected, numberText(w) + " (out of range)");
            default:
                throw mismatch(w, expected);
        }
    }

    /**
     * A number written with a fraction or an exponent (1.0, 1e3) as a long, where its value is an
     * integer exactly. Its text decides, not its double: 1.0000000000000000001 and 1e-400 round to
     * integers, 9007199254740993.0 to 9007199254740992.
     */
    private long integralLong(int w, String expected) {
        String text = numberText(w);
        BigDecimal d = integral(w, text, expected);
        try {
            return d.longValueExact();
        } catch (ArithmeticException e) {
            throw mismatch(w, expected, text + " (out of range)");
        }
    }

    /**
     * The number `text` at w as a decimal with no trailing zeros, where it is an integer; else a
     * mismatch naming what was expected. Trailing zeros are stripped first so that 1e-999999999
     * is seen not to be an integer at once, where an exact conversion would divide by ten to
     * that power.
     */
    private BigDecimal integral(int w, String text, String expected) {
        BigDecimal d = decimal(w, text, expected).stripTrailingZeros();
        if (d.scale() > 0) {
            throw mismatch(w, expected, text + " (a fraction)");
        }
        return d;
    }

    /** The integer at w, within [min, max], or a mismatch naming what was expected. */
    private long integerWithin(int w, String expected, long min, long max) {
        long v = longValue(w, expected);
        if (v < min || v > max) {
            throw mismatch(w, expected, (kind(w) == FLOAT64 ? numberText(w) : Long.toString(v)) + " (out of range)");
        }
        return v;
    }

    @Override
    public int intValue(int w) {
        return (int) integerWithin(w, "an int", Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    @Override
    public long longValue(int w) {
        return longValue(w, "a long");
    }

    @Override
    public short shortValue(int w) {
        return (short) integerWithin(w, "a short", Short.MIN_VALUE, Short.MAX_VALUE);
    }

    @Override
    public byte byteValue(int w) {
        return (byte) integerWithin(w, "a byte", Byte.MIN_VALUE, Byte.MAX_VALUE);
    }

    @Override
    public char charValue(int w) {
        if (kind(w) == STRING && stringLength(w) > 0) {
            String s = text(w);
            if (s.length() == 1) {
                return s.charAt(0);
            }
        }
        if (kind(w) == NULL && !failOnNullPrimitive) {
            return 0;
        }
        throw mismatch(w, "a string of one character");
    }

    @Override
    public double doubleValue(int w) {
        switch (kind(w)) {
            case FLOAT64:
                return Double.longBitsToDouble(words[w + 1]);
            case INT64:
                return words[w + 1];
            case UINT64:
                return unsignedToDouble(words[w + 1]);
            case BIG:
                return Double.parseDouble(numberText(w));
            case STRING: {
                // What Jackson writes for a double that is not a number.
                String s = text(w);
                switch (s) {
                    case "NaN": return Double.NaN;
                    case "Infinity": return Double.POSITIVE_INFINITY;
                    case "-Infinity": return Double.NEGATIVE_INFINITY;
                    default: throw mismatch(w, "a double");
                }
            }
            case NULL:
                if (failOnNullPrimitive) {
                    throw mismatch(w, "a double");
                }
                return 0;
            default:
                throw mismatch(w, "a double");
        }
    }

    @Override
    public boolean booleanValue(int w) {
        switch (kind(w)) {
            case TRUE: return true;
            case FALSE: return false;
            case NULL:
                if (failOnNullPrimitive) {
                    throw mismatch(w, "a boolean");
                }
                return false;
            default:
                throw mismatch(w, "a boolean");
        }
    }

    BigInteger bigInteger(int w) {
        switch (kind(w)) {
            case INT64: return BigInteger.valueOf(words[w + 1]);
            case UINT64: return new BigInteger(Long.toUnsignedString(words[w + 1]));
            case BIG:
            case FLOAT64: {
                String text = numberText(w);
                BigDecimal d = integral(w, text, "an integer");
                if (maxNumberLength > 0 && (long) d.precision() - d.scale() > maxNumberLength) {
                    throw mismatch(w, "an integer", text + " (more than " + maxNumberLength + " digits)");
                }
                try {
                    return d.toBigInteger();
                } catch (ArithmeticException e) { // past BigInteger's 2^31 bits (with no limit set)
                    throw mismatch(w, "an integer", text + " (out of range)");
                }
            }
            case STRING: {
                String text = numberString(w, "an integer");
                try {
                    return new BigInteger(text);
                } catch (NumberFormatException e) {
                    throw mismatch(w, "an integer");
                }
            }
            case NULL: return null;
            default: throw mismatch(w, "an integer");
        }
    }

    BigDecimal bigDecimal(int w) {
        switch (kind(w)) {
            case INT64: return BigDecimal.valueOf(words[w + 1]);
            case UINT64:
            case BIG:
            case FLOAT64: return decimal(w, numberText(w), "a decimal number");
            case STRING: {
                String text = numberString(w, "a decimal number");
                try {
                    return new BigDecimal(text);
                } catch (NumberFormatException e) {
                    throw mismatch(w, "a decimal number");
                }
            }
            case NULL: return null;
            default: throw mismatch(w, "a decimal number");
        }
    }

    /**
     * The number at w, whose text is {@code text}, as a BigDecimal; a mismatch where its exponent
     * is past what BigDecimal holds (its scale is an int, JSON's exponents have no bound).
     */
    BigDecimal decimal(int w, String text, String expected) {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw mismatch(w, expected, text + " (out of range)");
        }
    }

    /** The string at w, to be read as a number: a mismatch where it is longer than maxNumberLength. */
    private String numberString(int w, String expected) {
        if (maxNumberLength > 0 && stringLength(w) > maxNumberLength) {
            throw mismatch(w, expected, "a string of more than " + maxNumberLength + " characters");
        }
        return text(w);
    }

    /** The token of the number at w, as written in the input. */
    String numberText(int w) {
        long start = offset(w);
        StringBuilder sb = new StringBuilder(24);
        for (long i = start; ; i++) {
            int b = inputByte(i);
            if (b < 0 || !(b >= '0' && b <= '9' || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E')) {
                break;
            }
            sb.append((char) b);
        }
        return sb.toString();
    }

    /** The input's byte at an offset, or -1 past its end. */
    int inputByte(long offset) {
        if (input != null) {
            return offset < inputLength ? input[inputOffset + (int) offset] & 0xFF : -1;
        }
        if (inputBuffer != null) {
            long i = inputBuffer.position() + offset;
            return i < inputBuffer.limit() ? inputBuffer.get((int) i) & 0xFF : -1;
        }
        return -1;
    }

    private static double unsignedToDouble(long v) {
        double d = (double) (v >>> 1) * 2.0;
        return d + (v & 1);
    }

    // --- errors ------------------------------------------------------------------------------

    Mismatch mismatch(int w, String expected) {
        return new Mismatch(w, "expected " + expected + ", found " + describe(w));
    }

    Mismatch mismatch(int w, String expected, String found) {
        return new Mismatch(w, "expected " + expected + ", found " + found);
    }

    /**
     * The first container at the document's greatest nesting: its word in the low 32 bits, its
     * depth (the root's is 1) in the high ones; 0 for a scalar root. One pass over the words,
     * with a stack of the open containers' ends (no recursion: it serves a document too deep
     * for the codecs' recursion).
     */
    long deepest() {
        int k = kind(0);
        if (k != OBJECT && k != ARRAY) {
            return 0;
        }
        int end = next(0);
        int[] ends = new int[16];
        int depth = 0, best = 0, bestDepth = 0;
        for (int w = 0; w < end; w += 2) {
            while (depth > 0 && w >= ends[depth - 1]) {
                depth--;
            }
            k = kind(w);
            if (k == OBJECT || k == ARRAY) {
                if (depth == ends.length) {
                    ends = java.util.Arrays.copyOf(ends, 2 * depth);
                }
                ends[depth++] = next(w);
                if (depth > bestDepth) {
                    bestDepth = depth;
                    best = w;
                }
            }
        }
        return (long) bestDepth << 32 | best;
    }

    /** The first key of the object at w that it holds twice. */
    Mismatch duplicateKey(int w) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int k = w + 2, end = next(w); k < end; k = next(k + 2)) {
            if (!seen.add(text(k))) {
                return new Mismatch(k, "duplicate key '" + text(k) + "'");
            }
        }
        return new Mismatch(w, "duplicate key");
    }

    String describe(int w) {
        return switch (kind(w)) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case INT64, UINT64 -> "an integer";
            case FLOAT64 -> "a number";
            case BIG -> "a number past 64 bits";
            case TRUE -> "true";
            case FALSE -> "false";
            default -> "null";
        };
    }

    /** A value that is not what its codec reads: the word index and the message. */
    static final class Mismatch extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient int word;

        Mismatch(int word, String message) {
            super(message, null, false, false);
            this.word = word;
        }
    }
}
