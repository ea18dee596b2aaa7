// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A kept document, read field by field: one crossing per field. */
class DocumentTest {
    @ParameterizedTest
    @EnumSource(value = Bridge.class, names = {"JNI_DIRECT", "FFM_DIRECT"})
    void fieldsOfAKeptDocument(Bridge bridge) {
        NativeParser parser = NativeParser.forCurrentThread();
        String longString = "x".repeat(100_000);
        parser.parseDocument(PaddedBuffers.copyOf(("{\"id\":7,\"x\":2.5,\"ok\":true,\"s\":\"h\\u00e9\",\"n\":null,"
                + "\"a\":[1,{\"b\":\"c\"}],\"long\":\"" + longString + "\"}").getBytes(StandardCharsets.UTF_8)), bridge);
        assertEquals(7, parser.getLong(JsonPointer.of("/id"), -1));
        assertEquals(2.5, parser.getDouble(JsonPointer.of("/x"), -1));
        assertTrue(parser.getBoolean(JsonPointer.of("/ok"), false));
        assertEquals("hé", parser.getString(JsonPointer.of("/s")));
        assertEquals("c", parser.getString(JsonPointer.of("/a/1/b")));
        assertEquals(longString, parser.getString(JsonPointer.of("/long")));
        assertEquals(-1, parser.getLong(JsonPointer.of("/n"), -1));
        assertNull(parser.getString(JsonPointer.of("/missing")));
        JsonException mismatch = assertThrows(JsonException.class, () -> parser.getLong(JsonPointer.of("/s"), 0));
        assertEquals(ErrorCode.TYPE_MISMATCH, mismatch.code());
        assertEquals(ErrorCode.INVALID_POINTER,
                assertThrows(JsonException.class, () -> parser.getLong(JsonPointer.of("id"), 0)).code());
        parser.checksum(PaddedBuffers.padded("[]".getBytes()), 0, 2, Bridge.FFM_HEAP); // lets the document go
        assertThrows(IllegalStateException.class, () -> parser.getLong(JsonPointer.of("/id"), 0));
        JsonException invalid = assertThrows(JsonException.class,
                () -> parser.parseDocument(PaddedBuffers.copyOf("{\"a\":1,}".getBytes()), bridge));
        assertEquals(7, invalid.offset());
        assertThrows(IllegalStateException.class, () -> parser.getLong(JsonPointer.of("/a"), 0));
    }
}
