// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * simdbridge's throughput over its peers', measured side by side: all in one JVM, taking turns
 * in slices of {@code sliceMs} (warmed up first; the order of the turns rotates every round), one
 * ratio per round from neighbouring slices, and the median of the ratios with a 95% interval.
 *
 * <p>What it is for: a machine whose speed changes from one second to the next (this one ran at
 * half speed for seconds at a time on 2026-11-30) moves JMH's forks, which time one library after
 * the other, by more than the difference being measured; slices a few hundred milliseconds apart
 * see the same machine. It complements DatabindBenchmark and ScenarioBenchmark (JMH, one library
 * per JVM): here the libraries share a JVM, so code they share (the JDK's) is profiled by both.
 * Comparisons given together share it too, and profile each other's code: make bench runs each in
 * a JVM of its own (bench/databind_suite.py).
 *
 * <pre>java -cp benchmarks.jar io.simdbridge.bench.databind.PairedRatio out.json 100 5 20 \
 *     users:read:1:fastjson2-features users:write:1:fastjson2,fastjson2-features scenario:read:simple:jackson</pre>
 *
 * Arguments: where to write the JSON ({@code -} for none), the slice in ms, the warmup rounds,
 * the measured rounds, then the comparisons: {@code users:read|write:<kb>:<peers>} on the Users
 * payload, {@code scenario:read|write:<scenario>:jackson} on one of the six scenarios. Each
 * prints one line per peer and is written to the JSON as {@code {what, op, subject, pairs,
 * ops_per_s: {library: median}, peers: {peer: {median, ci95: [lo, hi], iqr: [q1, q3]}}}}.
 */
public final class PairedRatio {
    private PairedRatio() {}

    @FunctionalInterface
    interface Op {
        Object run() throws Exception;
    }

    /** One comparison: simdbridge's operation and each peer's, on the same input. */
    record Comparison(String what, String op, String subject, Map<String, Op> libraries) {}

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            throw new IllegalArgumentException("usage: PairedRatio <out.json|-> <slice ms> <warmup rounds> <rounds> <comparison>...");
        }
        long sliceNs = Long.parseLong(args[1]) * 1_000_000L;
        int warmup = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        if (sliceNs <= 0 || warmup < 0 || rounds < 1) {
            throw new IllegalArgumentException("a slice of at least 1 ms and at least one round");
        }
        List<Comparison> comparisons = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            comparisons.add(parse(args[i]));
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Comparison c : comparisons) {
            out.add(measure(c, sliceNs, warmup, rounds));
        }
        if (!args[0].equals("-")) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("slice_ms", sliceNs / 1_000_000);
            doc.put("warmup_rounds", warmup);
            doc.put("rounds", rounds);
            doc.put("comparisons", out);
            Libraries.JACKSON.writerWithDefaultPrettyPrinter().writeValue(new File(args[0]), doc);
        }
    }

    static Comparison parse(String spec) throws Exception {
        String[] p = spec.split(":");
        if (p.length != 4 || !(p[1].equals("read") || p[1].equals("write"))) {
            throw new IllegalArgumentException("not users|scenario:read|write:<kb or scenario>:<peers>: " + spec);
        }
        String op = p[1];
        boolean read = op.equals("read");
        Map<String, Op> libraries = new LinkedHashMap<>();
        if (p[0].equals("users")) {
            int kb = Integer.parseInt(p[2]);
            Users users = UsersGenerator.generate(kb, DatabindGate.SEED);
            byte[] json = Libraries.JACKSON.writeValueAsBytes(users);
            Map<String, Libraries.Reader> readers = Libraries.readers();
            Map<String, Libraries.Writer> writers = Libraries.writers();
            for (String library : libraries("simdbridge", p[3])) {
                if (read) {
                    Libraries.Reader r = readers.get(library);
                    if (r == null) {
                        throw new IllegalArgumentException("no reader " + library);
                    }
                    libraries.put(library, () -> r.read(json));
                } else {
                    Libraries.Writer w = writers.get(library);
                    if (w == null) {
                        throw new IllegalArgumentException("no writer " + library);
                    }
                    libraries.put(library, () -> w.write(users));
                }
            }
            return new Comparison("users", op, kb + " KB", libraries);
        }
        if (p[0].equals("scenario")) {
            Scenarios.Scenario s = Scenarios.all().stream().filter(x -> x.name().equals(p[2])).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no scenario " + p[2]));
            for (String library : libraries("simdbridge", p[3])) {
                switch (library) {
                    case "simdbridge" -> libraries.put(library, read ? s::readSimdbridge : s::writeSimdbridge);
                    case "jackson" -> libraries.put(library, read ? s::readJackson : s::writeJackson);
                    default -> throw new IllegalArgumentException("no library " + library + " in the scenarios (jackson)");
                }
            }
            return new Comparison("scenario", op, p[2], libraries);
        }
        throw new IllegalArgumentException("neither users nor scenario: " + spec);
    }

    private static List<String> libraries(String ours, String peers) {
        List<String> all = new ArrayList<>(List.of(ours));
        for (String peer : peers.split(",")) {
            if (peer.isEmpty() || all.contains(peer)) {
                throw new IllegalArgumentException("peers must be named once each, and not " + ours + ": " + peers);
            }
            all.add(peer);
        }
        return all;
    }

    /** Warmup, then the measured rounds: every library one slice per round, the first turn rotating. */
    static Map<String, Object> measure(Comparison c, long sliceNs, int warmup, int rounds) throws Exception {
        List<String> names = new ArrayList<>(c.libraries().keySet());
        Op[] ops = names.stream().map(c.libraries()::get).toArray(Op[]::new);
        int n = ops.length;
        for (int r = 0; r < warmup; r++) {
            for (Op op : ops) {
                rate(op, sliceNs);
            }
        }
        double[][] rates = new double[n][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < n; k++) {
                int i = (r + k) % n;
                rates[i][r] = rate(ops[i], sliceNs);
            }
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("what", c.what());
        result.put("op", c.op());
        result.put("subject", c.subject());
        result.put("pairs", rounds);
        Map<String, Object> medians = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            medians.put(names.get(i), median(rates[i].clone()));
        }
        result.put("ops_per_s", medians);
        Map<String, Object> peers = new LinkedHashMap<>();
        for (int i = 1; i < n; i++) {
            double[] ratios = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                ratios[r] = rates[0][r] / rates[i][r];
            }
            Map<String, Object> s = summary(ratios);
            peers.put(names.get(i), s);
            double[] ci = (double[]) s.get("ci95");
            System.out.printf("%s %s %s, simdbridge / %s: median %.3f, 95%% interval %.3f .. %.3f (%d rounds of %d ms slices); "
                            + "median ops/s: simdbridge %.0f, %s %.0f%n", c.what(), c.op(), c.subject(), names.get(i),
                    s.get("median"), ci[0], ci[1], rounds, sliceNs / 1_000_000, medians.get(names.get(0)), names.get(i),
                    medians.get(names.get(i)));
        }
        result.put("peers", peers);
        return result;
    }

    /**
     * The median of the ratios, its interquartile range, and a 95% interval for the median that
     * assumes nothing of their distribution: the order statistics k and n + 1 - k, for the largest
     * k with P(Binomial(n, 1/2) < k) at most 2.5% (for n below 6 none exists: the extremes).
     */
    static Map<String, Object> summary(double[] ratios) {
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        int k = medianRank(n);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("median", median(sorted));
        s.put("ci95", new double[] {sorted[k - 1], sorted[n - k]});
        s.put("iqr", new double[] {quantile(sorted, 0.25), quantile(sorted, 0.75)});
        return s;
    }

    /** The largest k (at least 1) with P(X < k) <= 0.025 for X ~ Binomial(n, 1/2). */
    static int medianRank(int n) {
        double below = 0; // P(X < k), built up one term at a time
        double term = Math.pow(0.5, n); // P(X = 0)
        int k = 1;
        for (int j = 0; j < n; j++) {
            below += term; // now P(X <= j) = P(X < j + 1)
            if (below > 0.025) {
                break;
            }
            k = j + 1;
            term = term * (n - j) / (j + 1);
        }
        return Math.max(1, Math.min(k, (n + 1) / 2));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return quantile(sorted, 0.5);
    }

    private static Object sink;

    /** Operations per second over one slice. */
    private static double rate(Op op, long sliceNs) throws Exception {
        long start = System.nanoTime(), end = start + sliceNs, now;
        long n = 0;
        do {
            for (int i = 0; i < 16; i++) {
                sink = op.run();
            }
            n += 16;
            now = System.nanoTime();
        } while (now < end);
        return n * 1e9 / (now - start);
    }

    private static double quantile(double[] sorted, double q) {
        double at = q * (sorted.length - 1);
        int lo = (int) Math.floor(at), hi = (int) Math.ceil(at);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
    }
}
