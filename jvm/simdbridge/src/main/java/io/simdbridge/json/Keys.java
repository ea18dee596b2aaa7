// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * Names matched as bytes: a table from the UTF-8 of a property's (or enum constant's) name to
 * its index, looked up in the tape's string bytes without making a String. The first 16 bytes
 * of a name are compared as two longs; a longer name's rest with Arrays.equals. The caller's
 * guess (the property after the last one read: JSON usually keeps the declared order) is tried
 * first; then an open-addressing hash.
 */
final class Keys {
    private final byte[][] names;
    private final long[] first;
    private final long[] second;
    private final int[] table; // index + 1; 0 is empty
    private final int mask;

    Keys(String[] names) {
        int n = names.length;
        this.names = new byte[n][];
        this.first = new long[n];
        this.second = new long[n];
        int size = Integer.highestOneBit(Math.max(4, n * 3)) * 2;
        this.table = new int[size];
        this.mask = size - 1;
        for (int i = 0; i < n; i++) {
            byte[] b = names[i].getBytes(StandardCharsets.UTF_8);
            this.names[i] = b;
            first[i] = firstWord(b);
            second[i] = secondWord(b);
            int h = hash(first[i], second[i], b.length) & mask;
            while (table[h] != 0) {
                h = (h + 1) & mask;
            }
            table[h] = i + 1;
        }
    }

    int size() {
        return names.length;
    }

    /** The UTF-8 names, by index. */
    byte[][] names() {
        return names;
    }

    /** A name's first 8 bytes as a little-endian long, zero past its end. */
    static long firstWord(byte[] name) {
        return word(Arrays.copyOf(name, Math.max(16, name.length)), 0, name.length);
    }

    /** A name's bytes 8 to 15 as a little-endian long, zero past its end. */
    static long secondWord(byte[] name) {
        return name.length > 8 ? word(Arrays.copyOf(name, Math.max(16, name.length)), 8, name.length - 8) : 0;
    }

    /** The 8 bytes at {@code at} as a little-endian long, those past {@code length} zeroed. */
    static long word(byte[] b, int at, int length) {
        long w = (long) BindingTape.LONGS.get(b, at);
        return length >= 8 ? w : w & ((1L << (8 * length)) - 1);
    }

    private static int hash(long a, long b, int length) {
        long h = a * 0x9E3779B97F4A7C15L ^ b * 0xC2B2AE3D27D4EB4FL ^ length;
        return (int) (h ^ (h >>> 29));
    }

    /** The index of the key at tape word k, or -1; {@code guess} is tried first. */
    int find(BindingTape t, int k, int guess) {
        byte[] s = t.stringBytes(k);
        int off = t.stringStart(k);
        int len = t.stringLength(k);
        // The tape's string array keeps 16 bytes of slack: 8-byte reads never run past it. A
        // string value left in the input (an enum's constant) may end closer to the input's end.
        if (s.length - off < 16) {
            s = Arrays.copyOfRange(s, off, off + len + 16);
            off = 0;
        }
        long a = word(s, off, len);
        long b = len > 8 ? word(s, off + 8, len - 8) : 0;
        if (guess < names.length && matches(guess, s, off, len, a, b)) {
            return guess;
        }
        for (int h = hash(a, b, len) & mask; ; h = (h + 1) & mask) {
            int i = table[h] - 1;
            if (i < 0) {
                return -1;
            }
            if (matches(i, s, off, len, a, b)) {
                return i;
            }
        }
    }

    private boolean matches(int i, byte[] s, int off, int len, long a, long b) {
        byte[] name = names[i];
        return name.length == len && first[i] == a && second[i] == b
                && (len <= 16 || Arrays.equals(s, off + 16, off + len, name, 16, len));
    }

    /** Reads and writes map keys (JSON object keys are strings). */
    abstract static class KeyCodec<K> {
        abstract K read(BindingTape t, int k);

        abstract void write(JsonWriter out, K key);
    }

    static final KeyCodec<String> STRING = new KeyCodec<>() {
        @Override
        String read(BindingTape t, int k) {
            return t.text(k);
        }

        @Override
        void write(JsonWriter out, String key) {
            out.writeString(key);
        }
    };

    /** Keys of another type, parsed from their string and written with toString(). */
    static <K> KeyCodec<K> parsed(String expected, java.util.function.Function<String, K> parse) {
        return new KeyCodec<>() {
            @Override
            K read(BindingTape t, int k) {
                String s = t.text(k);
                try {
                    return parse.apply(s);
                } catch (IllegalArgumentException e) {
                    throw t.mismatch(k, expected + " as a key", "\"" + s + "\"");
                }
            }

            @Override
            void write(JsonWriter out, K key) {
                out.writeString(key.toString());
            }
        };
    }

    static KeyCodec<?> forClass(Class<?> type) {
        if (type == String.class || type == Object.class || type == CharSequence.class) {
            return STRING;
        }
        if (type == Integer.class) {
            return parsed("an int", Integer::valueOf);
        }
        if (type == Long.class) {
            return parsed("a long", Long::valueOf);
        }
        if (type == UUID.class) {
            return parsed("a UUID", UUID::fromString);
        }
        if (type.isEnum()) {
            EnumCodec<?> e = EnumCodec.of(type);
            return new KeyCodec<Enum<?>>() {
                @Override
                Enum<?> read(BindingTape t, int k) {
                    return e.constant(t, k);
                }

                @Override
                void write(JsonWriter out, Enum<?> key) {
                    e.writeConstant(out, key);
                }
            };
        }
        return null;
    }
}
