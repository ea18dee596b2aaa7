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
import java.util.Properties;

/**
 * Loads the native library once: from the path in the system property
 * {@code simdbridge.library.path}, else from {@code java.library.path}, else extracted from the
 * jar, where it is kept under {@code io/simdbridge/native/VERSION/OS-ARCH/} with the libsimdjson
 * it needs beside it, into a new temporary directory only this user can read (deleted at exit).
 * A platform the jar has no library for is an UnsatisfiedLinkError that says which it has.
 */
final class NativeLibrary {
    static final String PROPERTY = "simdbridge.library.path";
    private static final String NAME = "simdbridge_jni";
    private static final Properties BUILD = buildProperties();
    /** The platform the jar's library was built for (the build writes it: build.properties). */
    static final String JAR_PLATFORM = BUILD.getProperty("platform", "?");
    static final String RESOURCE_DIRECTORY = "/io/simdbridge/native/" + BUILD.getProperty("version", "?") + "/"
            + JAR_PLATFORM + "/";
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

    /** This JVM's platform as the jar names it: OS-ARCH, e.g. linux-x86_64, linux-aarch64, macos-x86_64. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        os = os.contains("linux") ? "linux" : os.contains("mac") ? "macos" : os.contains("windows") ? "windows"
                : os.replaceAll("[^a-z0-9]", "");
        arch = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch.replaceAll("[^a-z0-9_]", "");
        };
        return os + "-" + arch;
    }

    private static Properties buildProperties() {
        Properties p = new Properties();
        try (InputStream in = NativeLibrary.class.getResourceAsStream("/io/simdbridge/internal/build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // Left empty: the jar's library is then not found, and the error says where it looked.
        }
        return p;
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
        String platform = platform();
        if (!platform.equals(JAR_PLATFORM)) {
            failures.add("this jar carries a native library for " + JAR_PLATFORM + " only, and this is " + platform
                    + " (" + System.getProperty("os.name") + ", " + System.getProperty("os.arch") + ")");
            throw new UnsatisfiedLinkError("simdbridge: no native library: " + String.join("; ", failures));
        }
        try {
            // On POSIX file systems the directory is made readable by its owner only.
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
