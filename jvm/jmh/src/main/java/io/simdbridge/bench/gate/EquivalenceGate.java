// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.gate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.simdbridge.Bridge;
import io.simdbridge.bench.data.Datasets;
import io.simdbridge.bench.data.Input;
import io.simdbridge.bench.engines.Engine;
import io.simdbridge.bench.engines.Engines;
import io.simdbridge.bench.feed.Listing;
import io.simdbridge.bench.pipeline.JacksonStreamPipeline;
import io.simdbridge.bench.pipeline.JacksonTreePipeline;
import io.simdbridge.bench.pipeline.NativeExtractPipeline;
import io.simdbridge.bench.pipeline.Pipeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fairness contract, before anything is timed: every engine's checksum of every dataset
 * (the 22 files of jsonexamples, two vehicle-feed batches, the GH Archive hour) must be the same,
 * and the ingestion pipelines must produce equal lists of listings. Writes
 * {@code equivalence.json}; exits with 1 when anything disagrees or an engine refuses a dataset.
 *
 * <pre>java -cp benchmarks.jar io.simdbridge.bench.gate.EquivalenceGate RESULTS_DIR</pre>
 */
public final class EquivalenceGate {
    private EquivalenceGate() {}

    /** What the gate found. */
    public record Report(List<Map<String, Object>> datasets, List<Map<String, Object>> pipelines, boolean passed) {}

    public static void main(String[] args) throws Exception {
        Path results = Path.of(args.length > 0 ? args[0] : "results");
        Report report = run(Datasets.names());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("passed", report.passed());
        json.put("engines", Engines.ALL.stream().map(Engine::name).toList());
        json.put("datasets", report.datasets());
        json.put("pipelines", report.pipelines());
        Files.createDirectories(results);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(results.resolve("equivalence.json").toFile(), json);
        int agree = (int) report.datasets().stream().filter(d -> Boolean.TRUE.equals(d.get("agree"))).count();
        System.out.println("equivalence gate: " + agree + "/" + report.datasets().size() + " datasets agree across "
                + Engines.ALL.size() + " engines; pipelines " + (report.pipelines().stream()
                .allMatch(p -> Boolean.TRUE.equals(p.get("lists_equal"))) ? "equal" : "DIFFER"));
        if (!report.passed()) {
            for (Map<String, Object> d : report.datasets()) {
                if (!Boolean.TRUE.equals(d.get("agree"))) {
                    System.out.println("  DISAGREE " + d.get("name") + ": " + d.get("checksums"));
                }
            }
            System.exit(1);
        }
    }

    public static Report run(List<String> names) throws Exception {
        boolean passed = true;
        List<Map<String, Object>> datasets = new ArrayList<>();
        for (String name : names) {
            Input in = Datasets.load(name);
            Map<String, String> checksums = new LinkedHashMap<>();
            for (Engine e : Engines.ALL) {
                try {
                    long h = in.stream() ? e.checksumStream(in) : e.checksum(in);
                    checksums.put(e.name(), HexFormat.of().toHexDigits(h));
                } catch (RuntimeException ex) {
                    checksums.put(e.name(), "refused: " + ex);
                }
            }
            boolean agree = checksums.values().stream().distinct().count() == 1
                    && !checksums.values().iterator().next().startsWith("refused");
            passed &= agree;
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("name", name);
            d.put("bytes", in.length());
            d.put("stream", in.stream());
            d.put("agree", agree);
            d.put("checksums", checksums);
            datasets.add(d);
        }
        List<Map<String, Object>> pipelines = new ArrayList<>();
        for (String name : names) {
            if (!name.startsWith("vehicles-batch")) {
                continue;
            }
            Input batch = Datasets.load(name);
            List<Pipeline> all = List.of(new JacksonTreePipeline(), new JacksonStreamPipeline(),
                    new NativeExtractPipeline(Bridge.JNI_DIRECT, Datasets.FEED_BATCH_RECORDS),
                    new NativeExtractPipeline(Bridge.FFM_DIRECT, Datasets.FEED_BATCH_RECORDS));
            List<Listing> expected = all.get(0).run(batch);
            boolean equal = true;
            Map<String, Integer> sizes = new LinkedHashMap<>();
            for (Pipeline p : all) {
                List<Listing> got = p.run(batch);
                sizes.put(p.name(), got.size());
                equal &= got.equals(expected);
            }
            passed &= equal;
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("batch", name);
            entry.put("records", Datasets.FEED_BATCH_RECORDS);
            entry.put("valid_listings", sizes);
            entry.put("lists_equal", equal);
            pipelines.add(entry);
        }
        return new Report(datasets, pipelines, passed);
    }
}
