// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Java constants that mirror the C API (core/include/simdbridge/simdbridge_c.h), read from
 * the header itself: a slot or a code changed on one side only fails here. (ErrorCode's names
 * and ordinals are checked against the library's own table in ErrorCodeTest.)
 */
class TwinsTest {
    /** From the module's directory (jvm/simdbridge): the core's public headers. */
    static final Path HEADERS = Path.of("..", "..", "core", "include", "simdbridge");

    /** Every {@code #define NAME NUMBER} of a header. */
    static Map<String, Long> defines(String header) throws IOException {
        Map<String, Long> values = new HashMap<>();
        Matcher m = Pattern.compile("^#define (\\w+) (-?\\d+)\\b", Pattern.MULTILINE)
                .matcher(Files.readString(HEADERS.resolve(header)));
        while (m.find()) {
            values.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return values;
    }

    @Test
    void statusSlotsAreTheHeaders() throws IOException {
        Map<String, Long> c = defines("simdbridge_c.h");
        Map<String, Integer> java = Map.of(
                "SIMDBRIDGE_EXTRACT_STATUS_CONSUMED", FfmBridge.EXTRACT_STATUS_CONSUMED,
                "SIMDBRIDGE_EXTRACT_STATUS_COLUMN", FfmBridge.EXTRACT_STATUS_COLUMN,
                "SIMDBRIDGE_BINDING_TAPE_STATUS_WORDS", FfmBridge.BINDING_TAPE_STATUS_WORDS,
                "SIMDBRIDGE_BINDING_TAPE_STATUS_STRINGS", FfmBridge.BINDING_TAPE_STATUS_STRINGS,
                "SIMDBRIDGE_BINDING_TAPE_STATUS_OFFSET", FfmBridge.BINDING_TAPE_STATUS_OFFSET,
                "SIMDBRIDGE_BINDING_TAPE_STATUS_PLANNED", FfmBridge.BINDING_TAPE_STATUS_PLANNED,
                "SIMDBRIDGE_MSGPACK_STATUS_SIZE", FfmBridge.MSGPACK_STATUS_SIZE,
                "SIMDBRIDGE_MSGPACK_STATUS_OFFSET", FfmBridge.MSGPACK_STATUS_OFFSET,
                "SIMDBRIDGE_MSGPACK_STATUS_DOCUMENT", FfmBridge.MSGPACK_STATUS_DOCUMENT);
        for (var e : java.entrySet()) {
            assertEquals(c.get(e.getKey()), Long.valueOf(e.getValue()), e.getKey());
        }
        assertEquals(java.size(), c.keySet().stream().filter(k -> k.contains("_STATUS_")).count(),
                "a status slot of simdbridge_c.h has no Java twin");
        assertEquals(c.get("SIMDBRIDGE_BINDING_TAPE_STRINGS_IN_INPUT"), Long.valueOf(FfmBridge.BINDING_TAPE_STRINGS_IN_INPUT));
    }

    @Test
    void errorCodesAreTheHeaders() throws IOException {
        Map<String, Long> c = new HashMap<>();
        String header = Files.readString(HEADERS.resolve("simdbridge_c.h"));
        String errors = header.substring(header.indexOf("typedef enum simdbridge_error {"), header.indexOf("} simdbridge_error;"));
        Matcher m = Pattern.compile("^\\s+SIMDBRIDGE_(\\w+) = (\\d+),?$", Pattern.MULTILINE).matcher(errors);
        while (m.find()) {
            c.put(m.group(1), Long.parseLong(m.group(2)));
        }
        assertEquals(ErrorCode.values().length, c.size(), "simdbridge_error and ErrorCode differ in size");
        for (ErrorCode code : ErrorCode.values()) {
            assertEquals(Long.valueOf(code.ordinal()), c.get(code.name()), code.name());
        }
    }
}
