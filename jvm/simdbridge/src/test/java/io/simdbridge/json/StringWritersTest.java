// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.simdbridge.internal.NativeWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The two string writers, the core's (NativeWriter, for strings from JsonWriter.NATIVE_MIN_CHARS
 * chars on) and JsonWriter's own, write the same bytes for any string; the native one checks its
 * arrays before it crosses.
 */
class StringWritersTest {
    /** Chars of every kind the writers tell apart. */
    private static final char[] KINDS = {'a', 'Z', ' ', '/', '?', '\u007f', '"', '\\', '\n', '\r', '\t', '\b', '\f', '\u0000',
        '\u0001', '\u001f', '\u0080', '\u00e9', '\u00ff', '\u07ff', '\u0800', '\u4e2d', '\uffff', '\ud83d', '\ude00', '\udbff',
        '\udc00'};

    private static String random(Random r, int length) {
        StringBuilder sb = new StringBuilder(length);
        int plainOdds = r.nextInt(4);
        for (int i = 0; i < length; i++) {
            if (r.nextInt(4) < plainOdds) {
                sb.append((char) (0x20 + r.nextInt(0x5F)));
            } else if (r.nextInt(8) == 0) {
                sb.append((char) r.nextInt(0x10000));
            } else {
                sb.append(KINDS[r.nextInt(KINDS.length)]);
            }
        }
        return sb.toString();
    }

    private static byte[] here(String s) {
        JsonWriter w = new JsonWriter(16);
        w.writeStringHere(s);
        return w.toByteArray();
    }

    private static byte[] natively(String s) {
        byte[] out = new byte[(int) NativeWriter.capacity(s.length()) + 3];
        int n = NativeWriter.writeString(s.toCharArray(), s.length(), out, 3);
        return Arrays.copyOfRange(out, 3, 3 + n);
    }

    @Test
    void theNativeLibraryWrites() {
        assertTrue(NativeWriter.available());
    }

    @Test
    void sameBytesForAnyString() {
        Random r = new Random(99);
        for (int round = 0; round < 20_000; round++) {
            String s = random(r, r.nextInt(round < 19_000 ? 80 : 3000));
            assertArrayEquals(here(s), natively(s), s);
            // And through writeString, which picks one of them by length.
            JsonWriter w = new JsonWriter(4);
            w.writeString(s);
            assertArrayEquals(here(s), w.toByteArray(), s);
        }
    }

    @Test
    void readsBackThroughTheBinding() {
        Random r = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            // Lone surrogates are written as their escapes, and read back as themselves.
            String s = random(r, JsonWriter.NATIVE_MIN_CHARS + r.nextInt(200));
            String json = Json.writeString(java.util.List.of(s));
            assertEquals(java.util.List.of(s), Json.read(json, new TypeRef<java.util.List<String>>() {}), json);
        }
    }

    /**
     * Plain strings are checked and copied by words, first and last word overlapping: one char
     * that needs work, at any place of a string of any length up to past a few words, sends it
     * to the escaping writer, which writes over what the copy left; a plain string written
     * next lands right after it.
     */
    @Test
    void oneCharThatNeedsWorkAnywhere() {
        char[] special = {'"', '\\', '\n', '\u0000', '\u001f', '?', '\u007f', '\u0080', '\u00e9', '\u4e2d', '\ud83d'};
        for (int length = 1; length <= 40; length++) {
            for (int at = 0; at < length; at++) {
                for (char c : special) {
                    char[] chars = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH".substring(0, length).toCharArray();
                    chars[at] = c;
                    String s = new String(chars);
                    JsonWriter w = new JsonWriter(4);
                    w.writeStringHere("pre");
                    w.writeStringHere(s);
                    w.writeStringHere("post");
                    byte[] expected = (new String(natively("pre"), StandardCharsets.UTF_8) + new String(natively(s), StandardCharsets.UTF_8)
                            + new String(natively("post"), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
                    assertArrayEquals(expected, w.toByteArray(), s);
                }
            }
        }
    }

    @Test
    void knownOutput() {
        String s = "\u0000\u001f\"\\/\n caf\u00e9 \u4e2d \ud83d\ude00 \ud800 " + "x".repeat(40);
        String expected = "\"\\u0000\\u001f\\\"\\\\/\\n caf\u00e9 \u4e2d \ud83d\ude00 \\ud800 " + "x".repeat(40) + "\"";
        assertEquals(expected, new String(natively(s), StandardCharsets.UTF_8));
        assertEquals(expected, new String(here(s), StandardCharsets.UTF_8));
    }

    @Test
    void argumentsAreCheckedBeforeTheCall() {
        char[] text = "a long enough string of text".toCharArray();
        int need = (int) NativeWriter.capacity(text.length);
        assertThrows(IndexOutOfBoundsException.class, () -> NativeWriter.writeString(text, text.length, new byte[need - 1], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> NativeWriter.writeString(text, text.length, new byte[need], 1));
        assertThrows(IndexOutOfBoundsException.class, () -> NativeWriter.writeString(text, text.length + 1, new byte[need + 6], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> NativeWriter.writeString(text, -1, new byte[need], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> NativeWriter.writeString(text, 1, new byte[need], -1));
        assertThrows(IndexOutOfBoundsException.class, () -> NativeWriter.writeString(text, 1, new byte[need], need + 1));
        assertThrows(NullPointerException.class, () -> NativeWriter.writeString(null, 0, new byte[need], 0));
        assertEquals(2, NativeWriter.writeString(text, 0, new byte[(int) NativeWriter.capacity(0)], 0));
    }
}
