// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.simdbridge.bench.databind.DatabindGate;
import io.simdbridge.bench.databind.Users;
import io.simdbridge.bench.databind.UsersGenerator;
import io.simdbridge.bench.jmh.VirtualThreadBenchmark;
import org.junit.jupiter.api.Test;

/** Every library of the virtual-thread benchmark reads the payload, on each of its threads. */
class VirtualThreadBenchmarkTest {
    @Test
    void eachReadOnItsOwnVirtualThreadIsThePayload() throws Exception {
        Users expected = UsersGenerator.generate(1, DatabindGate.SEED);
        for (String library : new String[] {"simdbridge", "jackson", "fastjson2", "fastjson2-features"}) {
            VirtualThreadBenchmark b = new VirtualThreadBenchmark();
            b.kb = 1;
            b.library = library;
            b.setup();
            for (Object read : (Object[]) b.read()) {
                assertEquals(expected, read, library);
            }
        }
    }

    @Test
    void anUnknownLibraryIsRefused() {
        VirtualThreadBenchmark b = new VirtualThreadBenchmark();
        b.kb = 1;
        b.library = "none";
        assertThrows(IllegalArgumentException.class, b::setup);
    }
}
