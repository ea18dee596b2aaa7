// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.simdbridge.bench.databind.PairedRatio;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The side-by-side measurement: it runs every comparison it is given and writes what it measured;
 * its interval for the median has the ranks the binomial distribution gives; it refuses what it
 * lacks.
 */
class PairedRatioTest {
    private static String run(String... args) throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            PairedRatio.main(args);
        } finally {
            System.setOut(out);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Test
    void measuresEveryComparisonAndWritesIt(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("paired.json");
        String printed = run(json.toString(), "1", "1", "6", "users:read:1:jackson", "users:write:1:fastjson2,jackson",
                "scenario:read:simple:jackson", "scenario:write:escaped-string:jackson");
        assertTrue(printed.startsWith("users read 1 KB, 1 thread, simdbridge / jackson: median "), printed);
        assertTrue(printed.contains("users write 1 KB, 1 thread, simdbridge / fastjson2: median "), printed);
        assertTrue(printed.contains("users write 1 KB, 1 thread, simdbridge / jackson: median "), printed);
        assertTrue(printed.contains("scenario write escaped-string, 1 thread, simdbridge / jackson: median "), printed);
        assertTrue(printed.contains("(6 rounds of 1 ms slices after "), printed);
        JsonNode doc = new ObjectMapper().readTree(Files.readAllBytes(json));
        assertEquals(6, doc.get("rounds").asInt());
        JsonNode comparisons = doc.get("comparisons");
        assertEquals(4, comparisons.size());
        JsonNode write = comparisons.get(1);
        assertEquals("write", write.get("op").asText());
        assertEquals("1 KB", write.get("subject").asText());
        for (String library : new String[] {"simdbridge", "fastjson2", "jackson"}) {
            assertTrue(write.get("ops_per_s").get(library).asDouble() > 0, library);
        }
        for (String peer : new String[] {"fastjson2", "jackson"}) {
            JsonNode p = write.get("peers").get(peer);
            double median = p.get("median").asDouble();
            assertTrue(median > 0, peer);
            assertTrue(p.get("ci95").get(0).asDouble() <= median && median <= p.get("ci95").get(1).asDouble(), peer);
            assertTrue(p.get("iqr").get(0).asDouble() <= median && median <= p.get("iqr").get(1).asDouble(), peer);
        }
        assertEquals("escaped-string", comparisons.get(3).get("subject").asText());
    }

    @Test
    void beansStreamsThreadsAndTheNativeStage(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("paired.json");
        String printed = run(json.toString(), "1", "1", "4",
                "beans:read:jjb1:fastjson2-features,simdbridge-tape,jdk-strings,simdbridge-fields", "beans:write-stream:1:fastjson2:2t");
        assertTrue(printed.startsWith("beans read jjb 1 KB, 1 thread, simdbridge / fastjson2-features: median "), printed);
        assertTrue(printed.contains("beans read jjb 1 KB, 1 thread, simdbridge / simdbridge-tape: median "), printed);
        assertTrue(printed.contains("beans read jjb 1 KB, 1 thread, simdbridge / jdk-strings: median "), printed);
        assertTrue(printed.contains("beans read jjb 1 KB, 1 thread, simdbridge / simdbridge-fields: median "), printed);
        assertTrue(printed.contains("beans write-stream 1 KB, 2 threads, simdbridge / fastjson2: median "), printed);
        JsonNode comparisons = new ObjectMapper().readTree(Files.readAllBytes(json)).get("comparisons");
        JsonNode read = comparisons.get(0);
        // The native parse alone does less than the whole read: it is the faster of the two.
        assertTrue(read.get("ops_per_s").get("simdbridge-tape").asDouble() > read.get("ops_per_s").get("simdbridge").asDouble());
        assertTrue(read.get("ops_per_s").get("jdk-strings").asDouble() > 0);
        assertEquals(1, read.get("threads").asInt());
        assertEquals(2, comparisons.get(1).get("threads").asInt());
        assertEquals("write-stream", comparisons.get(1).get("op").asText());
    }

    @Test
    void theStringsAloneAreTheDocumentsStringValues() throws Exception {
        Method stringsOnly = PairedRatio.class.getDeclaredMethod("stringsOnly", byte[].class);
        stringsOnly.setAccessible(true);
        byte[] json = "{\"a\":\"x\",\"k\":[\"\\u00e9t\\u00e9\",\"y\\n\",\"\"],\"n\":1,\"o\":{\"s\":\"\u20ac\"}}"
                .getBytes(StandardCharsets.UTF_8);
        Object reader = stringsOnly.invoke(null, (Object) json);
        Method read = Class.forName("io.simdbridge.bench.databind.Libraries$Reader").getMethod("read", byte[].class);
        read.setAccessible(true);
        Object made = read.invoke(reader, (Object) json);
        assertArrayEquals(new String[] {"x", "\u00e9t\u00e9", "y\n", "", "\u20ac"}, (String[]) made);
        // Made anew on every call, as a read makes them.
        assertTrue(((String[]) made)[0] != ((String[]) read.invoke(reader, (Object) json))[0]);
    }

    @Test
    void warmsUpAtLeastAsAskedAndRecordsEachRound(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("paired.json");
        run(json.toString(), "1", "3", "5", "users:read:1:jackson");
        JsonNode c = new ObjectMapper().readTree(Files.readAllBytes(json)).get("comparisons").get(0);
        int warmed = c.get("warmup_rounds").asInt();
        assertTrue(warmed >= 3 && warmed <= 3 + PairedRatio.MAX_EXTRA_WARMUP, "warmup rounds " + warmed);
        // Not steady only where it took the most it could.
        assertTrue(c.get("steady").asBoolean() || warmed == 3 + PairedRatio.MAX_EXTRA_WARMUP, "warmup rounds " + warmed);
        assertTrue(c.get("jit_ms_while_measured").asLong() >= 0);
        assertEquals(5, c.get("rates").get("simdbridge").size());
        assertEquals(5, c.get("rates").get("jackson").size());
        JsonNode ratios = c.get("peers").get("jackson").get("ratios");
        assertEquals(5, ratios.size());
        for (int r = 0; r < 5; r++) { // each round's ratio is that round's two rates
            assertEquals(c.get("rates").get("simdbridge").get(r).asDouble() / c.get("rates").get("jackson").get(r).asDouble(),
                    ratios.get(r).asDouble(), 1e-9);
        }
    }

    @Test
    void aWarmupOfNPlusMTakesAtMostMMoreRounds(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("paired.json");
        run(json.toString(), "1", "2+0", "2", "users:read:1:jackson", "users:write:1:jackson");
        JsonNode doc = new ObjectMapper().readTree(Files.readAllBytes(json));
        assertEquals(0, doc.get("most_extra_warmup_rounds").asInt());
        for (JsonNode c : doc.get("comparisons")) {
            assertEquals(2, c.get("warmup_rounds").asInt()); // no more than asked, steady or not
        }
        run(json.toString(), "1", "1+3", "2", "users:read:1:jackson");
        int warmed = new ObjectMapper().readTree(Files.readAllBytes(json)).get("comparisons").get(0).get("warmup_rounds").asInt();
        assertTrue(warmed >= 1 && warmed <= 4, "warmup rounds " + warmed);
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "2+", "2", "users:read:1:jackson"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "2+-1", "2", "users:read:1:jackson"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "2+1+1", "2", "users:read:1:jackson"));
    }

    @Test
    void mergesForksByPoolingTheirRounds(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.json"), b = dir.resolve("b.json"), merged = dir.resolve("merged.json");
        run(a.toString(), "1", "1", "4", "users:read:1:jackson");
        run(b.toString(), "1", "1", "5", "users:read:1:jackson");
        String printed = run("merge", merged.toString(), a.toString(), b.toString());
        assertTrue(printed.startsWith("users read 1 KB, 1 thread, simdbridge / jackson over 2 JVMs: median "), printed);
        ObjectMapper json = new ObjectMapper();
        JsonNode ca = json.readTree(Files.readAllBytes(a)).get("comparisons").get(0);
        JsonNode cb = json.readTree(Files.readAllBytes(b)).get("comparisons").get(0);
        JsonNode doc = json.readTree(Files.readAllBytes(merged));
        assertEquals(9, doc.get("rounds").asInt());
        assertEquals(2, doc.get("forks").asInt());
        JsonNode c = doc.get("comparisons").get(0);
        assertEquals(9, c.get("pairs").asInt());
        JsonNode peer = c.get("peers").get("jackson");
        double[] pooled = new double[9];
        for (int r = 0; r < 9; r++) {
            JsonNode from = r < 4 ? ca : cb;
            pooled[r] = from.get("peers").get("jackson").get("ratios").get(r < 4 ? r : r - 4).asDouble();
            assertEquals(pooled[r], peer.get("ratios").get(r).asDouble(), 1e-12);
        }
        java.util.Arrays.sort(pooled);
        assertEquals(pooled[4], peer.get("median").asDouble(), 1e-12); // the 5th of 9
        assertEquals(pooled[1], peer.get("ci95").get(0).asDouble(), 1e-12); // ranks 2 and 8 for n = 9
        assertEquals(pooled[7], peer.get("ci95").get(1).asDouble(), 1e-12);
        assertEquals(ca.get("peers").get("jackson").get("median").asDouble(), peer.get("fork_medians").get(0).asDouble(), 1e-12);
        assertEquals(cb.get("peers").get("jackson").get("median").asDouble(), peer.get("fork_medians").get(1).asDouble(), 1e-12);
        assertEquals(9, c.get("rates").get("simdbridge").size());
        // Forks that ran something else are not pooled.
        Path other = dir.resolve("other.json");
        run(other.toString(), "1", "1", "4", "users:write:1:jackson");
        assertThrows(IllegalArgumentException.class, () -> run("merge", dir.resolve("x.json").toString(), a.toString(), other.toString()));
    }

    @Test
    void theIntervalOfTheMedianHasTheBinomialRanks() throws Exception {
        Method rank = PairedRatio.class.getDeclaredMethod("medianRank", int.class);
        rank.setAccessible(true);
        // The largest k with P(Binomial(n, 1/2) < k) <= 0.025, worked out independently.
        int[][] expected = {{1, 1}, {5, 1}, {6, 1}, {9, 2}, {10, 2}, {20, 6}, {30, 10}, {60, 22}, {100, 40}};
        for (int[] e : expected) {
            assertEquals(e[1], (int) rank.invoke(null, e[0]), "n = " + e[0]);
        }
        Method summary = PairedRatio.class.getDeclaredMethod("summary", double[].class);
        summary.setAccessible(true);
        double[] ratios = new double[20];
        for (int i = 0; i < 20; i++) {
            ratios[i] = 2.0 - i * 0.05; // 2.00, 1.95, ... 1.05, unsorted on purpose
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> s = (Map<String, Object>) summary.invoke(null, (Object) ratios);
        assertEquals(1.525, (double) s.get("median"), 1e-9);
        assertArrayEquals(new double[] {1.30, 1.75}, (double[]) s.get("ci95"), 1e-9); // the 6th and the 15th
        assertArrayEquals(new double[] {1.2875, 1.7625}, (double[]) s.get("iqr"), 1e-9);
    }

    @Test
    void refusesWhatItDoesNotHave() {
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "users:read:1:none"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "users:write:1:simdjson-java"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "users:parse:1:jackson"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "users:read:1:jackson,jackson"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "users:read:1:simdbridge"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "scenario:read:nothing:jackson"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "scenario:read:simple:fastjson2"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "0", "users:read:1:jackson"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "beans:read:1:jackson:0t"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "beans:read:1:jackson:two"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "beans:write:1:simdbridge-tape"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "beans:read:jjbx:jackson"));
        assertThrows(IllegalArgumentException.class, () -> run("-", "1", "1", "2", "users:read:1:simdbridge-fields"));
    }
}
