// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.simdbridge.bench.databind.PairedRatio;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The paired measurement runs both ways and names what it measured; it refuses what it lacks. */
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
    void readsAndWritesInPairs() throws Exception {
        String read = run("read", "1", "jackson", "1", "4");
        assertTrue(read.startsWith("Users read 1 KB, simdbridge / jackson: median "), read);
        assertTrue(read.contains("(4 pairs of 1 ms slices)"), read);
        String write = run("write", "1", "fastjson2", "1", "3");
        assertTrue(write.startsWith("Users write 1 KB, simdbridge / fastjson2: median "), write);
    }

    @Test
    void refusesWhatItDoesNotHave() {
        assertThrows(IllegalArgumentException.class, () -> run("read", "1", "none", "1", "2"));
        assertThrows(IllegalArgumentException.class, () -> run("write", "1", "simdjson-java", "1", "2"));
        assertThrows(IllegalArgumentException.class, () -> run("parse", "1", "jackson", "1", "2"));
    }
}
