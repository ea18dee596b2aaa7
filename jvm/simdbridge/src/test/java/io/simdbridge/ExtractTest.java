// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Batch extraction, one crossing per batch, against Jackson reading the same records. */
class ExtractTest {
    static final List<ColumnSpec> GHARCHIVE = List.of(
            ColumnSpec.string("/id"), ColumnSpec.string("/type"), ColumnSpec.string("/actor/login"),
            ColumnSpec.int64("/actor/id"), ColumnSpec.float64("/repo/id"), ColumnSpec.bool("/public"),
            ColumnSpec.int64("/payload/size"), ColumnSpec.string("/payload/commits/0/sha"),
            ColumnSpec.string("/org/login"));

    @ParameterizedTest
    @EnumSource(value = Bridge.class, names = {"JNI_DIRECT", "FFM_DIRECT"})
    void ghArchiveInBatchesMatchesJackson(Bridge bridge) throws Exception {
        byte[] ndjson = TestData.read("ndjson/gharchive-2015-01-01-0.ndjson");
        ObjectMapper mapper = new ObjectMapper();
        List<JsonNode> records = new ArrayList<>();
        for (String line : new String(ndjson, StandardCharsets.UTF_8).split("\n")) {
            records.add(mapper.readTree(line));
        }
        NativeParser parser = NativeParser.forCurrentThread();
        ColumnBatch columns = ColumnBatch.allocate(GHARCHIVE, 1000, 1 << 16);
        ByteBuffer batch = PaddedBuffers.copyOf(ndjson);
        int row = 0;
        int calls = 0;
        while (batch.hasRemaining()) {
            int rows = parser.extract(batch, columns, bridge);
            assertEquals(rows, columns.rows());
            for (int r = 0; r < rows; r++) {
                JsonNode record = records.get(row + r);
                for (int c = 0; c < GHARCHIVE.size(); c++) {
                    JsonNode expected = record.at(GHARCHIVE.get(c).pointer());
                    boolean present = !expected.isMissingNode() && !expected.isNull();
                    assertEquals(present, columns.isValid(c, r), "row " + (row + r) + " column " + c);
                    if (!present) {
                        continue;
                    }
                    switch (GHARCHIVE.get(c).type()) {
                        case INT64 -> assertEquals(expected.longValue(), columns.getLong(c, r));
                        case FLOAT64 -> assertEquals(expected.doubleValue(), columns.getDouble(c, r));
                        case BOOLEAN -> assertEquals(expected.booleanValue(), columns.getBoolean(c, r));
                        case STRING -> assertEquals(expected.textValue(), columns.getString(c, r));
                    }
                }
            }
            row += rows;
            calls++;
        }
        assertEquals(records.size(), row);
        assertTrue(calls >= 8, "1000 rows per call");
    }

    @ParameterizedTest
    @EnumSource(value = Bridge.class, names = {"JNI_DIRECT", "FFM_DIRECT"})
    void errorsNameTheColumnAndTheOffset(Bridge bridge) {
        NativeParser parser = NativeParser.forCurrentThread();
        ColumnBatch columns = ColumnBatch.allocate(List.of(ColumnSpec.int64("/a"), ColumnSpec.int64("/b")), 16, 64);
        ByteBuffer batch = PaddedBuffers.copyOf("{\"a\":1,\"b\":2}\n{\"a\":1,\"b\":\"NA\"}\n".getBytes(StandardCharsets.UTF_8));
        JsonException e = assertThrows(JsonException.class, () -> parser.extract(batch, columns, bridge));
        assertEquals(ErrorCode.TYPE_MISMATCH, e.code());
        assertEquals(14, e.offset());
        assertEquals(1, e.column());
        assertTrue(e.getMessage().contains("\"/b\""), e.getMessage());
        assertEquals(0, batch.position()); // nothing consumed on an error
        ByteBuffer broken = PaddedBuffers.copyOf("{\"a\":1}\n{\"a\":2,}\n".getBytes(StandardCharsets.UTF_8));
        JsonException j = assertThrows(JsonException.class, () -> parser.extract(broken, columns, bridge));
        assertEquals(ErrorCode.EXPECTED_KEY, j.code());
        assertEquals(15, j.offset());
        ColumnBatch badPointer = ColumnBatch.allocate(List.of(ColumnSpec.int64("a")), 4, 0);
        assertEquals(ErrorCode.INVALID_POINTER,
                assertThrows(JsonException.class, () -> parser.extract(PaddedBuffers.copyOf("{}".getBytes()), badPointer, bridge)).code());
    }

    @ParameterizedTest
    @EnumSource(value = Bridge.class, names = {"JNI_DIRECT", "FFM_DIRECT"})
    void nullsAndMissingValuesAreInvalid(Bridge bridge) {
        NativeParser parser = NativeParser.forCurrentThread();
        ColumnBatch columns = ColumnBatch.allocate(List.of(ColumnSpec.string("/s"), ColumnSpec.float64("/x")), 4, 64);
        ByteBuffer batch = PaddedBuffers.copyOf("{\"s\":\"h\\u00e9\",\"x\":2}\n\n{\"s\":null}\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(2, parser.extract(batch, columns, bridge));
        assertEquals("hé", columns.getString(0, 0));
        assertEquals(2.0, columns.getDouble(1, 0));
        assertFalse(columns.isValid(0, 1));
        assertEquals(null, columns.getString(0, 1));
        assertFalse(columns.isValid(1, 1));
    }
}
