// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A JSON Pointer (RFC 6901), its UTF-8 held in native memory once, for the field reads of a
 * kept document ({@link NativeParser#parseDocument}). Its syntax is checked where it is used.
 *
 * <pre>{@code
 * JsonPointer login = JsonPointer.of("/actor/login");
 * }</pre>
 */
public final class JsonPointer {
    private final String text;
    final MemorySegment utf8;

    private JsonPointer(String text) {
        this.text = text;
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        utf8 = Arena.ofAuto().allocate(Math.max(bytes.length, 1)).asSlice(0, bytes.length);
        MemorySegment.copy(bytes, 0, utf8, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes.length);
    }

    public static JsonPointer of(String text) {
        return new JsonPointer(Objects.requireNonNull(text, "text"));
    }

    @Override
    public String toString() {
        return text;
    }
}
