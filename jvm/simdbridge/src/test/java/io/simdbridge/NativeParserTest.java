// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every bridge on the checksum contract's vectors, valid and invalid input. */
class NativeParserTest {
    /** docs/checksum.md. */
    static final Map<String, String> VECTORS = ChecksumSpec.VECTORS;

    static String hex(long value) {
        return HexFormat.of().toHexDigits(value);
    }

    /** The checksum through `bridge`: a padded direct buffer or a heap array (padded or not). */
    static long checksum(NativeParser parser, byte[] json, Bridge bridge, boolean padded, boolean stream) {
        if (bridge.direct()) {
            ByteBuffer buffer = PaddedBuffers.copyOf(json);
            return stream ? parser.checksumStream(buffer, bridge) : parser.checksum(buffer, bridge);
        }
        byte[] array = padded ? PaddedBuffers.padded(json) : json;
        return stream ? parser.checksumStream(array, 0, json.length, bridge) : parser.checksum(array, 0, json.length, bridge);
    }

    @ParameterizedTest
    @EnumSource(Bridge.class)
    void specVectors(Bridge bridge) {
        NativeParser parser = NativeParser.forCurrentThread();
        for (var v : VECTORS.entrySet()) {
            byte[] json = v.getKey().getBytes(StandardCharsets.UTF_8);
            for (boolean padded : new boolean[] {true, false}) {
                assertEquals(v.getValue(), hex(checksum(parser, json, bridge, padded, false)), v.getKey() + " " + bridge);
            }
        }
        byte[] stream = ChecksumSpec.STREAM_VECTOR.get(0).getBytes(StandardCharsets.UTF_8);
        assertEquals(ChecksumSpec.STREAM_VECTOR.get(1), hex(checksum(parser, stream, bridge, true, true)));
    }

    @ParameterizedTest
    @EnumSource(Bridge.class)
    void anArrayOffsetAndAByteBufferWindow(Bridge bridge) {
        NativeParser parser = NativeParser.forCurrentThread();
        byte[] framed = "xx{\"a\":1}yy".getBytes(StandardCharsets.UTF_8);
        if (bridge.direct()) {
            ByteBuffer buffer = PaddedBuffers.allocateDirect(framed.length).put(0, framed);
            buffer.position(2).limit(9);
            assertEquals("bec57e3c220bbec4", hex(parser.checksum(buffer, bridge)));
            assertEquals(2, buffer.position()); // the input is not consumed
        } else {
            assertEquals("bec57e3c220bbec4", hex(parser.checksum(framed, 2, 7, bridge)));
            ByteBuffer heap = ByteBuffer.wrap(PaddedBuffers.padded(framed)).position(2).limit(9);
            assertEquals("bec57e3c220bbec4", hex(parser.checksum(heap.slice(), bridge)));
        }
    }

    @ParameterizedTest
    @EnumSource(Bridge.class)
    void malformedAndTruncatedInputThrowWithTheOffset(Bridge bridge) {
        NativeParser parser = NativeParser.forCurrentThread();
        Object[][] cases = {
            {"[1,2,]", ErrorCode.EXPECTED_VALUE, 5L},
            {"{\"a\":1 \"b\":2}", ErrorCode.EXPECTED_COMMA_OR_BRACE, 7L},
            {"{\"a\":[1,2", ErrorCode.UNEXPECTED_END, 9L},
            {"", ErrorCode.EMPTY_INPUT, 0L},
            {"[\"\\x\"]", ErrorCode.INVALID_ESCAPE, 2L},
            {"[1]]", ErrorCode.TRAILING_CONTENT, 3L},
        };
        for (Object[] c : cases) {
            byte[] json = ((String) c[0]).getBytes(StandardCharsets.UTF_8);
            for (boolean padded : new boolean[] {true, false}) {
                JsonException e = assertThrows(JsonException.class, () -> checksum(parser, json, bridge, padded, false));
                assertEquals(c[1], e.code(), (String) c[0]);
                assertEquals(c[2], e.offset(), (String) c[0]);
                assertTrue(e.getMessage().endsWith(" at byte " + c[2]), e.getMessage());
            }
        }
        byte[] invalidUtf8 = {'[', '"', (byte) 0xC3, (byte) 0x28, '"', ']'};
        assertEquals(ErrorCode.INVALID_UTF8,
                assertThrows(JsonException.class, () -> checksum(parser, invalidUtf8, bridge, true, false)).code());
        byte[] utf16 = "[1]".getBytes(StandardCharsets.UTF_16LE);
        assertEquals(ErrorCode.WRONG_ENCODING,
                assertThrows(JsonException.class, () -> checksum(parser, utf16, bridge, true, false)).code());
        byte[] truncatedStream = "{\"a\":1}\n{\"a\":".getBytes(StandardCharsets.UTF_8);
        JsonException e = assertThrows(JsonException.class, () -> checksum(parser, truncatedStream, bridge, true, true));
        assertEquals(ErrorCode.UNEXPECTED_END, e.code());
        assertEquals(truncatedStream.length, e.offset());
    }

