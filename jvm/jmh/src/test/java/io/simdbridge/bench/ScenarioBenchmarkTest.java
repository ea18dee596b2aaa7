// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.simdbridge.bench.databind.Scenarios;
import io.simdbridge.bench.jmh.ScenarioBenchmark;
import org.junit.jupiter.api.Test;

/** The scenarios time the library they are given, and refuse one they do not have. */
class ScenarioBenchmarkTest {
    private static ScenarioBenchmark benchmark(String library) {
        ScenarioBenchmark b = new ScenarioBenchmark();
        b.scenario = "simple";
        b.library = library;
        return b;
    }

    @Test
    void eachLibraryWritesThroughItself() throws Exception {
        Scenarios.Scenario simple = Scenarios.all().stream().filter(s -> s.name().equals("simple")).findFirst().orElseThrow();
        ScenarioBenchmark ours = benchmark("simdbridge"), jackson = benchmark("jackson");
        ours.setup();
        jackson.setup();
        assertArrayEquals(simple.writeSimdbridge(), (byte[]) ours.write());
        assertArrayEquals(simple.writeJackson(), (byte[]) jackson.write());
    }

    @Test
    void anotherLibraryIsRefusedNotTimedAsJackson() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> benchmark("fastjson2").setup());
        assertEquals("no library fastjson2 in the scenarios (simdbridge, jackson)", e.getMessage());
    }
}
