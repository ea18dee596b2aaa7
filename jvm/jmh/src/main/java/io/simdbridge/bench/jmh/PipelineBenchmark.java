// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.jmh;

import io.simdbridge.Bridge;
import io.simdbridge.bench.data.Datasets;
import io.simdbridge.bench.data.Input;
import io.simdbridge.bench.feed.Listing;
import io.simdbridge.bench.pipeline.JacksonStreamPipeline;
import io.simdbridge.bench.pipeline.JacksonTreePipeline;
import io.simdbridge.bench.pipeline.NativeExtractPipeline;
import io.simdbridge.bench.pipeline.Pipeline;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
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
 * Suite E: each pipeline on a 4,096-record batch in three variants (parse; parse and map; parse,
 * map and validate). bench/jvm_suite.py takes the stages' costs as differences of the variants,
 * and flags a stage smaller than the combined confidence interval as below noise.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector",
        "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 2, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 6, time = 200, timeUnit = TimeUnit.MILLISECONDS)
public class PipelineBenchmark {
    private Input batch;
    private final Pipeline jacksonTree = new JacksonTreePipeline();
    private final Pipeline jacksonStream = new JacksonStreamPipeline();
    private Pipeline extractJni;
    private Pipeline extractFfm;

    @Setup(Level.Trial)
    public void setUp() {
        batch = Datasets.load(Datasets.FEED_BATCH_1);
        extractJni = new NativeExtractPipeline(Bridge.JNI_DIRECT, Datasets.FEED_BATCH_RECORDS);
        extractFfm = new NativeExtractPipeline(Bridge.FFM_DIRECT, Datasets.FEED_BATCH_RECORDS);
        List<Listing> expected = jacksonTree.run(batch);
        for (Pipeline p : List.of(jacksonStream, extractJni, extractFfm)) {
            if (!p.run(batch).equals(expected)) {
                throw new IllegalStateException(p.name() + " disagrees: nothing is measured");
            }
        }
    }

    @Benchmark
    public long parse_jacksonTree() {
        return jacksonTree.parse(batch);
    }

    @Benchmark
    public List<Listing> parseMap_jacksonTree() {
        return jacksonTree.parseAndMap(batch);
    }

    @Benchmark
    public List<Listing> parseMapValidate_jacksonTree() {
        return jacksonTree.run(batch);
    }

    @Benchmark
    public long parse_jacksonStream() {
        return jacksonStream.parse(batch);
    }

    @Benchmark
    public List<Listing> parseMap_jacksonStream() {
        return jacksonStream.parseAndMap(batch);
    }

    @Benchmark
    public List<Listing> parseMapValidate_jacksonStream() {
        return jacksonStream.run(batch);
    }

    @Benchmark
    public long parse_extractJni() {
        return extractJni.parse(batch);
    }

    @Benchmark
    public List<Listing> parseMap_extractJni() {
        return extractJni.parseAndMap(batch);
    }

    @Benchmark
    public List<Listing> parseMapValidate_extractJni() {
        return extractJni.run(batch);
    }

    @Benchmark
    public long parse_extractFfm() {
        return extractFfm.parse(batch);
    }

    @Benchmark
    public List<Listing> parseMap_extractFfm() {
        return extractFfm.parseAndMap(batch);
    }

    @Benchmark
    public List<Listing> parseMapValidate_extractFfm() {
        return extractFfm.run(batch);
    }
}
