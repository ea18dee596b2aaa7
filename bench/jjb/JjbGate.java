// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.jjb;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.fabienrenaud.jjb.Cli;
import com.github.fabienrenaud.jjb.Config;
import com.github.fabienrenaud.jjb.JsonBench;
import com.github.fabienrenaud.jjb.data.JsonSource;
import com.github.fabienrenaud.jjb.databind.Deserialization;
import com.github.fabienrenaud.jjb.databind.Serialization;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * The gate of the java-json-benchmark run: before anything is measured, each library's benchmark
 * method, called as JMH calls it on the harness's own payload (its generator, the SEED in the
 * environment, the size given), must read objects equal to the payload's, and must write JSON that
 * Jackson (the harness's reference) reads back equal to it.
 *
 * <pre>java -cp ... io.simdbridge.bench.jjb.JjbGate KB LIBRARY...</pre>
 *
 * Exits 1, naming what differs, if any library fails. It writes the harness's parameter file
 * (.cli.params.json) in the working directory, as the harness's own command line does.
 */
public final class JjbGate {
    private JjbGate() {}

    public static void main(String[] args) throws Exception {
        Cli.DeserializationCommand command = new Cli.DeserializationCommand();
        command.sizeOfEachPayloadInKb = Integer.parseInt(args[0]);
        Config.save(command);
        Deserialization reads = new Deserialization();
        Serialization writes = new Serialization();
        JsonSource<?> source = reads.JSON_SOURCE();
        Object expected = source.nextPojo();
        byte[] json = source.nextByteArray();
        ObjectMapper reference = new ObjectMapper();
        int failures = 0;
        for (String library : Arrays.copyOfRange(args, 1, args.length)) {
            Object read = call(reads, library);
            ByteArrayOutputStream written = (ByteArrayOutputStream) call(writes, library);
            Object readBack = reference.readValue(written.toByteArray(), source.pojoType());
            boolean readOk = expected.equals(read), writeOk = expected.equals(readBack);
            System.out.printf("jjb gate, %d KB (%d bytes): %s reads %s, writes %s%n", command.sizeOfEachPayloadInKb,
                    json.length, library, readOk ? "equal" : "DIFFERENT", writeOk ? "equal" : "DIFFERENT");
            failures += (readOk ? 0 : 1) + (writeOk ? 0 : 1);
        }
        System.exit(failures == 0 ? 0 : 1);
    }

    private static Object call(JsonBench bench, String library) throws Exception {
        Object value = bench.getClass().getMethod(library).invoke(bench);
        if (value == null) {
            throw new IllegalStateException(bench.getClass().getSimpleName() + "." + library + " returned null");
        }
        return value;
    }
}
