// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One mapper shared by many threads (platform and virtual), reading and writing at once. */
class SharedMapperTest {
    record Item(int id, String name, List<Double> values) {}

    record Bag(String owner, List<Item> items) {}

    static Bag bag(int seed) {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            items.add(new Item(seed * 100 + i, "item-" + seed + "-" + i + "-\u00e9\u4e2d", List.of(i * 0.5, -i * 1.25)));
        }
        return new Bag("owner-" + seed, items);
    }

    @Test
    void manyThreadsOneMapper() throws Exception {
        JsonMapper mapper = JsonMapper.builder().build();
        for (ExecutorService pool : List.of(Executors.newFixedThreadPool(8), Executors.newVirtualThreadPerTaskExecutor())) {
            try (pool) {
                List<Future<?>> results = new ArrayList<>();
                for (int t = 0; t < 32; t++) {
                    int seed = t;
                    results.add(pool.submit(() -> {
                        for (int i = 0; i < 300; i++) {
                            Bag b = bag(seed + i);
                            byte[] json = mapper.write(b);
                            assertEquals(b, mapper.read(json, Bag.class));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : results) {
                    f.get();
                }
            }
        }
    }

    /**
     * A virtual thread per task, as a server runs its requests: contexts and parsers shared
     * through the pools, given back after every call, also one that failed, and a read nested
     * in another on the same virtual thread.
     */
    @Test
    void aVirtualThreadPerCall() throws Exception {
        JsonMapper mapper = JsonMapper.builder().build();
        String nested = new String(Json.write(new Outer("o", new Inner("x"))), java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"x\"", new String(Json.write(new String(Json.write(bag(3)), java.nio.charset.StandardCharsets.UTF_8)),
                        java.nio.charset.StandardCharsets.UTF_8));
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> results = new ArrayList<>();
            for (int t = 0; t < 3000; t++) {
                int seed = t;
                results.add(pool.submit(() -> {
                    switch (seed % 3) {
                        case 0 -> {
                            Bag b = bag(seed);
                            assertEquals(b, mapper.read(mapper.write(b), Bag.class));
                        }
                        case 1 -> {
                            byte[] bad = ("{\"owner\": \"x\", \"items\": [" + seed + "]}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
                            JsonBindException e = assertThrows(JsonBindException.class, () -> mapper.read(bad, Bag.class));
                            assertEquals(25, e.offset(), e.getMessage());
                        }
                        default -> assertEquals("owner-3", mapper.read(nested, Outer.class).inner().payload());
                    }
                    return null;
                }));
            }
            for (Future<?> f : results) {
                f.get();
            }
        }
    }

    /** A read inside a read on the same thread (a constructor that reads JSON) gets its own tape. */
    record Outer(String name, Inner inner) {}

    record Inner(String payload) {
        Inner {
            if (payload != null && payload.startsWith("{")) {
                Bag nested = Json.read(payload, Bag.class);
                payload = nested.owner();
            }
        }
    }

    @Test
    void nestedReadsOnOneThread() {
        String payload = new String(Json.write(bag(1)), java.nio.charset.StandardCharsets.UTF_8);
        String doc = new String(Json.write(new Outer("o", new Inner("x"))), java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"x\"", new String(Json.write(payload), java.nio.charset.StandardCharsets.UTF_8));
        Outer o = Json.read(doc, Outer.class);
        assertEquals("o", o.name());
        assertEquals("owner-1", o.inner().payload());
    }
}
