// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where the native library comes from: the jar (here, the classes), or the system property. */
class NativeLibraryTest {
    /** Runs {@link Probe} in a fresh JVM: a library loads once per JVM. */
    static String[] run(String... properties) throws IOException, InterruptedException {
        String javaBinary = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(javaBinary, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path")));
        command.addAll(List.of(properties));
        command.add(Probe.class.getName());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return new String[] {String.valueOf(p.waitFor()), out};
    }

    /** Prints where the library came from and a checksum. */
    public static final class Probe {
        public static void main(String[] args) {
            long checksum = new NativeParser().checksum(PaddedBuffers.padded("[]".getBytes()), 0, 2, Bridge.FFM_HEAP);
            System.out.println(NativeLibrary.SOURCE + " " + Long.toHexString(checksum));
        }
    }

    @Test
    void fromTheJarResources() throws Exception {
        String[] r = run();
        assertEquals("0", r[0], r[1]);
        assertEquals("jar ed128a87f3f843e2", r[1]);
    }

    @Test
    void fromTheSystemProperty() throws Exception {
        Path library = Path.of("target", "classes", NativeLibrary.RESOURCE_DIRECTORY.substring(1), "libsimdbridge_jni.so")
                .toAbsolutePath();
        String[] r = run("-D" + NativeLibrary.PROPERTY + "=" + library);
        assertEquals("0", r[0], r[1]);
        assertEquals(library + " ed128a87f3f843e2", r[1]);
    }

    @Test
    void theJarNamesVersionAndPlatform() {
        assertEquals("/io/simdbridge/native/" + NativeParser.version() + "/linux-x86_64/", NativeLibrary.RESOURCE_DIRECTORY);
        assertEquals("linux-x86_64", NativeLibrary.platform());
    }

    @Test
    void anotherPlatformIsAClearError() throws Exception {
        String[] r = run("-Dos.arch=riscv64");
        assertNotEquals("0", r[0]);
        assertTrue(r[1].contains("carries a native library for linux-x86_64 only, and this is linux-riscv64"), r[1]);
    }

    @Test
    void aWrongPathIsAClearError() throws Exception {
        String[] r = run("-D" + NativeLibrary.PROPERTY + "=/nonexistent/libsimdbridge_jni.so");
        assertNotEquals("0", r[0]);
        assertTrue(r[1].contains("/nonexistent/libsimdbridge_jni.so"), r[1]);
    }
}
