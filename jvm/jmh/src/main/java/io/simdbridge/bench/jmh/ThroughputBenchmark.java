// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.jmh;

import io.simdbridge.bench.data.Datasets;
import io.simdbridge.bench.data.Input;
import io.simdbridge.bench.engines.Engine;
import io.simdbridge.bench.engines.Engines;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Suite A: the checksum of each dataset, per engine, in operations per second (MB/s =
 * ops/s x bytes, worked out by bench/jvm_suite.py). The same methods serve suite C (with
 * -prof gc), D (-bm sample) and F (-t 1 and -t 2). Each engine reads the form of the input it
 * prefers, made before timing (suite G prices getting bytes into that form). The equivalence
 * gate has checked every engine's answer on every dataset before this runs; setup checks it
 * again, for the engine this fork times, against the direct JNI bridge.
 *
 * <p>The annotations hold the quick settings of {@code make bench}; {@code make bench FULL=1}
 * runs 3 forks, 5 warmup and 10 measurement iterations of 1 s. simdjson-java's Vector API code
 * needs about 2.5 s before C2 compiles it (measured: 50, 354, then 809 ops/s in the first three
 * seconds on twitter.json), so its methods warm up for 4 s even in the quick settings.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector",
        "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 2, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 6, time = 200, timeUnit = TimeUnit.MILLISECONDS)
public class ThroughputBenchmark {
    @Param({"apache_builds.json", "canada.json", "citm_catalog.json", "github_events.json", "google_maps_api_compact_response.json", "google_maps_api_response.json", "gsoc-2018.json", "instruments.json", "marine_ik.json", "mesh.json", "mesh.pretty.json", "numbers.json", "random.json", "repeat.json", "tree-pretty.json", "twitter.json", "twitter_api_compact_response.json", "twitter_api_response.json", "twitter_timeline.json", "twitterescaped.json", "update-center.json", "vpic_makes.json", "vehicles-batch-1", "vehicles-batch-2", "gharchive-2015-01-01-0.ndjson"})
    public String dataset;

    private Input input;

    private static final Engine JACKSON_TREE = Engines.byName("jackson-tree");
    private static final Engine JACKSON_STREAM = Engines.byName("jackson-stream");
    private static final Engine FASTJSON2 = Engines.byName("fastjson2");
    private static final Engine SIMDJSON_JAVA = Engines.byName("simdjson-java");
    private static final Engine JNI_COPY = Engines.byName("simdjson-jni-copy");
    private static final Engine JNI_CRITICAL = Engines.byName("simdjson-jni-critical");
    private static final Engine JNI_DIRECT = Engines.byName("simdjson-jni-direct");
    private static final Engine FFM_HEAP = Engines.byName("simdjson-ffm-heap");
    private static final Engine FFM_DIRECT = Engines.byName("simdjson-ffm-direct");

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        input = Datasets.load(dataset);
        Engine timed = engineOf(params.getBenchmark());
        if (run(timed) != run(JNI_DIRECT)) {
            throw new IllegalStateException(timed.name() + " disagrees on " + dataset + ": nothing is measured");
        }
    }

    /** The engine a method times, from its name: checksum_jniDirect is simdjson-jni-direct. */
    static Engine engineOf(String benchmark) {
        String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
        return switch (method) {
            case "checksum_jacksonTree" -> JACKSON_TREE;
            case "checksum_jacksonStream" -> JACKSON_STREAM;
            case "checksum_fastjson2" -> FASTJSON2;
            case "checksum_simdjsonJava" -> SIMDJSON_JAVA;
            case "checksum_jniCopy" -> JNI_COPY;
            case "checksum_jniCritical" -> JNI_CRITICAL;
            case "checksum_ffmHeap" -> FFM_HEAP;
            case "checksum_ffmDirect" -> FFM_DIRECT;
            default -> JNI_DIRECT;
        };
    }

    private long run(Engine e) {
        return input.stream() ? e.checksumStream(input) : e.checksum(input);
    }

    @Benchmark
    public long checksum_jacksonTree() {
        return run(JACKSON_TREE);
    }

    @Benchmark
    public long checksum_jacksonStream() {
        return run(JACKSON_STREAM);
    }

    @Benchmark
    public long checksum_fastjson2() {
        return run(FASTJSON2);
    }

    @Benchmark
    @Warmup(iterations = 4, time = 1, timeUnit = TimeUnit.SECONDS)
    public long checksum_simdjsonJava() {
        return run(SIMDJSON_JAVA);
    }

    @Benchmark
    public long checksum_jniCopy() {
        return run(JNI_COPY);
    }

    @Benchmark
    public long checksum_jniCritical() {
        return run(JNI_CRITICAL);
    }

    @Benchmark
    public long checksum_jniDirect() {
        return run(JNI_DIRECT);
    }

    @Benchmark
    public long checksum_ffmHeap() {
        return run(FFM_HEAP);
    }

    @Benchmark
    public long checksum_ffmDirect() {
        return run(FFM_DIRECT);
    }
}
