// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Direct buffers from an Arena: a closed arena's buffer killed the JVM with SIGSEGV in every
 * direct-buffer call (only isDirect() and the capacity were checked). Each call must now throw,
 * on both bridges, and a shared arena's buffer must stay open for the whole call.
 */
class ArenaTest {
    private static final byte[] NDJSON = "{\"a\":1}\n{\"a\":2}\n".getBytes(StandardCharsets.UTF_8);
    private final NativeParser parser = new NativeParser();

    private static ByteBuffer padded(Arena arena) {
        ByteBuffer b = arena.allocate(NDJSON.length + PaddedBuffers.PADDING).asByteBuffer();
        b.put(0, NDJSON).limit(NDJSON.length);
        return b;
    }

    /** Every call that reads a direct buffer, on one bridge. */
    private List<Consumer<ByteBuffer>> calls(Bridge bridge) {
        ColumnBatch columns = ColumnBatch.allocate(List.of(ColumnSpec.int64("/a")), 8, 64);
        List<Consumer<ByteBuffer>> calls = new ArrayList<>();
        calls.add(b -> parser.checksumStream(b, bridge));
        calls.add(b -> parser.validateStream(b, bridge));
        calls.add(b -> parser.checksum(b.duplicate().limit(7), bridge));
        calls.add(b -> parser.validate(b.duplicate().limit(7), bridge));
        calls.add(b -> parser.parseDocument(b.duplicate().limit(7), bridge));
        calls.add(b -> parser.extract(b.duplicate(), columns, bridge));
        calls.add(b -> parser.bindingTape(b.duplicate().limit(7), new long[64], new byte[64]));
        return calls;
    }

    @Test
    void aClosedArenasBufferIsAnExceptionOnEveryCall() {
        for (Bridge bridge : new Bridge[] {Bridge.JNI_DIRECT, Bridge.FFM_DIRECT}) {
            for (Arena arena : new Arena[] {Arena.ofShared(), Arena.ofConfined()}) {
                ByteBuffer b = padded(arena);
                arena.close();
                for (Consumer<ByteBuffer> call : calls(bridge)) {
                    IllegalStateException e = assertThrows(IllegalStateException.class, () -> call.accept(b));
                    assertTrue(e.getMessage().contains("closed"), e.getMessage());
                }
            }
        }
    }

    @Test
    void aConfinedArenasBufferFromAnotherThreadIsAnException() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            ByteBuffer b = padded(arena);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread t = Thread.ofPlatform().start(() -> {
                NativeParser own = new NativeParser();
                for (Bridge bridge : new Bridge[] {Bridge.JNI_DIRECT, Bridge.FFM_DIRECT}) {
                    try {
                        own.checksumStream(b, bridge);
                        failure.set(new AssertionError("read another thread's confined memory"));
                    } catch (WrongThreadException expected) {
                        // as it should
                    } catch (Throwable other) {
                        failure.set(other);
                    }
                }
            });
            t.join();
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals(parser.checksumStream(b, Bridge.JNI_DIRECT), parser.checksumStream(b, Bridge.FFM_DIRECT));
        }
    }

    @Test
    void everyKindOfArenaReadsTheSameOnBothBridges() {
        long expected = parser.checksumStream(PaddedBuffers.copyOf(NDJSON), Bridge.FFM_DIRECT);
        for (Arena arena : new Arena[] {Arena.ofShared(), Arena.ofConfined(), Arena.ofAuto(), Arena.global()}) {
            ByteBuffer b = padded(arena);
            for (Bridge bridge : new Bridge[] {Bridge.JNI_DIRECT, Bridge.FFM_DIRECT}) {
                assertEquals(expected, parser.checksumStream(b, bridge), arena + " " + bridge);
                assertEquals(2, parser.validateStream(b, bridge));
                parser.parseDocument(b.duplicate().limit(7), bridge);
                assertEquals(1, parser.getLong(JsonPointer.of("/a"), -1));
            }
            assertTrue(parser.bindingTape(b.duplicate().limit(7), new long[64], new byte[64]));
        }
        assertTrue(DirectMemory.safeByAddress(DirectMemory.live(ByteBuffer.allocateDirect(8))));
        assertFalse(DirectMemory.safeByAddress(DirectMemory.live(Arena.ofShared().allocate(8).asByteBuffer())));
    }

    /** The linker holds a shared arena during the call: closing it from another thread fails there. */
    @Test
    void aSharedArenaStaysOpenWhileACallReadsIt() throws Exception {
        StringBuilder big = new StringBuilder();
        while (big.length() < (8 << 20)) {
            big.append("{\"id\":12345,\"name\":\"abcdefghijklmnop\",\"tags\":[1,2,3,4]}\n");
        }
        byte[] bytes = big.toString().getBytes(StandardCharsets.UTF_8);
        Arena arena = Arena.ofShared();
        ByteBuffer b = arena.allocate(bytes.length + PaddedBuffers.PADDING).asByteBuffer();
        b.put(0, bytes).limit(bytes.length);
        long expected = parser.checksumStream(PaddedBuffers.copyOf(bytes), Bridge.FFM_DIRECT);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Thread closer = Thread.ofPlatform().start(() -> {
            started.countDown();
            while (!stop.get()) {
                try {
                    arena.close();
                    return; // closed between two calls: the next call must throw
                } catch (IllegalStateException inUse) {
                    Thread.onSpinWait(); // held by a call: as it should be
                }
            }
        });
        started.await();
        int calls = 0;
        try {
            for (; calls < 200; calls++) {
                assertEquals(expected, parser.checksumStream(b, calls % 2 == 0 ? Bridge.JNI_DIRECT : Bridge.FFM_DIRECT));
            }
        } catch (IllegalStateException closed) {
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        } finally {
            stop.set(true);
            closer.join();
        }
        assertFalse(arena.scope().isAlive(), "the closer never found the arena free between calls");
    }

    @Test
    void aColumnBatchRefusesASharedArenasBuffersAndChecksItsOwnBeforeEachCall() {
        ByteBuffer[] shared = {Arena.ofShared().allocate(64).asByteBuffer()};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ColumnBatch(
                List.of(ColumnSpec.int64("/a")), 8, shared, new ByteBuffer[] {ByteBuffer.allocateDirect(1)},
                new ByteBuffer[] {null}));
        assertTrue(e.getMessage().contains("shared Arena"), e.getMessage());
        Arena confined = Arena.ofConfined();
        ColumnBatch columns = new ColumnBatch(List.of(ColumnSpec.int64("/a")), 8,
                new ByteBuffer[] {confined.allocate(64).asByteBuffer()}, new ByteBuffer[] {ByteBuffer.allocateDirect(1)},
                new ByteBuffer[] {null});
        assertEquals(2, parser.extract(PaddedBuffers.copyOf(NDJSON), columns, Bridge.JNI_DIRECT));
        confined.close();
        for (Bridge bridge : new Bridge[] {Bridge.JNI_DIRECT, Bridge.FFM_DIRECT}) {
            assertThrows(IllegalStateException.class, () -> parser.extract(PaddedBuffers.copyOf(NDJSON), columns, bridge));
        }
    }
}
