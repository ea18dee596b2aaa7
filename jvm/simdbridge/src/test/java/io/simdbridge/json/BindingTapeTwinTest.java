// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

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
 * BindingTape's constants mirror the binding tape's layout in core/include/simdbridge/binding_tape.h: read from
 * the header, so that a kind or a bit changed on one side only fails here.
 */
class BindingTapeTwinTest {
    @Test
    void kindsAndBitsAreTheHeaders() throws IOException {
        String header = Files.readString(Path.of("..", "..", "core", "include", "simdbridge", "binding_tape.h"));
        String kinds = header.substring(header.indexOf("enum class binding_tape_entry"), header.indexOf("};", header.indexOf("enum class binding_tape_entry")));
        Map<String, Integer> c = new HashMap<>();
        for (Matcher m = Pattern.compile("(\\w+) = (\\d+),").matcher(kinds); m.find();) {
            c.put(m.group(1), Integer.parseInt(m.group(2)));
        }
        Map<String, Integer> java = Map.of("object", BindingTape.OBJECT, "array", BindingTape.ARRAY, "string", BindingTape.STRING,
                "int64", BindingTape.INT64, "uint64", BindingTape.UINT64, "float64", BindingTape.FLOAT64, "big_number", BindingTape.BIG,
                "true_value", BindingTape.TRUE, "false_value", BindingTape.FALSE, "null_value", BindingTape.NULL);
        assertEquals(c, java);
        Matcher bit = Pattern.compile("(binding_tape_\\w+) = uint64_t\\(1\\) << (\\d+);").matcher(header);
        Map<String, Long> bits = new HashMap<>();
        while (bit.find()) {
            bits.put(bit.group(1), 1L << Integer.parseInt(bit.group(2)));
        }
        assertEquals(Map.of("binding_tape_lone_surrogate", BindingTape.LONE_SURROGATE, "binding_tape_ascii", BindingTape.ASCII,
                "binding_tape_in_input", BindingTape.IN_INPUT), bits);
        assertEquals(BindingTape.OFFSET_MASK + 1, 1L << Integer.parseInt(
                header.replaceAll("(?s).*binding_tape_offset_mask = \\(uint64_t\\(1\\) << (\\d+)\\) - 1;.*", "$1")));
    }
}
