// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The datasets of the JVM suites, by name: the 22 files of jsonexamples (documents), two
 * 4,096-record batches of the vehicle feed, and the GH Archive hour (streams).
 *
 * <p>The corpus is at SIMDBRIDGE_DATA (default ../shared/data from the project root); the feed
 * at SIMDBRIDGE_FEED (default build/feed/vehicles.ndjson), written by {@code VehicleFeed}.
 */
public final class Datasets {
    public static final int FEED_BATCH_RECORDS = 4096;
    public static final String GHARCHIVE = "gharchive-2015-01-01-0.ndjson";
    public static final String FEED_BATCH_1 = "vehicles-batch-1";
    public static final String FEED_BATCH_2 = "vehicles-batch-2";

    private Datasets() {}

    public static Path dataDirectory() {
        String env = System.getenv("SIMDBRIDGE_DATA");
        return Path.of(env != null && !env.isEmpty() ? env : "../shared/data");
    }

    public static Path feedFile() {
        String env = System.getenv("SIMDBRIDGE_FEED");
        return Path.of(env != null && !env.isEmpty() ? env : "build/feed/vehicles.ndjson");
    }

    /** Every dataset name, corpus order. */
    public static List<String> names() {
        List<String> names = new ArrayList<>(jsonExampleNames());
        names.add(FEED_BATCH_1);
        names.add(FEED_BATCH_2);
        names.add(GHARCHIVE);
        return names;
    }

    public static List<String> jsonExampleNames() {
        try (Stream<Path> files = Files.list(dataDirectory().resolve("jsonexamples"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("no corpus under " + dataDirectory() + " (SIMDBRIDGE_DATA)", e);
        }
    }

    public static Input load(String name) {
        try {
            return switch (name) {
                case GHARCHIVE -> Input.of(name, true, Files.readAllBytes(dataDirectory().resolve("ndjson").resolve(name)));
                case FEED_BATCH_1 -> Input.of(name, true, feedBatch(0));
                case FEED_BATCH_2 -> Input.of(name, true, feedBatch(1));
                default -> Input.of(name, false, Files.readAllBytes(dataDirectory().resolve("jsonexamples").resolve(name)));
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The index-th batch of FEED_BATCH_RECORDS lines of the feed. */
    public static byte[] feedBatch(int index) throws IOException {
        byte[] feed = Files.readAllBytes(feedFile());
        int start = 0;
        int line = 0;
        int first = -1;
        for (int i = 0; i < feed.length; i++) {
            if (line == index * FEED_BATCH_RECORDS && first < 0) {
                first = start;
            }
            if (feed[i] == '\n') {
                line++;
                start = i + 1;
                if (line == (index + 1) * FEED_BATCH_RECORDS) {
                    return Arrays.copyOfRange(feed, first, start);
                }
            }
        }
        throw new IOException(feedFile() + " has fewer than " + (index + 1) * FEED_BATCH_RECORDS + " records");
    }
}
