// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ArrowNdjson: NDJSON read into Arrow Java's vectors and written back, through the C Data
 * Interface. Every allocator is closed at the end of its test, which fails on any buffer leaked.
 */
class ArrowNdjsonTest {
    private static Field field(String name, ArrowType type, Field... children) {
        return new Field(name, FieldType.nullable(type), children.length == 0 ? null : List.of(children));
    }

    static final Schema SCHEMA = new Schema(List.of(
            field("i", new ArrowType.Int(64, true)),
            field("u8", new ArrowType.Int(8, false)),
            field("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            field("b", ArrowType.Bool.INSTANCE),
            field("s", ArrowType.Utf8.INSTANCE),
            field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
            field("day", new ArrowType.Date(DateUnit.DAY)),
            field("l", ArrowType.List.INSTANCE, field("item", new ArrowType.Int(32, true))),
            field("o", ArrowType.Struct.INSTANCE, field("x", new ArrowType.Int(64, true)),
                    field("y", ArrowType.Utf8.INSTANCE))));

    /** Records as dumpb writes them (so that writing them back gives the same bytes). */
    static byte[] records(int n) {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < n; r++) {
            sb.append("{\"i\":").append(r * 1_000_003L - 7).append(",\"u8\":").append(r % 256)
                    .append(",\"d\":").append(r % 5 == 0 ? "null" : (r / 4.0) + "")
                    .append(",\"b\":").append(r % 3 == 0)
                    .append(",\"s\":").append(r % 7 == 0 ? "null" : "\"né \\\"" + r + "\\\"\"")
                    .append(",\"ts\":\"2024-02-29T12:34:56.").append(String.format("%06d", r % 1_000_000)).append("Z\"")
                    .append(",\"day\":\"2023-12-").append(String.format("%02d", r % 28 + 1)).append('"')
                    .append(",\"l\":[").append(r % 4 == 0 ? "" : r + "," + (r + 1)).append(']')
                    .append(",\"o\":").append(r % 9 == 0 ? "null" : "{\"x\":" + r + ",\"y\":\"v\"}")
                    .append("}\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Every batch's rows as text, and the schema. */
    static List<String> rows(ArrowReader reader) throws IOException {
        List<String> out = new ArrayList<>();
        while (reader.loadNextBatch()) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            for (int r = 0; r < root.getRowCount(); r++) {
                StringBuilder sb = new StringBuilder();
                for (var v : root.getFieldVectors()) {
                    sb.append(v.getName()).append('=').append(v.getObject(r)).append(';');
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    @Test
    void readsEveryTypeWithASchemaAndWritesTheSameBytesBack() throws IOException {
        byte[] ndjson = records(5000);
        try (BufferAllocator allocator = new RootAllocator();
             ArrowReader reader = ArrowNdjson.read(allocator, ndjson,
                     ArrowNdjson.ReadOptions.DEFAULT.withSchema(SCHEMA).withBlockSize(4096))) {
            assertEquals(SCHEMA, reader.getVectorSchemaRoot().getSchema());
            ByteArrayOutputStream written = new ByteArrayOutputStream();
            int rows = 0;
            int batches = 0;
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                if (batches == 0) {
                    assertEquals(-7L, ((BigIntVector) root.getVector("i")).get(0));
                    assertTrue(root.getVector("d").isNull(0));
                    assertTrue(root.getVector("s").isNull(0));
                    assertEquals("né \"1\"", new String(((VarCharVector) root.getVector("s")).get(1), StandardCharsets.UTF_8));
                    assertTrue(root.getVector("o").isNull(0));
                    assertEquals(1L, ((StructVector) root.getVector("o")).getChild("x", BigIntVector.class).get(1));
                }
                rows += root.getRowCount();
                batches++;
                ArrowNdjson.write(root, written, ArrowNdjson.WriteOptions.DEFAULT);
            }
            assertEquals(5000, rows);
            assertTrue(batches > 10, "4 KB blocks make many batches: " + batches);
            assertEquals(new String(ndjson, StandardCharsets.UTF_8), written.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void theSameRowsForEveryThreadCountBlockSizeAndInput(@TempDir Path dir) throws IOException {
        byte[] ndjson = records(3000);
        Path file = dir.resolve("r.ndjson");
        Files.write(file, ndjson);
        try (BufferAllocator allocator = new RootAllocator()) {
            List<String> expected;
            try (ArrowReader r = ArrowNdjson.read(allocator, ndjson, ArrowNdjson.ReadOptions.DEFAULT.withSchema(SCHEMA))) {
                expected = rows(r);
            }
            assertEquals(3000, expected.size());
            for (int threads : new int[] {1, 2, 3}) {
                for (long block : new long[] {1, 999, 1 << 20}) {
                    ArrowNdjson.ReadOptions o = ArrowNdjson.ReadOptions.DEFAULT.withSchema(SCHEMA).withThreads(threads)
                            .withBlockSize(block);
                    try (ArrowReader r = ArrowNdjson.read(allocator, file, o)) {
                        assertEquals(expected, rows(r), threads + " threads, block " + block);
                    }
                    ByteBuffer direct = ByteBuffer.allocateDirect(ndjson.length + 10).position(5);
                    direct.put(ndjson).position(5).limit(5 + ndjson.length);
                    try (ArrowReader r = ArrowNdjson.read(allocator, direct, o)) {
                        assertEquals(expected, rows(r));
                    }
                    assertEquals(5, direct.position());
                    try (Arena shared = Arena.ofShared(); ArrowReader r = ArrowNdjson.read(allocator,
                            shared.allocate(ndjson.length).copyFrom(MemorySegment.ofArray(ndjson)), o)) {
                        assertEquals(expected, rows(r));
                    }
                    // The same batches left in the C Data Interface, from a native and a heap segment.
                    try (Arena shared = Arena.ofShared()) {
                        for (MemorySegment in : List.of(shared.allocate(ndjson.length).copyFrom(MemorySegment.ofArray(
                                ndjson)), MemorySegment.ofArray(ndjson))) {
                            ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
                            ArrowNdjson.readInto(allocator, in, o, stream);
                            try (ArrowReader r = Data.importArrayStream(allocator, stream)) {
                                assertEquals(expected, rows(r), "readInto");
                            } finally {
                                stream.close();
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void aPreparedReadReadsEachChunkAsAReadWithItsOptions() throws Exception {
        // Chunks of records cut at line ends, one with a bad record: kept with its line in the
        // corrupt-record field, or the chunk's error, as the one-off reads give them.
        byte[] whole = records(2000);
        List<byte[]> chunks = new ArrayList<>();
        for (int from = 0, cut = 0; from < whole.length; from = cut) {
            cut = Math.min(whole.length, from + 9_000 + chunks.size() * 7_000);
            while (cut < whole.length && whole[cut - 1] != '\n') {
                cut++;
            }
            chunks.add(java.util.Arrays.copyOfRange(whole, from, cut));
        }
        chunks.add(2, "{\"i\":1}\n{\"i\":\"x\"}\n{\"i\":3}\n".getBytes(StandardCharsets.UTF_8));
        List<Field> withCorrupt = new ArrayList<>(SCHEMA.getFields());
        withCorrupt.add(field("_corrupt", ArrowType.Utf8.INSTANCE));
        List<ArrowNdjson.ReadOptions> options = List.of(
                ArrowNdjson.ReadOptions.DEFAULT.withSchema(new Schema(withCorrupt))
                        .withBadRecords(ArrowNdjson.BadRecords.KEEP).withCorruptRecordField("_corrupt"),
                ArrowNdjson.ReadOptions.DEFAULT.withSchema(SCHEMA).withThreads(2).withBlockSize(4096),
                ArrowNdjson.ReadOptions.DEFAULT);
        try (BufferAllocator allocator = new RootAllocator(); Arena shared = Arena.ofShared()) {
            for (ArrowNdjson.ReadOptions o : options) {
                List<String> expected = new ArrayList<>();
                for (byte[] chunk : chunks) {
                    try (ArrowReader r = ArrowNdjson.read(allocator, chunk, o)) {
                        expected.add(String.join("\n", rows(r)));
                    } catch (JsonException e) {
                        expected.add(e.getMessage());
                    }
                }
                if (o.schema() != null) {
                    assertTrue(expected.get(2).contains(o.badRecords() == ArrowNdjson.BadRecords.KEEP
                            ? "_corrupt={\"i\":\"x\"}" : "at byte 13"), expected.get(2));
                }
                try (ArrowNdjson.PreparedRead prepared = ArrowNdjson.prepare(allocator, o)) {
                    assertEquals(o, prepared.options());
                    // Two threads at once, each chunk read three ways, twice over.
                    Callable<List<String>> task = () -> {
                        List<String> got = new ArrayList<>();
                        for (int round = 0; round < 2; round++) {
                            for (byte[] chunk : chunks) {
                                MemorySegment in = shared.allocate(chunk.length).copyFrom(MemorySegment.ofArray(chunk));
                                List<String> ways = new ArrayList<>();
                                try (ArrowReader r = prepared.read(chunk)) {
                                    if (o.schema() != null) { // (the schema given, not one inferred)
                                        assertEquals(o.schema(), r.getVectorSchemaRoot().getSchema());
                                    }
                                    ways.add(String.join("\n", rows(r)));
                                } catch (JsonException e) {
                                    ways.add(e.getMessage());
                                }
                                try (ArrowReader r = prepared.read(in)) {
                                    ways.add(String.join("\n", rows(r)));
                                } catch (JsonException e) {
                                    ways.add(e.getMessage());
                                }
                                try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
                                    prepared.readInto(in, stream);
                                    try (ArrowReader r = Data.importArrayStream(allocator, stream)) {
                                        ways.add(String.join("\n", rows(r)));
                                    }
                                } catch (JsonException e) {
                                    ways.add(e.getMessage());
                                }
                                assertEquals(1, ways.stream().distinct().count(), "the three ways differ");
                                got.add(ways.get(0));
                            }
                        }
                        return got;
                    };
                    ExecutorService pool = Executors.newFixedThreadPool(2);
                    try {
                        List<Future<List<String>>> runs = List.of(pool.submit(task), pool.submit(task));
                        for (Future<List<String>> run : runs) {
                            List<String> got = run.get();
                            assertEquals(expected, got.subList(0, chunks.size()));
                            assertEquals(expected, got.subList(chunks.size(), got.size()));
                        }
                    } finally {
                        pool.shutdown();
                    }
                    prepared.close();
                    IllegalStateException closed = assertThrows(IllegalStateException.class,
                            () -> prepared.read(chunks.get(0)));
                    assertEquals("this PreparedRead is closed", closed.getMessage());
                }
            }
        }
    }

    @Test
    void aPreparedReadIsNotClosedUnderARunningRead(@TempDir Path dir) throws Exception {
        // A read of a named pipe runs until its writer closes it: once more than the pipe holds
        // has been written, the read is running (it took the rest), and closing is refused
        // until it ends. Its rows are then those of the same bytes in memory.
        Path fifo = dir.resolve("records.ndjson");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        byte[] ndjson = records(4000); // (about 900 KB: far more than a pipe's 64 KB)
        ArrowNdjson.ReadOptions o = ArrowNdjson.ReadOptions.DEFAULT.withSchema(SCHEMA).withBlockSize(1 << 16);
        try (BufferAllocator allocator = new RootAllocator()) {
            List<String> expected;
            try (ArrowReader r = ArrowNdjson.read(allocator, ndjson, o)) {
                expected = rows(r);
            }
            ArrowNdjson.PreparedRead prepared = ArrowNdjson.prepare(allocator, o);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<List<String>> read = pool.submit(() -> {
                    try (ArrowReader r = prepared.read(fifo)) {
                        return rows(r);
                    }
                });
                try (OutputStream out = Files.newOutputStream(fifo)) {
                    out.write(ndjson);
                    out.flush();
                    IllegalStateException running = assertThrows(IllegalStateException.class, prepared::close);
                    assertEquals("a read with these options is running", running.getMessage());
                }
                assertEquals(expected, read.get());
                prepared.close();
                prepared.close(); // (again: nothing)
                assertThrows(IllegalStateException.class, () -> prepared.read(fifo));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void infersGhArchiveWherePyarrowAndPolarsFail() throws IOException {
        Path gh = TestData.root().resolve("ndjson/gharchive-2015-01-01-0.ndjson");
        try (BufferAllocator allocator = new RootAllocator();
             ArrowReader reader = ArrowNdjson.read(allocator, gh, ArrowNdjson.ReadOptions.DEFAULT.withThreads(2))) {
            Schema schema = reader.getVectorSchemaRoot().getSchema();
            assertEquals("id", schema.getFields().get(0).getName());
            assertTrue(schema.findField("payload").getType() instanceof ArrowType.Struct);
            assertEquals(7702, rows(reader).size());
        }
        byte[] bytes = TestData.read("ndjson/gharchive-2015-01-01-0.ndjson");
        try (BufferAllocator allocator = new RootAllocator()) {
            Schema inferred = ArrowNdjson.inferSchema(allocator, bytes, ArrowNdjson.ReadOptions.DEFAULT);
            assertTrue(inferred.findField("actor").getType() instanceof ArrowType.Struct);
        }
    }

    @Test
    void errorsNameTheRecordTheFieldAndTheByte() {
        byte[] bad = "{\"i\":1}\n{\"i\":\"x\"}\n".getBytes(StandardCharsets.UTF_8);
        try (BufferAllocator allocator = new RootAllocator()) {
            JsonException e = assertThrows(JsonException.class, () -> ArrowNdjson.read(allocator, bad,
                    ArrowNdjson.ReadOptions.DEFAULT.withSchema(SCHEMA)));
            assertEquals(ErrorCode.TYPE_MISMATCH, e.code());
            assertEquals(2, e.record());
            assertEquals("/i", e.path());
            assertEquals(13, e.offset());
            assertEquals("record 2, field /i: expected int64, found a string at byte 13", e.getMessage());
            try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
                JsonException into = assertThrows(JsonException.class, () -> ArrowNdjson.readInto(allocator,
                        MemorySegment.ofArray(bad), ArrowNdjson.ReadOptions.DEFAULT.withSchema(SCHEMA), stream));
                assertEquals(e.getMessage(), into.getMessage());
            }
            JsonException truncated = assertThrows(JsonException.class, () -> ArrowNdjson.read(allocator,
                    "{\"i\":1}\n{\"i\":".getBytes(StandardCharsets.UTF_8), ArrowNdjson.ReadOptions.DEFAULT));
            assertEquals(ErrorCode.UNEXPECTED_END, truncated.code());
            JsonException tooLong = assertThrows(JsonException.class, () -> ArrowNdjson.read(allocator,
                    records(3), ArrowNdjson.ReadOptions.DEFAULT.withLimits(JsonLimits.DEFAULT.withMaxDocumentLength(20))));
            assertEquals(ErrorCode.DOCUMENT_TOO_LONG, tooLong.code());
            // A map with integer keys (a JSON object's keys are strings): not a type it reads.
            IllegalArgumentException notStruct = assertThrows(IllegalArgumentException.class, () -> ArrowNdjson.read(
                    allocator, bad, ArrowNdjson.ReadOptions.DEFAULT.withSchema(new Schema(List.of(
                            field("m", new ArrowType.Map(false), field("entries", ArrowType.Struct.INSTANCE,
                                    new Field("key", FieldType.notNullable(new ArrowType.Int(64, true)), null),
                                    field("value", new ArrowType.Int(64, true)))))))));
            assertTrue(notStruct.getMessage().contains("map field 'm' must have string keys"), notStruct.getMessage());
            assertFalse(notStruct.getMessage().isEmpty());
            assertThrows(java.nio.file.NoSuchFileException.class, () -> ArrowNdjson.read(allocator,
                    Path.of("/nonexistent/x.ndjson"), ArrowNdjson.ReadOptions.DEFAULT));
        }
    }

    @Test
    void aSchemaNestedPastTheDepthLimitIsRefused() {
        // The core walks a schema by recursion and takes the 1024 levels it takes for records.
        Field deep = field("item", new ArrowType.Int(64, true));
        for (int level = 0; level < 1100; level++) {
            deep = field(level == 1099 ? "x" : "item", ArrowType.List.INSTANCE, deep);
        }
        Schema schema = new Schema(List.of(deep));
        byte[] record = "{\"x\":null}\n".getBytes(StandardCharsets.UTF_8);
        try (BufferAllocator allocator = new RootAllocator()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ArrowNdjson.read(
                    allocator, record, ArrowNdjson.ReadOptions.DEFAULT.withSchema(schema)));
            assertTrue(e.getMessage().contains("the schema nests deeper than 1024 levels"), e.getMessage());
        }
    }

    @Test
    void decimalsFromNumbersAndStringsRoundedHalfUpAndWrittenBack() throws IOException {
        Schema schema = new Schema(List.of(field("p", new ArrowType.Decimal(9, 2, 128))));
        byte[] ndjson = "{\"p\":12.345}\n{\"p\":\"-7\"}\n{\"p\":null}\n".getBytes(StandardCharsets.UTF_8);
        try (BufferAllocator allocator = new RootAllocator();
             ArrowReader r = ArrowNdjson.read(allocator, ndjson, ArrowNdjson.ReadOptions.DEFAULT.withSchema(schema))) {
            assertTrue(r.loadNextBatch());
            VectorSchemaRoot root = r.getVectorSchemaRoot();
            assertEquals(new java.math.BigDecimal("12.35"), root.getVector("p").getObject(0));
            assertEquals(new java.math.BigDecimal("-7.00"), root.getVector("p").getObject(1));
            assertEquals(null, root.getVector("p").getObject(2));
            assertEquals("{\"p\":12.35}\n{\"p\":-7.00}\n{\"p\":null}\n",
                    new String(ArrowNdjson.write(root, ArrowNdjson.WriteOptions.DEFAULT), StandardCharsets.UTF_8));
        }
    }

    @Test
    void badRecordsAreKeptWithTheirLineOrDropped(@TempDir Path dir) throws IOException {
        Schema schema = new Schema(List.of(field("i", new ArrowType.Int(64, true)), field("s", ArrowType.Utf8.INSTANCE),
                field("_corrupt", ArrowType.Utf8.INSTANCE)));
        byte[] ndjson = "{\"i\":1,\"s\":\"a\"}\n{\"i\":\"x\",\"s\":\"b\"}\n{\"i\":\n{\"s\":[1,{\"k\":true}]}\n"
                .getBytes(StandardCharsets.UTF_8);
        Path file = dir.resolve("bad.ndjson");
        Files.write(file, ndjson);
        ArrowNdjson.ReadOptions keep = ArrowNdjson.ReadOptions.DEFAULT.withSchema(schema)
                .withBadRecords(ArrowNdjson.BadRecords.KEEP).withCorruptRecordField("_corrupt").withAnyValueAsString(true);
        List<String> expected = List.of("i=1;s=a;_corrupt=null;", "i=null;s=b;_corrupt={\"i\":\"x\",\"s\":\"b\"};",
                "i=null;s=null;_corrupt={\"i\":;", "i=null;s=[1,{\"k\":true}];_corrupt=null;");
        try (BufferAllocator allocator = new RootAllocator()) {
            try (ArrowReader r = ArrowNdjson.read(allocator, ndjson, keep)) {
                assertEquals(expected, rows(r));
            }
            try (ArrowReader r = ArrowNdjson.read(allocator, file, keep.withBlockSize(8))) {
                assertEquals(expected, rows(r));
            }
            try (ArrowReader r = ArrowNdjson.read(allocator, ndjson, keep.withBadRecords(ArrowNdjson.BadRecords.DROP))) {
                assertEquals(List.of(expected.get(0), expected.get(3)), rows(r));
            }
            JsonException failed = assertThrows(JsonException.class, () -> ArrowNdjson.read(allocator, ndjson,
                    keep.withBadRecords(ArrowNdjson.BadRecords.FAIL)));
            assertEquals(2, failed.record());
            // Inferred, the bad records add nothing to the schema (the second's "x" and the last's
            // list conflict with the first record's types); kept, the corrupt-record field comes last.
            ArrowNdjson.ReadOptions inferred = ArrowNdjson.ReadOptions.DEFAULT
                    .withBadRecords(ArrowNdjson.BadRecords.KEEP).withCorruptRecordField("_corrupt")
                    .withAnyValueAsString(true);
            for (ArrowNdjson.ReadOptions o : List.of(inferred, inferred.withBlockSize(8))) {
                try (ArrowReader r = ArrowNdjson.read(allocator, ndjson, o)) {
                    assertEquals(schema, r.getVectorSchemaRoot().getSchema());
                    assertEquals(expected, rows(r));
                }
                try (ArrowReader r = ArrowNdjson.read(allocator, file, o)) {
                    assertEquals(expected, rows(r));
                }
                try (ArrowReader r = ArrowNdjson.read(allocator, file, o.withBadRecords(ArrowNdjson.BadRecords.DROP))) {
                    assertEquals(List.of("i=1;s=a;", "i=null;s=[1,{\"k\":true}];"), rows(r)); // (any value: a string)
                }
            }
        }
    }

    @Test
    void aFailingOutputStreamStopsTheWriterWithItsException() throws IOException {
        byte[] ndjson = records(20000); // several pieces of output
        try (BufferAllocator allocator = new RootAllocator();
             ArrowReader reader = ArrowNdjson.read(allocator, ndjson, ArrowNdjson.ReadOptions.DEFAULT.withSchema(SCHEMA)
                     .withBlockSize(16 << 20))) {
            assertTrue(reader.loadNextBatch());
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            int[] calls = {0};
            OutputStream failing = new OutputStream() {
                @Override
                public void write(int b) {}

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    if (++calls[0] == 2) {
                        throw new IOException("disk on fire");
                    }
                }
            };
            IOException e = assertThrows(IOException.class, () -> ArrowNdjson.write(root, failing,
                    ArrowNdjson.WriteOptions.DEFAULT.withThreads(2)));
            assertEquals("disk on fire", e.getMessage());
            assertEquals(2, calls[0]);
            // The same root still writes, on any number of threads, the same bytes.
            byte[] one = ArrowNdjson.write(root, ArrowNdjson.WriteOptions.DEFAULT);
            assertArrayEquals(ndjson, one);
            assertArrayEquals(one, ArrowNdjson.write(root, ArrowNdjson.WriteOptions.DEFAULT.withThreads(3)));
            assertTrue(ArrowNdjson.write(root, ArrowNdjson.WriteOptions.DEFAULT.withWriteNulls(false)).length < one.length);
        }
    }

    @Test
    void aReaderWritesAsAStream() throws IOException {
        byte[] ndjson = records(2000);
        try (BufferAllocator allocator = new RootAllocator()) {
            ArrowReader reader = ArrowNdjson.read(allocator, ndjson,
                    ArrowNdjson.ReadOptions.DEFAULT.withSchema(SCHEMA).withBlockSize(1000));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ArrowNdjson.write(allocator, reader, out, ArrowNdjson.WriteOptions.DEFAULT.withThreads(2));
            assertArrayEquals(ndjson, out.toByteArray());
        }
        byte[] empty = new byte[0];
        try (BufferAllocator allocator = new RootAllocator();
             ArrowReader reader = ArrowNdjson.read(allocator, empty, ArrowNdjson.ReadOptions.DEFAULT.withSchema(SCHEMA))) {
            assertFalse(reader.loadNextBatch());
        }
        assertEquals(0, MemorySegment.ofArray(empty).byteSize() * ValueLayout.JAVA_BYTE.byteSize());
    }
}
