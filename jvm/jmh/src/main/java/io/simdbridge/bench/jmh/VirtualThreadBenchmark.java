// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.jmh;

import io.simdbridge.bench.databind.DatabindGate;
import io.simdbridge.bench.databind.Libraries;
import io.simdbridge.bench.databind.UsersGenerator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Users read with a virtual thread per document, as a server that runs each request on its own
 * virtual thread reads them: each invocation starts {@value #TASKS} virtual threads that read the
 * payload once each, and joins them; the score is per read, thread start and join included (the
 * same for every library). What this measures that DatabindBenchmark does not: whatever a library
 * keeps per thread is made again for every read. The libraries here keep nothing per thread in
 * the way Libraries calls them (dsl-json's writer and simdjson-java's parser are kept in
 * ThreadLocals there, so they are left out).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 3, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 6, time = 250, timeUnit = TimeUnit.MILLISECONDS)
@OperationsPerInvocation(VirtualThreadBenchmark.TASKS)
public class VirtualThreadBenchmark {
    static final int TASKS = 64;

    @Param({"1"})
    public int kb;

    @Param({"simdbridge", "jackson", "fastjson2", "fastjson2-features"})
    public String library;

    private byte[] json;
    private Libraries.Reader reader;
    private final Thread[] threads = new Thread[TASKS];
    private final Object[] read = new Object[TASKS];

    @Setup
    public void setup() throws Exception {
        json = Libraries.writers().get("jackson").write(UsersGenerator.generate(kb, DatabindGate.SEED));
        reader = Libraries.readers().get(library);
        if (reader == null) {
            throw new IllegalArgumentException("no library " + library);
        }
    }

    @Benchmark
    public Object read() throws InterruptedException {
        for (int i = 0; i < TASKS; i++) {
            int k = i;
            threads[i] = Thread.ofVirtual().start(() -> {
                try {
                    read[k] = reader.read(json);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        for (Object o : read) {
            if (o == null) {
                throw new IllegalStateException(library + " read nothing on a virtual thread");
            }
        }
        return read;
    }
}
