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
    /** docs/checksum.md, read by the library's tests' ChecksumSpec. */
    static final Map<String, String> VECTORS = io.simdbridge.ChecksumSpec.VECTORS;

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
            assertEquals(io.simdbridge.ChecksumSpec.STREAM_VECTOR.get(1),
                    HexFormat.of().toHexDigits(checksum(e, io.simdbridge.ChecksumSpec.STREAM_VECTOR.get(0), true)), e.name());
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
