// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data-binding equivalence gate: on every Users payload and in both models (public fields,
 * beans), each library's reader must give objects equal to the generated ones, and what each
 * writer writes (to bytes and to a stream) must read back (through Jackson) to equal objects; the six scenarios likewise for simdbridge and Jackson. Writes a
 * JSON report (through Jackson, as the engines' gate does); exits 1 on any difference, so that
 * make bench measures nothing.
 *
 * <pre>java -cp benchmarks.jar io.simdbridge.bench.databind.DatabindGate results/databind_equivalence.json</pre>
 */
public final class DatabindGate {
    public static final int[] SIZES_KB = {1, 10, 100, 1000};
    public static final long SEED = 20261129L;

    private DatabindGate() {}

    private interface Check {
        boolean equal() throws Exception;
    }

    private static String outcome(Check c) {
        try {
            return c.equal() ? "equal" : "DIFFERENT";
        } catch (Exception e) {
            return "FAILED: " + e;
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> problems = new ArrayList<>();
        List<Map<String, Object>> payloads = new ArrayList<>();
        for (int kb : SIZES_KB) {
            Users users = UsersGenerator.generate(kb, SEED);
            byte[] json = Libraries.JACKSON.writeValueAsBytes(users);
            Map<String, String> outcome = new LinkedHashMap<>();
            for (Libraries.Model model : Libraries.Model.values()) {
                Object expected = model.of(users);
                if (!Arrays.equals(json, Libraries.JACKSON.writeValueAsBytes(expected))) {
                    problems.add(kb + " KB: Jackson writes the " + model.id() + " model differently");
                }
                for (Map.Entry<String, Libraries.Reader> r : Libraries.readers(model).entrySet()) {
                    outcome.put(model.id() + "/read/" + r.getKey(), outcome(() -> expected.equals(r.getValue().read(json))));
                }
                Map<String, Libraries.Writer> writers = new LinkedHashMap<>();
                Libraries.writers(model).forEach((name, w) -> writers.put("write/" + name, w));
                Libraries.streamWriters(model).forEach((name, w) -> writers.put("write-stream/" + name, Libraries.viaStream(w)));
                for (Map.Entry<String, Libraries.Writer> w : writers.entrySet()) {
                    outcome.put(model.id() + "/" + w.getKey(), outcome(
                            () -> expected.equals(Libraries.JACKSON.readValue(w.getValue().write(expected), model.type))));
                }
            }
            outcome.forEach((what, result) -> {
                if (!result.equals("equal")) {
                    problems.add(kb + " KB " + what + ": " + result);
                }
            });
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("kilobytes", kb);
            payload.put("bytes", json.length);
            payload.put("users", users.users.size());
            payload.put("sha256", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json)));
            payload.put("outcomes", outcome);
            payloads.add(payload);
        }
        Map<String, String> scenarios = new LinkedHashMap<>();
        for (Scenarios.Scenario s : Scenarios.all()) {
            String what;
            try {
                what = s.check();
            } catch (Exception e) {
                what = "FAILED: " + e;
            }
            scenarios.put(s.name(), what);
            if (!what.equals("equal")) {
                problems.add("scenario " + s.name() + ": " + what);
            }
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("payloads", payloads);
        report.put("scenarios", scenarios);
        report.put("problems", problems);
        if (args.length > 0) {
            Libraries.JACKSON.writer(SerializationFeature.INDENT_OUTPUT).writeValue(Path.of(args[0]).toFile(), report);
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("databind gate: " + p));
            System.exit(1);
        }
        System.out.println("databind gate: every library agrees on every payload and scenario");
    }
}
