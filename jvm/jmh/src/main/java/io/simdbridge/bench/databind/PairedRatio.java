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
 *     beans:read:1:fastjson2-features beans:write:jjb100:fastjson2,fastjson2-features:2t \
 *     scenario:read:simple:jackson</pre>
 *
 * Arguments: where to write the JSON ({@code -} for none), the slice in ms, the warmup rounds,
 * the measured rounds, then the comparisons: {@code users:read|write|write-stream:<kb>:<peers>}
 * on the Users payload in the public-field model, {@code beans:...} the same in the bean model
 * (write-stream: to a ByteArrayOutputStream kept per thread, as java-json-benchmark writes;
 * {@code jjb1}, {@code jjb100} in place of the size: the payload shaped as java-json-benchmark
 * makes it, see UsersGenerator.generateJjb), each optionally on {@code :<n>t} threads at once
 * (every library's slice run by n threads together, their rates added);
 * {@code scenario:read|write:<scenario>:jackson} on one of the six scenarios. Each prints one
 * line per peer and is written to the JSON as {@code {what, op, subject, threads, pairs,
 * ops_per_s: {library: median}, peers: {peer: {median, ci95: [lo, hi], iqr: [q1, q3]}}}}.
 */
public final class PairedRatio {
    private PairedRatio() {}

    @FunctionalInterface
    interface Op {
        Object run() throws Exception;
    }

    /** One comparison: simdbridge's operation and each peer's, on the same input. */
    record Comparison(String what, String op, String subject, int threads, Map<String, Op> libraries) {}

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

    /**
     * Not a library: the first stage of simdbridge's read alone, the native parse into the binding
     * tape (what Json.read does before it builds any object), so that the suite can give each
     * stage's time per document.
     */
    static final String BINDING_TAPE = "simdbridge-tape";
    /**
     * Not a library either, in a beans: comparison: simdbridge reading and writing the same JSON
     * through the public-field model, so that the bean path is measured against the field path.
     */
    static final String FIELDS = "simdbridge-fields";

    private static Libraries.Reader tapeOnly(byte[] json, Class<?> type) {
        ThreadLocal<Object[]> arrays = ThreadLocal.withInitial(
                () -> new Object[] {io.simdbridge.NativeParser.forCurrentThread(), new long[2 * json.length + 64], new byte[json.length + 64]});
        // With the binding plan the read uses (the keys of matching objects checked natively, left off the tape).
        java.lang.foreign.MemorySegment plan = io.simdbridge.internal.ParserInternals.planOf(type);
        io.simdbridge.internal.ParserInternals.Access access = io.simdbridge.internal.ParserInternals.get();
        return bytes -> {
            Object[] a = arrays.get();
            io.simdbridge.NativeParser parser = (io.simdbridge.NativeParser) a[0];
            int written = plan != null ? access.bindingTapePlanned(parser, plan, bytes, 0, bytes.length, (long[]) a[1], (byte[]) a[2])
                    : access.bindingTape(parser, bytes, 0, bytes.length, (long[]) a[1], (byte[]) a[2]) ? 0 : -1;
            if (written < 0) { // (where the document does not follow the plan, nor does the read: both walk twice)
                throw new IllegalStateException("the tape did not fit");
            }
            return a[1];
        };
    }

    static Comparison parse(String spec) throws Exception {
        String[] p = spec.split(":");
        if (p.length < 4 || p.length > 5 || !(p[1].equals("read") || p[1].equals("write") || p[1].equals("write-stream"))
                || (p.length == 5 && !p[4].matches("[1-9][0-9]*t"))) {
            throw new IllegalArgumentException(
                    "not users|beans|scenario:read|write|write-stream:<kb or scenario>:<peers>[:<threads>t]: " + spec);
        }
        int threads = p.length == 5 ? Integer.parseInt(p[4].substring(0, p[4].length() - 1)) : 1;
        String op = p[1];
        boolean read = op.equals("read");
        Map<String, Op> libraries = new LinkedHashMap<>();
        if (p[0].equals("users") || p[0].equals("beans")) {
            boolean jjb = p[2].startsWith("jjb");
            int kb = Integer.parseInt(jjb ? p[2].substring(3) : p[2]);
            Libraries.Model model = p[0].equals("users") ? Libraries.Model.FIELDS : Libraries.Model.BEANS;
            Users generated = jjb ? UsersGenerator.generateJjb(kb, DatabindGate.SEED) : UsersGenerator.generate(kb, DatabindGate.SEED);
            Object users = model.of(generated);
            byte[] json = Libraries.JACKSON.writeValueAsBytes(generated);
            Map<String, Libraries.Reader> readers = Libraries.readers(model);
            Map<String, Libraries.Writer> writers = Libraries.writers(model);
            Map<String, Libraries.StreamWriter> streams = Libraries.streamWriters(model);
            if (model == Libraries.Model.BEANS) { // the bean path beside the field path, on the same JSON
                readers.put(FIELDS, Libraries.readers(Libraries.Model.FIELDS).get("simdbridge"));
                Libraries.Writer fields = Libraries.writers(Libraries.Model.FIELDS).get("simdbridge");
                writers.put(FIELDS, value -> fields.write(generated));
                Libraries.StreamWriter fieldStream = Libraries.streamWriters(Libraries.Model.FIELDS).get("simdbridge");
                streams.put(FIELDS, (value, out) -> fieldStream.write(generated, out));
            }
            for (String library : libraries("simdbridge", p[3])) {
                switch (op) {
                    case "read" -> {
                        Libraries.Reader r = library.equals(BINDING_TAPE) ? tapeOnly(json, users.getClass()) : readers.get(library);
                        if (r == null) {
                            throw new IllegalArgumentException("no reader " + library);
                        }
                        libraries.put(library, () -> r.read(json));
                    }
                    case "write" -> {
                        Libraries.Writer w = writers.get(library);
                        if (w == null) {
                            throw new IllegalArgumentException("no writer " + library);
                        }
                        libraries.put(library, () -> w.write(users));
                    }
                    default -> {
                        Libraries.StreamWriter w = streams.get(library);
                        if (w == null) {
                            throw new IllegalArgumentException("no writer " + library);
                        }
                        libraries.put(library, () -> {
                            java.io.ByteArrayOutputStream out = Libraries.threadStream();
                            w.write(users, out);
                            return out;
                        });
                    }
                }
            }
            return new Comparison(p[0], op, (jjb ? "jjb " : "") + kb + " KB", threads, libraries);
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
            return new Comparison("scenario", op, p[2], threads, libraries);
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
                rate(op, sliceNs, c.threads());
            }
        }
        double[][] rates = new double[n][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < n; k++) {
                int i = (r + k) % n;
                rates[i][r] = rate(ops[i], sliceNs, c.threads());
            }
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("what", c.what());
        result.put("op", c.op());
        result.put("subject", c.subject());
        result.put("threads", c.threads());
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
            System.out.printf("%s %s %s, %d thread%s, simdbridge / %s: median %.3f, 95%% interval %.3f .. %.3f (%d rounds of %d ms "
                            + "slices); median ops/s: simdbridge %.0f, %s %.0f%n", c.what(), c.op(), c.subject(), c.threads(),
                    c.threads() == 1 ? "" : "s", names.get(i),
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

    /**
     * Operations per second over one slice, on {@code threads} threads at once (their operations
     * added up): the threads start together and each stops at the slice's end.
     */
    private static double rate(Op op, long sliceNs, int threads) throws Exception {
        if (threads == 1) {
            return rate(op, sliceNs);
        }
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
        double[] rates = new double[threads];
        Exception[] failure = new Exception[1];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int me = t;
            workers[t] = new Thread(() -> {
                try {
                    start.await();
                    rates[me] = rate(op, sliceNs);
                } catch (Exception e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                }
            });
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        double total = 0;
        for (double r : rates) {
            total += r;
        }
        return total;
    }

    /** Operations per second over one slice, on this thread. */
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
