// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.jmh;

import io.simdbridge.bench.databind.Scenarios;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The six scenarios, read and written by simdbridge and by Jackson, in microseconds per
 * operation (one library per fork). The gate has checked that both read and write the same
 * values.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 2, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class ScenarioBenchmark {
    @Param({"simple", "nested", "dates", "list-of-100", "map-of-mixed", "escaped-string"})
    public String scenario;

    @Param({"simdbridge", "jackson"})
    public String library;

    private Scenarios.Scenario s;
    private boolean ours;

    @Setup
    public void setup() throws Exception {
        s = Scenarios.all().stream().filter(x -> x.name().equals(scenario)).findFirst().orElseThrow();
        ours = switch (library) {
            case "simdbridge" -> true;
            case "jackson" -> false;
            // Not Jackson under another name: a -p library=fastjson2 given to both benchmarks
            // ran Jackson here and reported it as fastjson2.
            default -> throw new IllegalArgumentException("no library " + library + " in the scenarios (simdbridge, jackson)");
        };
    }

    @Benchmark
    public Object read() throws Exception {
        return ours ? s.readSimdbridge() : s.readJackson();
    }

    @Benchmark
    public Object write() throws Exception {
        return ours ? s.writeSimdbridge() : s.writeJackson();
    }
}
