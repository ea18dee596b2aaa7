// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import io.simdbridge.internal.SharedPool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.simdbridge.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * SharedPool, NativeParser.acquire()/release(), and what they are for: threads made per task
 * (virtual threads) reuse parsers instead of making one each.
 */
class SharedPoolTest {
    @Test
    void takesWhatWasGivenOnceAndHoldsNoMoreThanItsSlots() {
        SharedPool<Object> pool = new SharedPool<>(3);
        assertNull(pool.take());
        Object a = new Object(), b = new Object(), c = new Object(), d = new Object();
        assertTrue(pool.give(a));
        assertTrue(pool.give(b));
        assertTrue(pool.give(c));
        assertFalse(pool.give(d)); // full
        Set<Object> taken = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            assertTrue(taken.add(pool.take()));
        }
        assertEquals(Set.of(a, b, c), taken);
        assertNull(pool.take());
        assertThrows(NullPointerException.class, () -> pool.give(null));
        assertThrows(IllegalArgumentException.class, () -> new SharedPool<>(0));
    }

    /** Never one thing in two threads' hands at once, whatever the interleaving. */
    @Test
    void noTwoThreadsHoldTheSameThing() throws Exception {
        SharedPool<AtomicBoolean> pool = new SharedPool<>(4);
        AtomicInteger made = new AtomicInteger();
        AtomicInteger clashes = new AtomicInteger();
        // Platform threads: preempted anywhere, so that a take that was not atomic would be seen.
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 20000; i++) {
                        AtomicBoolean held = pool.take();
                        if (held == null) {
                            held = new AtomicBoolean();
                            made.incrementAndGet();
                        }
                        if (!held.compareAndSet(false, true)) {
                            clashes.incrementAndGet();
                        }
                        if (i % 7 == 0) {
                            Thread.yield(); // let another task run while this one holds it
                        }
                        held.set(false);
                        pool.give(held);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        assertEquals(0, clashes.get());
        assertTrue(made.get() >= 1);
    }

    @Test
    void anAcquiredParserIsThisThreadsUntilReleased() throws Exception {
        byte[] json = "{\"a\":[1,2,3]}".getBytes(StandardCharsets.UTF_8);
        NativeParser p = NativeParser.acquire();
        long expected = p.checksum(json);
        // Another thread may not use it while this one holds it.
        Thread other = Thread.ofPlatform().start(() -> assertThrows(IllegalStateException.class, () -> p.checksum(json)));
        other.join();
        p.release();
        // Released: this thread may not use it either, nor give it back twice.
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.checksum(json));
        assertTrue(e.getMessage().contains("released"), e.getMessage());
        assertThrows(IllegalStateException.class, p::release);
        // Acquired on another thread (the pool hands back what was released): it works there, and
        // the thread that held it before still may not use it.
        NativeParser[] next = new NativeParser[1];
        long[] sum = new long[1];
        Thread taker = Thread.ofPlatform().start(() -> {
            next[0] = NativeParser.acquire();
            sum[0] = next[0].checksum(json);
        });
        taker.join();
        assertEquals(expected, sum[0]);
        assertThrows(IllegalStateException.class, () -> next[0].checksum(json));
        // A thread's own parser is not the pool's to take.
        assertThrows(IllegalStateException.class, () -> NativeParser.forCurrentThread().release());
        // Closed by its user while acquired: release() lets it go, and acquire() never returns it.
        NativeParser closed = NativeParser.acquire();
        closed.close();
        closed.release();
        for (int i = 0; i < 20; i++) {
            NativeParser q = NativeParser.acquire();
            assertFalse(q == closed);
            assertEquals(expected, q.checksum(json));
            q.release();
        }
    }

    @Test
    void theSameParserComesBackOnOneThread() {
        NativeParser a = NativeParser.acquire();
        a.release();
        NativeParser b = NativeParser.acquire();
        try {
            assertSame(a, b); // this thread looks first where it gave it back
        } finally {
            b.release();
        }
    }

    /**
     * The mapper on a virtual thread per read: parsers come from the pool, not one per thread.
     * With a parser per thread, 3000 reads made 3000 parsers.
     */
    @Test
    void theMapperMakesNoParserPerVirtualThread() throws Exception {
        Map<String, Object> doc = Map.of("name", "x", "values", List.of(1L, 2L, 3L));
        byte[] json = Json.write(doc);
        long before = NativeParser.MADE.get();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Object>> reads = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                reads.add(threads.submit(() -> Json.read(json, Object.class)));
            }
            for (Future<Object> f : reads) {
                assertEquals(doc, f.get());
            }
        }
        long made = NativeParser.MADE.get() - before;
        assertTrue(made <= 64, made + " parsers made for 3000 reads");
    }
}
