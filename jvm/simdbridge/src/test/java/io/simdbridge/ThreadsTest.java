// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Many threads at once, each on its own parser, every bridge: the same answers. */
class ThreadsTest {
    @Test
    void sixteenThreadsEveryBridge() throws Exception {
        byte[] json = TestData.read("jsonexamples/twitter.json");
        byte[] padded = PaddedBuffers.padded(json);
        ByteBuffer direct = PaddedBuffers.copyOf(json);
        long expected = new NativeParser().checksum(padded, 0, json.length, Bridge.FFM_HEAP);
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<Long>> results = new ArrayList<>();
            for (int t = 0; t < 64; t++) {
                Bridge bridge = Bridge.values()[t % Bridge.values().length];
                results.add(pool.submit(() -> {
                    NativeParser parser = NativeParser.forCurrentThread();
                    long last = 0;
                    for (int i = 0; i < 20; i++) {
                        last = bridge.direct() ? parser.checksum(direct.duplicate(), bridge)
                                : parser.checksum(padded, 0, json.length, bridge);
                    }
                    return last;
                }));
            }
            for (Future<Long> r : results) {
                assertEquals(expected, r.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
