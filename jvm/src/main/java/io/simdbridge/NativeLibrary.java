// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads the native library once: from the path in the system property
 * {@code simdbridge.library.path}, else from {@code java.library.path}, else extracted from the
 * jar ({@code /native/linux-x86_64/}, with the libsimdjson it needs beside it).
 */
final class NativeLibrary {
    static final String PROPERTY = "simdbridge.library.path";
    private static final String NAME = "simdbridge_jni";
    private static final String RESOURCE_DIRECTORY = "/native/linux-x86_64/";
    private static final String[] RESOURCES = {"libsimdjson.so.14", "lib" + NAME + ".so"};

    /** Where the library was loaded from, for diagnostics. */
    static final String SOURCE = load();

    private NativeLibrary() {}

    /** Loads the library (idempotent); throws UnsatisfiedLinkError with every attempt's reason. */
    static void ensureLoaded() {
        if (SOURCE == null) {
            throw new IllegalStateException("unreachable");
        }
    }

    private static String load() {
        List<String> failures = new ArrayList<>();
        String explicit = System.getProperty(PROPERTY);
        if (explicit != null && !explicit.isEmpty()) {
            System.load(Path.of(explicit).toAbsolutePath().toString());
            return explicit;
        }
        try {
            System.loadLibrary(NAME);
            return "java.library.path";
        } catch (UnsatisfiedLinkError e) {
            failures.add("java.library.path: " + e.getMessage());
        }
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            failures.add("the jar carries linux-x86_64 only; this is " + os + "/" + arch);
            throw new UnsatisfiedLinkError("simdbridge: no native library: " + String.join("; ", failures));
        }
        try {
            Path directory = Files.createTempDirectory("simdbridge-");
            directory.toFile().deleteOnExit();
            Path library = null;
            for (String name : RESOURCES) {
                try (InputStream in = NativeLibrary.class.getResourceAsStream(RESOURCE_DIRECTORY + name)) {
                    if (in == null) {
                        throw new IOException(RESOURCE_DIRECTORY + name + " is not in the jar");
                    }
                    Path target = directory.resolve(name);
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                    target.toFile().deleteOnExit();
                    library = target;
                }
            }
            // The library's RUNPATH is $ORIGIN: it finds the libsimdjson extracted beside it.
            System.load(library.toString());
            return "jar";
        } catch (IOException | UnsatisfiedLinkError e) {
            failures.add("jar: " + e.getMessage());
            throw new UnsatisfiedLinkError("simdbridge: no native library: " + String.join("; ", failures));
        }
    }
}
