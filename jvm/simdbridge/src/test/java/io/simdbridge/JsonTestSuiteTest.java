// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.simdbridge.json.Json;
import io.simdbridge.json.JsonBindException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * JSONTestSuite (the corpus's jsonchecker/minefield) through each way into the JVM library:
 * validation on every bridge, the data binding's generic read and the conversion to MessagePack
 * (JacksonAgreementTest reads the y_ files' values as Jackson does).
 */
class JsonTestSuiteTest {
    private static List<Path> minefield() throws IOException {
        try (Stream<Path> files = Files.list(TestData.root().resolve("jsonchecker/minefield"))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    /**
     * What one way in made of a file: "ok", or the parse error's code and offset. The binding
     * reports malformed JSON as a JsonBindException (with the JSON path) caused by the parse
     * error, and a value it cannot hold (a number whose exponent is past a BigDecimal's, where
     * one past a double's range reads as a BigDecimal) as "bind" at its offset. Every offset must
     * lie in the file's bytes.
     */
    private static String outcome(Runnable call, byte[] json) {
        try {
            call.run();
            return "ok";
        } catch (JsonException e) {
            return at(e.code().toString(), e.offset(), json);
        } catch (JsonBindException e) {
            if (e.getCause() instanceof JsonException parse) {
                assertEquals(parse.offset(), e.offset(), e.getMessage());
                return at(parse.code().toString(), e.offset(), json);
            }
            return at("bind", e.offset(), json);
        }
    }

    private static String at(String what, long offset, byte[] json) {
        assertTrue(offset >= 0 && offset <= json.length, what + " at byte " + offset + " of " + json.length);
        return what + " at byte " + offset;
    }

    private static Map<String, String> outcomes(NativeParser parser, byte[] json) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Bridge bridge : Bridge.values()) {
            out.put(bridge.name(), outcome(() -> {
                if (bridge.direct()) {
                    parser.validate(PaddedBuffers.copyOf(json), bridge);
                } else {
                    parser.validate(json, 0, json.length, bridge);
                }
            }, json));
        }
        out.put("Json.read", outcome(() -> Json.read(json, Object.class), json));
        out.put("Json.read(ByteBuffer)", outcome(() -> Json.read(ByteBuffer.wrap(json), Object.class), json));
        out.put("MsgPack.fromJson", outcome(() -> MsgPack.fromJson(json), json));
        return out;
    }

    @Test
    void everyWayInGivesAFileTheSameOutcome() throws IOException {
        NativeParser parser = NativeParser.forCurrentThread();
        List<String> disagreements = new ArrayList<>();
        int y = 0;
        int n = 0;
        for (Path file : minefield()) {
            String name = file.getFileName().toString();
            byte[] json = Files.readAllBytes(file);
            Map<String, String> out = outcomes(parser, json);
            if (!name.startsWith("i_") && out.values().stream().distinct().count() != 1) {
                disagreements.add(name + ": " + out);
            }
            String validation = out.get(Bridge.JNI_COPY.name());
            if (name.startsWith("y_")) {
                y++;
                assertEquals("ok", validation, name);
            } else if (name.startsWith("n_")) {
                n++;
                assertTrue(!validation.equals("ok"), name + " was accepted");
            }
        }
        assertEquals(95, y);
        assertEquals(188, n);
        if (!disagreements.isEmpty()) {
            fail(disagreements.size() + " files:\n" + String.join("\n", disagreements));
        }
    }
}