    @ParameterizedTest
    @EnumSource(Bridge.class)
    void everyTruncationOfACorpusFileIsAnException(Bridge bridge) throws Exception {
        NativeParser parser = NativeParser.forCurrentThread();
        byte[] json = TestData.read("jsonexamples/twitter.json");
        int end = json.length;
        while (Character.isWhitespace(json[end - 1])) {
            end--;
        }
        for (int k = 1; k < 200; k++) {
            int cut = (int) ((long) end * k / 200);
            byte[] prefix = Arrays.copyOf(json, cut);
            JsonException e = assertThrows(JsonException.class, () -> checksum(parser, prefix, bridge, true, false));
            assertTrue(e.offset() <= cut);
        }
    }

    @Test
    void allBridgesAgreeOnTheCorpus() throws Exception {
        NativeParser parser = NativeParser.forCurrentThread();
        for (Path file : TestData.jsonExamples()) {
            byte[] json = Files.readAllBytes(file);
            long expected = checksum(parser, json, Bridge.JNI_DIRECT, true, false);
            for (Bridge bridge : Bridge.values()) {
                assertEquals(expected, checksum(parser, json, bridge, true, false), file + " " + bridge);
                assertEquals(expected, checksum(parser, json, bridge, false, false), file + " " + bridge);
            }
        }
        byte[] ndjson = TestData.read("ndjson/gharchive-2015-01-01-0.ndjson");
        long expected = checksum(parser, ndjson, Bridge.FFM_DIRECT, true, true);
        for (Bridge bridge : Bridge.values()) {
            assertEquals(expected, checksum(parser, ndjson, bridge, true, true), bridge.toString());
        }
        assertEquals(7702, parser.validateStream(PaddedBuffers.copyOf(ndjson), Bridge.JNI_DIRECT));
    }

    /**
     * simdjson 3.0.1's parse_many copies the rest of its batch for each number at the root, time
     * that grows with the square of the batch (the core leaves parse_many there).
     */
    @ParameterizedTest
    @EnumSource(Bridge.class)
    void aStreamOfSmallNumbersIsReadInLinearTime(Bridge bridge) {
        NativeParser parser = NativeParser.forCurrentThread();
        byte[] json = "7\n-1.5e3\n".repeat(1 << 19).getBytes(StandardCharsets.US_ASCII);
        long start = System.nanoTime();
        long documents = bridge.direct() ? parser.validateStream(PaddedBuffers.copyOf(json), bridge)
                : parser.validateStream(json, 0, json.length, bridge);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(1L << 20, documents);
        assertTrue(seconds < 10, seconds + " s");
    }

    @Test
    void depthLimitAndVersions() {
        try (NativeParser shallow = new NativeParser(2)) {
            shallow.validate(PaddedBuffers.padded("[[1]]".getBytes()), 0, 5, Bridge.FFM_HEAP);
            JsonException e = assertThrows(JsonException.class,
                    () -> shallow.validate(PaddedBuffers.padded("[[[1]]]".getBytes()), 0, 7, Bridge.FFM_HEAP));
            assertEquals(ErrorCode.DEPTH_LIMIT, e.code());
            assertEquals(2, e.offset());
        }
        assertEquals("0.1.0", NativeParser.version());
        assertEquals("3.0.1", NativeParser.simdjsonVersion());
        assertTrue(!NativeParser.simdImplementation().isEmpty());
        NativeParser.noopJni();
        NativeParser.noopFfm(false);
        NativeParser.noopFfm(true);
    }
}
