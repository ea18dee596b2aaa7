// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.arrow;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.simdbridge.ArrowNdjson;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * ArrowNdjson on the flat benchmark file, for bench/arrow_suite.py: the file read with its
 * schema into Arrow Java (every batch imported), and the batches written back to a file, each
 * timed over rounds after one warm-up. Prints one JSON object: the seconds of each round.
 *
 * <pre>java ... io.simdbridge.bench.arrow.ArrowThroughput FILE THREADS ROUNDS OUT</pre>
 */
public final class ArrowThroughput {
    private ArrowThroughput() {}

    /** The flat file's schema (bench/make_flat_ndjson.py; arrow_suite.pa_schema). */
    static final Schema FLAT = new Schema(List.of(
            field("id", new ArrowType.Int(64, true)), field("user_id", new ArrowType.Int(64, true)),
            field("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            field("ratio", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            field("active", ArrowType.Bool.INSTANCE), field("flag", ArrowType.Bool.INSTANCE),
            field("name", ArrowType.Utf8.INSTANCE), field("city", ArrowType.Utf8.INSTANCE),
            field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));

    private static Field field(String name, ArrowType type) {
        return new Field(name, FieldType.nullable(type), null);
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        Path out = Path.of(args[3]);
        ArrowNdjson.ReadOptions read = ArrowNdjson.ReadOptions.DEFAULT.withSchema(FLAT).withThreads(threads);
        ArrowNdjson.WriteOptions write = ArrowNdjson.WriteOptions.DEFAULT.withThreads(threads);
        List<Double> readSeconds = new ArrayList<>();
        List<Double> writeSeconds = new ArrayList<>();
        long rows = 0;
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int r = 0; r <= rounds; r++) { // round 0 warms up
                long start = System.nanoTime();
                rows = 0;
                try (ArrowReader reader = ArrowNdjson.read(allocator, file, read)) {
                    while (reader.loadNextBatch()) {
                        rows += reader.getVectorSchemaRoot().getRowCount();
                    }
                }
                double readTime = (System.nanoTime() - start) / 1e9;
                ArrowReader batches = ArrowNdjson.read(allocator, file, read);
                start = System.nanoTime();
                try (OutputStream o = Files.newOutputStream(out)) {
                    ArrowNdjson.write(allocator, batches, o, write); // (imports each batch as it goes)
                }
                double writeTime = (System.nanoTime() - start) / 1e9;
                if (r > 0) {
                    readSeconds.add(readTime);
                    writeSeconds.add(writeTime);
                }
                System.err.printf(Locale.ROOT, "arrow: jvm, %d thread(s): round %d/%d%n", threads, r, rounds);
            }
        }
        System.out.printf(Locale.ROOT, "{\"rows\": %d, \"read_seconds\": %s, \"write_seconds\": %s, \"written_bytes\": %d}%n",
                rows, readSeconds, writeSeconds, Files.size(out));
    }
}
