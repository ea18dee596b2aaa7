// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The test vectors of the checksum contract, read from docs/checksum.md (the one place they are
 * written): the table's rows in order, and the stream vector. Shared with the benchmarks' tests
 * (jvm/jmh) through this module's test jar.
 */
public final class ChecksumSpec {
    private static final Pattern ROW = Pattern.compile("^\\| `(.+?)` \\| `([0-9a-f]{16})` \\|$", Pattern.MULTILINE);
    private static final Pattern STREAM = Pattern.compile("^Stream `(.+?)` .*?: `([0-9a-f]{16})`", Pattern.MULTILINE);

    /** JSON text to its checksum in hex, in the table's order. */
    public static final Map<String, String> VECTORS;
    /** The stream vector: its text (the table's \n made newlines) and its checksum in hex. */
    public static final List<String> STREAM_VECTOR;

    static {
        // From the module's directory (jvm/simdbridge, jvm/jmh): the repository's docs/.
        Path spec = Path.of("..", "..", "docs", "checksum.md");
        String text;
        try {
            text = Files.readString(spec, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the checksum contract is not at " + spec.toAbsolutePath(), e);
        }
        Map<String, String> rows = new LinkedHashMap<>();
        for (Matcher m = ROW.matcher(text); m.find();) {
            rows.put(m.group(1), m.group(2));
        }
        Matcher s = STREAM.matcher(text);
        if (rows.size() < 15 || !s.find()) {
            throw new IllegalStateException("the test vectors' table was not found in " + spec.toAbsolutePath());
        }
        VECTORS = java.util.Collections.unmodifiableMap(rows);
        STREAM_VECTOR = List.of(s.group(1).replace("\\n", "\n"), s.group(2));
    }

    private ChecksumSpec() {}
}
