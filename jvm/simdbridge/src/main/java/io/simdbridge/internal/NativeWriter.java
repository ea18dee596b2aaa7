// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.internal;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Objects;

/**
 * The core's JSON string writer (core/include/simdbridge/writer.h) over Java arrays: a string's
 * UTF-16 chars in, its quoted and escaped UTF-8 out, in one critical FFM call that reads and
 * writes both arrays in place. Eight chars at a time where none needs escaping, where Java
 * escapes a char at a time with its bounds checks. The data binding's writer
 * (io.simdbridge.json) sends it its long strings.
 */
public final class NativeWriter {
    private NativeWriter() {}

    private static final MethodHandle WRITE_JSON_STRING = load();
    private static final boolean AVAILABLE = WRITE_JSON_STRING != null;

    private static MethodHandle load() {
        try {
            return ParserInternals.get().writeJsonString();
        } catch (LinkageError | RuntimeException e) { // no native library for this platform
            return null;
        }
    }

    /** Whether the native library is loaded (where it is not, callers write strings themselves). */
    public static boolean available() {
        return AVAILABLE;
    }

    /**
     * The room {@link #writeString} needs for {@code length} chars: each as \\uXXXX, the quotes,
     * and 8 bytes of slack (it writes an escape as one 8-byte store).
     */
    public static long capacity(int length) {
        return 6L * length + 10;
    }

    /**
     * Writes {@code text[0, length)} as a JSON string, quotes included, into {@code out} from
     * {@code offset}, which must have room for {@link #capacity}(length) bytes. Escaped: '"', '\\'
     * and U+0000 to U+001F; a surrogate pair becomes its 4-byte UTF-8, a lone surrogate its \\uXXXX
     * escape. Returns the bytes written.
     *
     * @throws IllegalStateException where the native library is not available
     */
    public static int writeString(char[] text, int length, byte[] out, int offset) {
        Objects.checkFromIndexSize(0, length, text.length);
        Objects.checkFromIndexSize(offset, 0, out.length);
        if (out.length - offset < capacity(length)) {
            throw new IndexOutOfBoundsException("simdbridge: " + (out.length - offset) + " bytes from offset " + offset
                    + " cannot hold a string of " + length + " chars (" + capacity(length) + " may be needed)");
        }
        if (!AVAILABLE) {
            throw new IllegalStateException("simdbridge: the native library is not available");
        }
        try {
            return (int) (long) WRITE_JSON_STRING.invokeExact(MemorySegment.ofArray(text), (long) length,
                    MemorySegment.ofArray(out).asSlice(offset));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
