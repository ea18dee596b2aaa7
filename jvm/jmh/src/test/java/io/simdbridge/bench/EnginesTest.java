// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.simdbridge.bench.data.Datasets;
import io.simdbridge.bench.data.Input;
import io.simdbridge.bench.engines.Engine;
import io.simdbridge.bench.engines.Engines;
import io.simdbridge.bench.gate.EquivalenceGate;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every engine on the checksum contract's vectors, and against each other on the corpus. */
class EnginesTest {
    /** ../shared/spec/checksum.md. */
    static final Map<String, String> VECTORS = Map.ofEntries(
            Map.entry("[]", "ed128a87f3f843e2"), Map.entry("{}", "ad319677479e1db6"),
            Map.entry("null", "08511e07b5056c5e"), Map.entry("true", "084a5207b4ffa60c"),
            Map.entry("\"abc\"", "082bbd07b4e5ab4e"), Map.entry("-0", "08285607b4e2c672"),
            Map.entry("-0.0", "884db807b5028935"), Map.entry("0.1", "bb68ab24afe5e6b7"),
            Map.entry("{\"a\":1}", "bec57e3c220bbec4"),
            Map.entry("{\"a\":[1,2.5,\"x\",true,false,null]}", "ac77f706f619218e"),
            Map.entry("\"\\u00e9\\ud83d\\ude00\"", "082bc207b4e5b3cd"),
            Map.entry("[9223372036854775807,-9223372036854775808,18446744073709551615]", "e0e49657524e09ad"),
            Map.entry("[18446744073709551616]", "def3296fc9318f5a"),
            Map.entry("[1E400,-1e400]", "1892e88ff0de4482"), Map.entry("[1e-400]", "b443296fc9318f5a"),
            Map.entry("{\"k\":\"\\n\\t\\\"\\\\\\/\"}", "52c3b433e945fa35"),
            Map.entry("[{\"\":{}}]", "af3fa0e7786892ef"), Map.entry("[1.0,1,1e0]", "b86c90ac26ffa832"));

    /**
     * What a peer cannot do, found by these tests and kept visible: simdjson-java refuses
     * integers of 2^63 and more (simdjson itself reads up to 2^64) and, like simdjson, the
     * numbers past the double range and lone surrogates that the contract defines.
     */
    static final Map<String, Set<String>> REFUSED = Map.of(
            "simdjson-java", Set.of("[9223372036854775807,-9223372036854775808,18446744073709551615]",
                    "[18446744073709551616]"));

    static long checksum(Engine e, String json, boolean stream) {
        Input in = Input.of("vector", stream, json.getBytes(StandardCharsets.UTF_8));
        return stream ? e.checksumStream(in) : e.checksum(in);
    }

    @Test
    void everyEngineOnEveryVector() {
        for (Engine e : Engines.ALL) {
            for (var v : VECTORS.entrySet()) {
                if (REFUSED.getOrDefault(e.name(), Set.of()).contains(v.getKey())) {
                    assertThrows(RuntimeException.class, () -> checksum(e, v.getKey(), false), e.name() + " " + v.getKey());
                    continue;
                }
                assertEquals(v.getValue(), HexFormat.of().toHexDigits(checksum(e, v.getKey(), false)), e.name() + " " + v.getKey());
            }
            assertEquals("0a5e9b510b4ddcb0", HexFormat.of().toHexDigits(checksum(e, "{}\n[1]\n\n\"x\"\n", true)), e.name());
        }
    }

    @Test
    void duplicateKeysAndLoneSurrogates() {
        // Every key is folded, duplicates too: Jackson's tree keeps only the last one.
        String duplicates = "{\"a\":1,\"a\":2}";
        long expected = checksum(Engines.byName("simdjson-jni-direct"), duplicates, false);
        for (Engine e : Engines.ALL) {
            long h = checksum(e, duplicates, false);
            if (e.name().equals("jackson-tree")) {
                assertTrue(h != expected);
            } else {
                assertEquals(expected, h, e.name());
            }
        }
        String lone = "\"\\ud800\"";
        assertEquals("082bbd07b4e5ab4e", HexFormat.of().toHexDigits(checksum(Engines.byName("jackson-stream"), lone, false)));
        assertThrows(RuntimeException.class, () -> checksum(Engines.byName("simdjson-java"), lone, false));
    }

    @Test
    void invalidJsonIsRefusedByEveryEngine() {
        for (Engine e : Engines.ALL) {
            for (String bad : List.of("[1,2,", "{\"a\" 1}", "[1]]", "tru")) {
                assertThrows(RuntimeException.class, () -> checksum(e, bad, false), e.name() + " " + bad);
            }
        }
    }

    @Test
    void theGateOnTheCorpus() throws Exception {
        List<String> names = new java.util.ArrayList<>(Datasets.jsonExampleNames());
        names.add(Datasets.GHARCHIVE);
        EquivalenceGate.Report report = EquivalenceGate.run(names);
        assertTrue(report.passed(), report.datasets().toString());
        assertEquals(23, report.datasets().size());
    }
}
