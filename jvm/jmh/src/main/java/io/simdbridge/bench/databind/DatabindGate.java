// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data-binding equivalence gate: on every Users payload, each library's reader must give
 * objects equal to the generated ones, and what each writer writes must read back (through
 * Jackson) to equal objects; the six scenarios likewise for simdbridge and Jackson. Writes a
 * JSON report; exits 1 on any difference, so that make bench measures nothing.
 *
 * <pre>java -cp benchmarks.jar io.simdbridge.bench.databind.DatabindGate results/databind_equivalence.json</pre>
 */
public final class DatabindGate {
    public static final int[] SIZES_KB = {1, 10, 100, 1000};
    public static final long SEED = 20261129L;

    private DatabindGate() {}

    public static void main(String[] args) throws Exception {
        List<String> problems = new ArrayList<>();
        StringBuilder report = new StringBuilder("{\n  \"payloads\": [");
        for (int k = 0; k < SIZES_KB.length; k++) {
            int kb = SIZES_KB[k];
            Users users = UsersGenerator.generate(kb, SEED);
            byte[] json = Libraries.JACKSON.writeValueAsBytes(users);
            Map<String, String> outcome = new LinkedHashMap<>();
            for (Map.Entry<String, Libraries.Reader> r : Libraries.readers().entrySet()) {
                String what;
                try {
                    what = users.equals(r.getValue().read(json)) ? "equal" : "DIFFERENT";
                } catch (Exception e) {
                    what = "FAILED: " + e;
                }
                outcome.put("read/" + r.getKey(), what);
            }
            for (Map.Entry<String, Libraries.Writer> w : Libraries.writers().entrySet()) {
                String what;
                try {
                    byte[] out = w.getValue().write(users);
                    what = users.equals(Libraries.JACKSON.readValue(out, Users.class)) ? "equal" : "DIFFERENT";
                } catch (Exception e) {
                    what = "FAILED: " + e;
                }
                outcome.put("write/" + w.getKey(), what);
            }
            report.append(k > 0 ? "," : "").append("\n    {\"kilobytes\": ").append(kb).append(", \"bytes\": ")
                    .append(json.length).append(", \"users\": ").append(users.users.size()).append(", \"sha256\": \"")
                    .append(sha256(json)).append("\", \"outcomes\": {");
            int i = 0;
            for (Map.Entry<String, String> e : outcome.entrySet()) {
                report.append(i++ > 0 ? ", " : "").append('"').append(e.getKey()).append("\": \"")
                        .append(e.getValue().replace("\\", "\\\\").replace("\"", "'")).append('"');
                if (!e.getValue().equals("equal")) {
                    problems.add(kb + " KB " + e.getKey() + ": " + e.getValue());
                }
            }
            report.append("}}");
        }
        report.append("\n  ],\n  \"scenarios\": {");
        int i = 0;
        for (Scenarios.Scenario s : Scenarios.all()) {
            String what;
            try {
                what = s.check();
            } catch (Exception e) {
                what = "FAILED: " + e;
            }
            report.append(i++ > 0 ? ", " : "").append('"').append(s.name()).append("\": \"")
                    .append(what.replace("\\", "\\\\").replace("\"", "'")).append('"');
            if (!what.equals("equal")) {
                problems.add("scenario " + s.name() + ": " + what);
            }
        }
        report.append("},\n  \"problems\": [");
        for (int p = 0; p < problems.size(); p++) {
            report.append(p > 0 ? ", " : "").append('"').append(problems.get(p).replace("\\", "\\\\").replace("\"", "'")).append('"');
        }
        report.append("]\n}\n");
        if (args.length > 0) {
            Files.writeString(Path.of(args[0]), report.toString(), StandardCharsets.UTF_8);
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("databind gate: " + p));
            System.exit(1);
        }
        System.out.println("databind gate: every library agrees on every payload and scenario");
    }

    static String sha256(byte[] b) throws Exception {
        byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(b);
        StringBuilder sb = new StringBuilder();
        for (byte x : d) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }
}
