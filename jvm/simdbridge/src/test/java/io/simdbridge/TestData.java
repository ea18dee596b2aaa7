// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The shared corpus: SIMDBRIDGE_DATA, or ../../../shared/data from jvm/simdbridge/. */
final class TestData {
    private TestData() {}

    static Path root() {
        String env = System.getenv("SIMDBRIDGE_DATA");
        return Path.of(env != null && !env.isEmpty() ? env : "../../../shared/data");
    }

    static byte[] read(String relative) {
        try {
            return Files.readAllBytes(root().resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Path> jsonExamples() {
        try (Stream<Path> files = Files.list(root().resolve("jsonexamples"))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
