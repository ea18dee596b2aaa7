// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Every misuse is a clear exception before anything crosses, never a crash of the JVM. */
class MisuseTest {
    private final NativeParser parser = new NativeParser();
    private final byte[] json = PaddedBuffers.padded("{\"a\":1}".getBytes(StandardCharsets.UTF_8));

    @Test
    void aHeapBufferHandedToADirectBridge() {
        ByteBuffer heap = ByteBuffer.wrap(json).limit(7);
        for (Bridge bridge : new Bridge[] {Bridge.JNI_DIRECT, Bridge.FFM_DIRECT}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parser.checksum(heap, bridge));
            assertTrue(e.getMessage().contains("heap"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> parser.checksum(json, 0, 7, Bridge.JNI_DIRECT));
    }

    @Test
    void aDirectBufferHandedToAHeapBridge() {
        ByteBuffer direct = PaddedBuffers.allocateDirect(7).put(0, json, 0, 7);
        for (Bridge bridge : new Bridge[] {Bridge.JNI_COPY, Bridge.JNI_CRITICAL, Bridge.FFM_HEAP}) {
            assertThrows(IllegalArgumentException.class, () -> parser.checksum(direct, bridge));
        }
    }

    @Test
    void aDirectBufferWithoutPadding() {
        ByteBuffer tight = ByteBuffer.allocateDirect(7).put(0, json, 0, 7);
        for (Bridge bridge : new Bridge[] {Bridge.JNI_DIRECT, Bridge.FFM_DIRECT}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parser.checksum(tight, bridge));
            assertTrue(e.getMessage().contains("padding"), e.getMessage());
        }
        ByteBuffer almost = ByteBuffer.allocateDirect(7 + 63).put(0, json, 0, 7).limit(7);
        assertThrows(IllegalArgumentException.class, () -> parser.checksum(almost, Bridge.JNI_DIRECT));
    }

    @Test
    void badOffsetsAndLengths() {
        for (Bridge bridge : new Bridge[] {Bridge.JNI_COPY, Bridge.JNI_CRITICAL, Bridge.FFM_HEAP}) {
            assertThrows(IndexOutOfBoundsException.class, () -> parser.checksum(json, -1, 7, bridge));
            assertThrows(IndexOutOfBoundsException.class, () -> parser.checksum(json, 0, -7, bridge));
            assertThrows(IndexOutOfBoundsException.class, () -> parser.checksum(json, 0, json.length + 1, bridge));
            assertThrows(IndexOutOfBoundsException.class, () -> parser.checksum(json, json.length, 1, bridge));
            assertThrows(IndexOutOfBoundsException.class, () -> parser.checksum(json, Integer.MAX_VALUE, Integer.MAX_VALUE, bridge));
            assertThrows(NullPointerException.class, () -> parser.checksum(null, 0, 0, bridge));
        }
        assertThrows(NullPointerException.class, () -> parser.checksum((ByteBuffer) null, Bridge.JNI_DIRECT));
        assertThrows(NullPointerException.class, () -> parser.checksum(json, 0, 7, null));
    }

    @Test
    void readOnlyBuffers() {
        // A read-only direct buffer is read (nothing is written to the input) ...
        ByteBuffer direct = PaddedBuffers.allocateDirect(7).put(0, json, 0, 7).asReadOnlyBuffer();
        assertEquals(parser.checksum(json, 0, 7, Bridge.FFM_HEAP), parser.checksum(direct, Bridge.FFM_DIRECT));
        assertEquals(parser.checksum(json, 0, 7, Bridge.FFM_HEAP), parser.checksum(direct, Bridge.JNI_DIRECT));
        // ... a read-only heap buffer hides its array, and extraction refuses read-only outputs.
        ByteBuffer heap = ByteBuffer.wrap(json, 0, 7).asReadOnlyBuffer();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parser.checksum(heap, Bridge.FFM_HEAP));
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        ByteBuffer[] values = {ByteBuffer.allocateDirect(64).asReadOnlyBuffer()};
        ByteBuffer[] validity = {ByteBuffer.allocateDirect(8)};
        assertThrows(IllegalArgumentException.class, () -> new ColumnBatch(List.of(ColumnSpec.int64("/a")), 8, values,
                validity, new ByteBuffer[] {null}));
    }

    @Test
    void columnBuffersTooSmallOrOnTheHeap() {
        List<ColumnSpec> specs = List.of(ColumnSpec.int64("/a"));
        assertThrows(IllegalArgumentException.class, () -> new ColumnBatch(specs, 100,
                new ByteBuffer[] {ByteBuffer.allocateDirect(799)}, new ByteBuffer[] {ByteBuffer.allocateDirect(13)},
                new ByteBuffer[] {null}));
        assertThrows(IllegalArgumentException.class, () -> new ColumnBatch(specs, 100,
                new ByteBuffer[] {ByteBuffer.allocateDirect(800)}, new ByteBuffer[] {ByteBuffer.allocateDirect(12)},
                new ByteBuffer[] {null}));
        assertThrows(IllegalArgumentException.class, () -> new ColumnBatch(specs, 100,
                new ByteBuffer[] {ByteBuffer.allocate(800)}, new ByteBuffer[] {ByteBuffer.allocateDirect(13)},
                new ByteBuffer[] {null}));
        assertThrows(IllegalArgumentException.class, () -> new ColumnBatch(specs, 100,
                new ByteBuffer[] {ByteBuffer.allocateDirect(800)}, new ByteBuffer[] {ByteBuffer.allocateDirect(13)},
                new ByteBuffer[] {ByteBuffer.allocateDirect(10)}));
        List<ColumnSpec> strings = List.of(ColumnSpec.string("/s"));
        assertThrows(IllegalArgumentException.class, () -> new ColumnBatch(strings, 100,
                new ByteBuffer[] {ByteBuffer.allocateDirect(403)}, new ByteBuffer[] {ByteBuffer.allocateDirect(13)},
                new ByteBuffer[] {ByteBuffer.allocateDirect(10)}));
        ColumnBatch batch = ColumnBatch.allocate(specs, 4, 0);
        assertThrows(IndexOutOfBoundsException.class, () -> batch.getLong(0, 0)); // no rows yet
        assertThrows(IllegalArgumentException.class, () -> batch.getString(0, 0));
        assertThrows(IllegalArgumentException.class, () -> parser.extract(ByteBuffer.allocate(10), batch, Bridge.JNI_DIRECT));
        assertThrows(IllegalArgumentException.class,
                () -> parser.extract(PaddedBuffers.allocateDirect(2), batch, Bridge.FFM_HEAP));
    }

    @Test
    void aClosedParser() {
        NativeParser p = new NativeParser();
        p.close();
        p.close(); // idempotent
        assertThrows(IllegalStateException.class, () -> p.checksum(json, 0, 7, Bridge.FFM_HEAP));
        assertThrows(IllegalStateException.class, () -> p.checksum(json, 0, 7, Bridge.JNI_CRITICAL));
    }

    @Test
    void aParserUsedFromAnotherThread() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                parser.checksum(json, 0, 7, Bridge.JNI_COPY);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        other.start();
        other.join();
        assertTrue(thrown.get() instanceof IllegalStateException, String.valueOf(thrown.get()));
    }

    @Test
    void negativeDepth() {
        assertThrows(IllegalArgumentException.class, () -> new NativeParser(-1));
    }
}
