// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.simdbridge.json.Json;
import io.simdbridge.json.JsonBindException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * An array without the padding slack is copied before it is parsed (see NativeParser's rule on
 * bytes read in place): another thread writing into it during the calls gives wrong results or
 * exceptions, never a crash of the JVM. A stress check, not a proof: read in place (with the
 * slack), a writer like this one crashed the JVM in checksum or validate in about half of the
 * 2-second runs tried outside the suite, and in none of four runs of this test so changed.
 */
class RacingWriterTest {
    @Test
    void aThreadWritingIntoAnArrayThatIsCopiedFirst() throws Exception {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < 400; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"name\":\"abcdefghijklmnopqrstuvwxyz").append(i)
                    .append("\",\"v\":[1,2.5,\"x\\\"y\"],\"t\":true}");
        }
        byte[] doc = sb.append(']').toString().getBytes(StandardCharsets.UTF_8);
        byte[] shared = doc.clone(); // no slack past the document: every call copies it first
        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            Random random = new Random(20261201);
            byte[] bytes = "\"\\{}[],:0a \u0000".getBytes(StandardCharsets.UTF_8);
            while (!stop.get()) {
                int at = random.nextInt(shared.length);
                shared[at] = bytes[random.nextInt(bytes.length)];
                for (int k = 0; k < 200; k++) {
                    Thread.onSpinWait();
                }
                shared[at] = doc[at];
            }
        });
        writer.setDaemon(true);
        writer.start();
        NativeParser parser = NativeParser.forCurrentThread();
        long calls = 0, failures = 0;
        try {
            for (int path = 0; path < 4; path++) {
                long end = System.nanoTime() + 1_000_000_000L;
                while (System.nanoTime() < end) {
                    try {
                        switch (path) {
                            case 0 -> parser.checksum(shared, 0, shared.length, Bridge.FFM_HEAP);
                            case 1 -> parser.checksum(shared, 0, shared.length, Bridge.JNI_CRITICAL);
                            case 2 -> parser.validate(shared, 0, shared.length, Bridge.FFM_HEAP);
                            default -> Json.read(shared, Object.class);
                        }
                    } catch (JsonException | JsonBindException e) {
                        failures++;
                    }
                    calls++;
                }
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        assertTrue(calls > 1000 && failures > 0 && failures < calls, calls + " calls, " + failures + " failed");
    }
}
