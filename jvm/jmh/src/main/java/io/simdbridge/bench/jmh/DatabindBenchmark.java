// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.jmh;

import io.simdbridge.bench.databind.DatabindGate;
import io.simdbridge.bench.databind.Libraries;
import io.simdbridge.bench.databind.Users;
import io.simdbridge.bench.databind.UsersGenerator;
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
 * Users data binding: reading a payload of about {@code kb} KB into a Users model (beans or public
 * fields), and writing the model to bytes or to a stream, in operations per second, per library. Every fork times one library (so its calls
 * are monomorphic, as in an application using one library); the gate (DatabindGate) has checked
 * every library's result before this runs. Threads (1 and 2) are given on the command line.
 * Quick settings here; {@code make bench FULL=1} runs 3 forks, 5 warmup and 10 measurement
 * iterations of 1 s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector",
        "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 2, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class DatabindBenchmark {
    @Param({"1", "10", "100", "1000"})
    public int kb;

    @Param({"simdbridge", "jackson", "jackson-blackbird", "fastjson2", "fastjson2-features", "fastjson2-fieldbased",
            "dsl-json", "dsl-json-reflection", "avaje-jsonb", "genson", "simdjson-java"})
    public String library;

    /** beans: private fields with accessors (UsersBean); fields: public fields (Users). */
    @Param({"beans", "fields"})
    public String model;

    /** users: this project's payload; jjb: shaped as java-json-benchmark makes it (UsersGenerator.generateJjb). */
    @Param({"users", "jjb"})
    public String payload;

    private byte[] json;
    private Object users;
    private Libraries.Reader reader;
    private Libraries.Writer writer;
    private Libraries.StreamWriter streamWriter;

    @Setup
    public void setup() throws Exception {
        Libraries.Model m = Libraries.Model.byId(model);
        Users generated = payload.equals("jjb") ? UsersGenerator.generateJjb(kb, DatabindGate.SEED)
                : UsersGenerator.generate(kb, DatabindGate.SEED);
        users = m.of(generated);
        json = Libraries.writers().get("jackson").write(generated);
        reader = Libraries.readers(m).get(library);
        writer = Libraries.writers(m).get(library);
        streamWriter = Libraries.streamWriters(m).get(library);
        if (reader == null) {
            throw new IllegalArgumentException("no library " + library + " for the " + model + " model");
        }
    }

    @Benchmark
    public Object read() throws Exception {
        return reader.read(json);
    }

    @Benchmark
    public Object write() throws Exception {
        if (writer == null) {
            throw new UnsupportedOperationException(library + " does not write");
        }
        return writer.write(users);
    }

    /** Written to a ByteArrayOutputStream kept per thread and reset first, as java-json-benchmark writes. */
    @Benchmark
    public Object writeStream() throws Exception {
        if (streamWriter == null) {
            throw new UnsupportedOperationException(library + " does not write");
        }
        java.io.ByteArrayOutputStream out = Libraries.threadStream();
        streamWriter.write(users, out);
        return out;
    }
}
