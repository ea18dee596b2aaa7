// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * MsgPack: the core's encodings through FFM, streams on several threads, and bad input in both
 * directions as a JsonException with its offset (and document).
 */
class MsgPackTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.replace(" ", ""));
    }

    @Test
    void bothWays() {
        byte[] packed = MsgPack.fromJson(utf8("{\"a\":[1,2.5,\"x\",true,null],\"b\":{\"c\":-1}}"));
        assertArrayEquals(hex("82a16195 01 cb4004000000000000 a178c3c0 a16281a163ff"), packed);
        assertEquals("{\"a\":[1,2.5,\"x\",true,null],\"b\":{\"c\":-1}}",
                new String(MsgPack.toJson(packed), StandardCharsets.UTF_8));
        ByteBuffer direct = ByteBuffer.allocateDirect(packed.length + 3).position(3);
        direct.put(packed).position(3);
        assertArrayEquals(MsgPack.toJson(packed), MsgPack.toJson(direct, MsgPack.Options.DEFAULT));
        assertEquals(3, direct.position());
        // Floats as repr writes them, bin as base64, keys that are not strings as their text.
        assertEquals("[1e-05,1e+16,null,\"AQID\"]", new String(MsgPack.toJson(
                hex("94 cb3ee4f8b588e368f1 cb4341c37937e08000 cb7ff8000000000000 c403010203")), StandardCharsets.UTF_8));
        assertEquals("{\"1\":true}", new String(MsgPack.toJson(hex("81 01 c3")), StandardCharsets.UTF_8));
    }

    @Test
    void outputLargerThanTheFirstGuess() {
        // Each 1-byte control character becomes a 6-byte escape: past twice the input's size.
        byte[] packed = new byte[1 + 2 + 1000];
        packed[0] = (byte) 0xda;
        packed[1] = 0x03;
        packed[2] = (byte) 0xe8;
        byte[] json = MsgPack.toJson(packed);
        assertEquals(2 + 6000, json.length);
    }

    @Test
    void streamsGiveTheSameBytesOnAnyNumberOfThreads() {
        StringBuilder ndjson = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            ndjson.append("{\"i\":").append(i).append(",\"s\":\"").append("y".repeat(i % 30)).append("\"}\n");
        }
        byte[] input = utf8(ndjson.toString());
        MsgPack.Options stream = MsgPack.Options.DEFAULT.withStream(true).withBlockSize(1000);
        byte[] one = MsgPack.fromJson(input, stream);
        assertArrayEquals(one, MsgPack.fromJson(input, stream.withThreads(3)));
        assertArrayEquals(input, MsgPack.toJson(one, stream.withThreads(2)));
    }

    @Test
    void badInputIsAJsonExceptionWithItsOffset() {
        JsonException e = assertThrows(JsonException.class, () -> MsgPack.fromJson(utf8("{\"a\":}")));
        assertEquals(ErrorCode.EXPECTED_VALUE, e.code());
        assertEquals(5, e.offset());
        e = assertThrows(JsonException.class, () -> MsgPack.fromJson(utf8("{\"a\":1}\n{\"a\":}\n"),
                MsgPack.Options.DEFAULT.withStream(true)));
        assertEquals(2, e.record());
        assertEquals(13, e.offset());
        e = assertThrows(JsonException.class, () -> MsgPack.toJson(hex("ddffffffff")));
        assertEquals(ErrorCode.MSGPACK_TRUNCATED, e.code());
        assertEquals(0, e.offset());
        e = assertThrows(JsonException.class, () -> MsgPack.toJson(hex("9201c1")));
        assertEquals(ErrorCode.MSGPACK_INVALID, e.code());
        assertEquals(2, e.offset());
        e = assertThrows(JsonException.class, () -> MsgPack.toJson(hex("d6ff00000001")));
        assertEquals(ErrorCode.MSGPACK_UNSUPPORTED, e.code());
        assertEquals("null", new String(MsgPack.toJson(hex("d6ff00000001"), MsgPack.Options.DEFAULT.withExtAsNull(true)),
                StandardCharsets.UTF_8));
        byte[] deep = new byte[5000];
        java.util.Arrays.fill(deep, (byte) 0x91);
        deep[deep.length - 1] = 0;
        e = assertThrows(JsonException.class, () -> MsgPack.toJson(deep));
        assertEquals(ErrorCode.DEPTH_LIMIT, e.code());
        assertThrows(IllegalArgumentException.class, () -> MsgPack.Options.DEFAULT.withThreads(0));
    }

    @Test
    void toJsonKeepsTheLimitsAsFromJsonDoes() {
        // toJson took only the limits' depth: a document length limit held in fromJson (and in
        // Python's msgpack_to_json) but not here. It now limits each MessagePack value's bytes.
        byte[] longString = new byte[3 + 200];
        longString[0] = (byte) 0xda; // str 16 of 200 bytes
        longString[2] = (byte) 200;
        java.util.Arrays.fill(longString, 3, longString.length, (byte) 'x');
        MsgPack.Options limited = MsgPack.Options.DEFAULT.withLimits(JsonLimits.DEFAULT.withMaxDocumentLength(100));
        JsonException e = assertThrows(JsonException.class, () -> MsgPack.toJson(longString, limited));
        assertEquals(ErrorCode.DOCUMENT_TOO_LONG, e.code());
        assertEquals(100, e.offset());
        e = assertThrows(JsonException.class, () -> MsgPack.fromJson(MsgPack.toJson(longString), limited));
        assertEquals(ErrorCode.DOCUMENT_TOO_LONG, e.code());
        assertEquals(202, MsgPack.toJson(longString, MsgPack.Options.DEFAULT.withLimits(
                JsonLimits.DEFAULT.withMaxDocumentLength(203))).length);
        // In a stream, each value on its own: two short values pass where their sum would not.
        byte[] two = hex("a3616263a3646566");
        MsgPack.Options stream = limited.withStream(true).withLimits(JsonLimits.DEFAULT.withMaxDocumentLength(4));
        assertEquals("\"abc\"\n\"def\"\n", new String(MsgPack.toJson(two, stream), StandardCharsets.UTF_8));
        byte[] nested = hex("91919191c0");
        e = assertThrows(JsonException.class, () -> MsgPack.toJson(nested, MsgPack.Options.DEFAULT.withLimits(
                JsonLimits.DEFAULT.withMaxDepth(3))));
        assertEquals(ErrorCode.DEPTH_LIMIT, e.code());
    }

    /**
     * A conversion takes a parser from the pool, with the native input and output it kept from
     * the call before, and gives it back with its limits as they were. What the kept input holds
     * past a shorter document is never read as part of it.
     */
    @Test
    void conversionsReuseAPooledParserAndWhatItKept() {
        StringBuilder items = new StringBuilder("[0");
        for (int i = 1; i < 2000; i++) {
            items.append(',').append(i);
        }
        byte[] longDoc = utf8(items.append(']').toString());
        byte[] packed = MsgPack.fromJson(longDoc);
        long before = NativeParser.MADE.get();
        for (int i = 0; i < 200; i++) {
            assertArrayEquals(packed, MsgPack.fromJson(longDoc));
            assertArrayEquals(longDoc, MsgPack.toJson(packed));
        }
        long made = NativeParser.MADE.get() - before;
        assertTrue(made <= 1, made + " parsers made for 400 conversions");
        // The kept input still holds the long document's bytes after these.
        assertArrayEquals(hex("01"), MsgPack.fromJson(utf8("1")));
        assertArrayEquals(hex("9300 01 02"), MsgPack.fromJson(utf8("[0,1,2]")));
        JsonException e = assertThrows(JsonException.class, () -> MsgPack.fromJson(utf8("[0,1,2")));
        assertEquals(6, e.offset());
        e = assertThrows(JsonException.class, () -> MsgPack.toJson(hex("dc0010 00 01")));
        assertEquals(ErrorCode.MSGPACK_TRUNCATED, e.code());
        // Limits for one call only: the next call with the defaults reads deeper.
        byte[] nested = hex("91919191c0");
        assertThrows(JsonException.class, () -> MsgPack.toJson(nested, MsgPack.Options.DEFAULT.withLimits(
                JsonLimits.DEFAULT.withMaxDepth(3))));
        assertEquals("[[[[null]]]]", new String(MsgPack.toJson(nested), StandardCharsets.UTF_8));
    }

    @Test
    void keptMemoryGrowsByDoublingUpToItsBoundAndIsFreedWithTheParser() {
        KeptMemory kept = new KeptMemory();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment first = kept.atLeast(KeptMemory.OUTPUT, 1000, call);
            assertEquals(1000, first.byteSize());
            assertSame(first, kept.atLeast(KeptMemory.OUTPUT, 10, call));
            MemorySegment grown = kept.atLeast(KeptMemory.OUTPUT, 1001, call);
            assertEquals(2000, grown.byteSize());
            assertFalse(first.scope().isAlive(), "the smaller buffer is freed when it grows");
            long most = KeptMemory.KEPT_AT_MOST;
            assertEquals(most - 1, kept.atLeast(KeptMemory.OUTPUT, most - 1, call).byteSize());
            // Past the bound the call's own memory, freed with it; what is kept stays as it was.
            MemorySegment large = kept.atLeast(KeptMemory.INPUT, most + 1, call);
            assertEquals(call.allocate(1).scope(), large.scope());
            assertEquals(most - 1, kept.keptBytes());
            kept.free();
            assertEquals(0, kept.keptBytes());
        }
        NativeParser parser = new NativeParser();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment input = parser.keptMemory().atLeast(KeptMemory.INPUT, 64, call);
            parser.trim();
            assertFalse(input.scope().isAlive(), "trim() frees what a parser kept");
            input = parser.keptMemory().atLeast(KeptMemory.INPUT, 64, call);
            parser.close();
            assertFalse(input.scope().isAlive(), "close() frees what a parser kept");
        }
    }

    /**
     * Conversions on many threads at once, each of its own documents of varying sizes (so that
     * the kept buffers grow, shrink back into use and move between threads with their parsers):
     * every result is that thread's own.
     */
    @Test
    void conversionsOnManyThreadsAtOnceEachGetTheirOwnBytes() throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 150; i++) {
                        int n = (thread * 7919 + i * 131) % 700;
                        StringBuilder doc = new StringBuilder("[").append(thread);
                        for (int k = 0; k < n; k++) {
                            doc.append(',').append(thread * 1000 + k);
                        }
                        byte[] json = utf8(doc.append(']').toString());
                        byte[] packed = MsgPack.fromJson(json);
                        assertArrayEquals(json, MsgPack.toJson(packed), "thread " + thread + ", call " + i);
                        Thread.yield();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }
}
