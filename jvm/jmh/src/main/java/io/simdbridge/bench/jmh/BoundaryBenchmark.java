// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.jmh;

import io.simdbridge.Bridge;
import io.simdbridge.JsonPointer;
import io.simdbridge.NativeParser;
import io.simdbridge.bench.data.Datasets;
import io.simdbridge.bench.data.Input;
import io.simdbridge.bench.feed.Listing;
import io.simdbridge.bench.pipeline.NativeExtractPipeline;
import io.simdbridge.bench.pipeline.Pipeline;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Suite B: the price of a crossing (an empty JNI call, a plain Java call, an FFM downcall plain
 * and critical), and a 4,096-record pipeline built on one crossing per batch (batch extraction)
 * against one built on one crossing per field (each record parsed and kept natively, then each
 * of its 14 fields fetched by its own crossing). bench/jvm_suite.py turns them into shares of
 * pipeline time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector",
        "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 2, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 6, time = 200, timeUnit = TimeUnit.MILLISECONDS)
public class BoundaryBenchmark {
    /** The empty crossings are internals of the library (io.simdbridge.internal, read here on the class path). */
    private static final io.simdbridge.internal.ParserInternals.Access INTERNALS = io.simdbridge.internal.ParserInternals.get();

    private static final JsonPointer[] POINTERS = new JsonPointer[Listing.POINTERS.length];

    static {
        for (int i = 0; i < POINTERS.length; i++) {
            POINTERS[i] = JsonPointer.of(Listing.POINTERS[i]);
        }
    }

    private Input batch;
    private List<ByteBuffer> records;
    private Pipeline batchJni;
    private Pipeline batchFfm;

    @Setup(Level.Trial)
    public void setUp() {
        batch = Datasets.load(Datasets.FEED_BATCH_1);
        records = new ArrayList<>();
        byte[] bytes = batch.bytes();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                ByteBuffer record = ByteBuffer.allocateDirect(i - start + 64).put(0, bytes, start, i - start);
                records.add(record.limit(i - start));
                start = i + 1;
            }
        }
        batchJni = new NativeExtractPipeline(Bridge.JNI_DIRECT, Datasets.FEED_BATCH_RECORDS);
        batchFfm = new NativeExtractPipeline(Bridge.FFM_DIRECT, Datasets.FEED_BATCH_RECORDS);
        if (!fieldByField(Bridge.JNI_DIRECT).equals(batchJni.run(batch))) {
            throw new IllegalStateException("the field-by-field pipeline disagrees with batch extraction");
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    private static void emptyJavaMethod() {}

    @Benchmark
    public void crossing_plainJava() {
        emptyJavaMethod();
    }

    @Benchmark
    public void crossing_jniEmpty() {
        INTERNALS.noopJni();
    }

    @Benchmark
    public void crossing_ffmEmpty() {
        INTERNALS.noopFfm(false);
    }

    @Benchmark
    public void crossing_ffmCriticalEmpty() {
        INTERNALS.noopFfm(true);
    }

    @Benchmark
    public List<Listing> pipeline_batchExtractJni() {
        return batchJni.run(batch);
    }

    @Benchmark
    public List<Listing> pipeline_batchExtractFfm() {
        return batchFfm.run(batch);
    }

    @Benchmark
    public List<Listing> pipeline_fieldByFieldJni() {
        return fieldByField(Bridge.JNI_DIRECT);
    }

    @Benchmark
    public List<Listing> pipeline_fieldByFieldFfm() {
        return fieldByField(Bridge.FFM_DIRECT);
    }

    /** One crossing to parse each record, one per field: 15 crossings a record. */
    private List<Listing> fieldByField(Bridge bridge) {
        NativeParser p = NativeParser.forCurrentThread();
        List<Listing> out = new ArrayList<>(records.size());
        for (ByteBuffer record : records) {
            p.parseDocument(record, bridge);
            out.add(new Listing(p.getLong(POINTERS[0], 0), (int) p.getLong(POINTERS[1], 0), p.getString(POINTERS[2]),
                    p.getString(POINTERS[3]), p.getString(POINTERS[4]), p.getString(POINTERS[5]),
                    p.getString(POINTERS[6]), p.getString(POINTERS[7]), Listing.cylinders(p.getString(POINTERS[8])),
                    Listing.displacement(p.getString(POINTERS[9])), (int) p.getLong(POINTERS[10], 0),
                    (int) p.getLong(POINTERS[11], 0), (int) p.getLong(POINTERS[12], 0), p.getDouble(POINTERS[13], 0)));
        }
        return Pipeline.validate(out);
    }
}
