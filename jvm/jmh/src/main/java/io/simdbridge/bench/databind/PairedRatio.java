// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import java.io.File;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
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
 * Arguments: where to write the JSON ({@code -} for none), the slice in ms, the warmup rounds
 * (at least; {@code n+m}: at most m more, see measure), the measured rounds, then the
 * comparisons: {@code users:read|write|write-stream:<kb>:<peers>} on the Users payload in the
 * public-field model, {@code beans:...} the same in the bean model
 * (write-stream: to a ByteArrayOutputStream kept per thread, as java-json-benchmark writes;
 * {@code jjb1}, {@code jjb100} in place of the size: the payload shaped as java-json-benchmark
 * makes it, see UsersGenerator.generateJjb), each optionally on {@code :<n>t} threads at once
 * (every library's slice run by n threads together, their rates added);
 * {@code scenario:read|write:<scenario>:jackson} on one of the six scenarios. Each prints one
 * line per peer and is written to the JSON as {@code {what, op, subject, threads, pairs,
 * warmup_rounds, steady, jit_ms_while_measured, ops_per_s: {library: median}, rates: {library:
 * [per round]}, peers: {peer: {median, ci95: [lo, hi], iqr: [q1, q3], ratios: [per round]}}}}.
 * {@code PairedRatio merge out.json in.json...} pools the runs of several JVMs (see merge).
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
        if (args.length > 0 && args[0].equals("merge")) {
            merge(args);
            return;
        }
        if (args.length < 5) {
            throw new IllegalArgumentException(
                    "usage: PairedRatio <out.json|-> <slice ms> <warmup rounds[+most extra]> <rounds> <comparison>...");
        }
        long sliceNs = Long.parseLong(args[1]) * 1_000_000L;
        String[] w = args[2].split("\\+", -1);
        int warmup = Integer.parseInt(w[0]);
        int extra = w.length > 1 ? Integer.parseInt(w[1]) : MAX_EXTRA_WARMUP;
        int rounds = Integer.parseInt(args[3]);
        if (sliceNs <= 0 || warmup < 0 || extra < 0 || w.length > 2 || rounds < 1) {
            throw new IllegalArgumentException("a slice of at least 1 ms, a warmup of n or n+m rounds, and at least one round");
        }
        List<Comparison> comparisons = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            comparisons.add(parse(args[i]));
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Comparison c : comparisons) {
            out.add(measure(c, sliceNs, warmup, extra, rounds));
        }
        if (!args[0].equals("-")) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("slice_ms", sliceNs / 1_000_000);
            doc.put("warmup_rounds", warmup);
            doc.put("most_extra_warmup_rounds", extra);
            doc.put("rounds", rounds);
            doc.put("comparisons", out);
            Libraries.JACKSON.writerWithDefaultPrettyPrinter().writeValue(new File(args[0]), doc);
        }
    }

    /**
     * {@code merge <out.json> <in.json>...}: the same comparisons run in several JVMs (forks),
     * their rounds pooled as if one run had made them all, each peer's median and interval taken
     * over the pooled ratios (and each fork's median kept beside them). A JVM can run one library
     * slower than the others for its whole life (on two threads here, fastjson2's readers in some
     * JVMs and simdbridge's in others, at 0.7x of their speed in the rest): one JVM's rounds
     * cannot show that, and its interval would leave it out.
     */
    @SuppressWarnings("unchecked")
    static void merge(String[] args) throws Exception {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: PairedRatio merge <out.json> <in.json>...");
        }
        List<Map<String, Object>> forks = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            forks.add(Libraries.JACKSON.readValue(new File(args[i]), Map.class));
        }
        List<Map<String, Object>> first = (List<Map<String, Object>>) forks.get(0).get("comparisons");
        List<Map<String, Object>> merged = new ArrayList<>();
        for (int j = 0; j < first.size(); j++) {
            Map<String, Object> c = first.get(j);
            List<Map<String, Object>> runs = new ArrayList<>();
            for (Map<String, Object> f : forks) {
                Map<String, Object> run = ((List<Map<String, Object>>) f.get("comparisons")).get(j);
                for (String key : IDENTITY) {
                    if (!run.get(key).equals(c.get(key))) {
                        throw new IllegalArgumentException("the forks ran different comparisons: " + run.get(key) + ", " + c.get(key));
                    }
                }
                runs.add(run);
            }
            Map<String, Object> result = new LinkedHashMap<>();
            for (String key : IDENTITY) {
                result.put(key, c.get(key));
            }
            result.put("forks", runs.size());
            result.put("pairs", runs.stream().mapToInt(r -> ((Number) r.get("pairs")).intValue()).sum());
            result.put("warmup_rounds", runs.stream().map(r -> r.get("warmup_rounds")).toList());
            result.put("steady", runs.stream().map(r -> r.get("steady")).toList());
            result.put("jit_ms_while_measured", runs.stream().map(r -> r.get("jit_ms_while_measured")).toList());
            Map<String, Object> medians = new LinkedHashMap<>();
            Map<String, Object> rates = new LinkedHashMap<>();
            for (String library : ((Map<String, Object>) c.get("rates")).keySet()) {
                double[] pooled = pool(runs, r -> ((Map<String, Object>) r.get("rates")).get(library));
                medians.put(library, median(pooled));
                rates.put(library, pooled);
            }
            result.put("ops_per_s", medians);
            result.put("rates", rates);
            Map<String, Object> peers = new LinkedHashMap<>();
            for (String peer : ((Map<String, Object>) c.get("peers")).keySet()) {
                java.util.function.Function<Map<String, Object>, Map<String, Object>> of =
                        r -> (Map<String, Object>) ((Map<String, Object>) r.get("peers")).get(peer);
                double[] pooled = pool(runs, r -> of.apply(r).get("ratios"));
                Map<String, Object> s = summary(pooled);
                s.put("fork_medians", runs.stream().map(r -> ((Number) of.apply(r).get("median")).doubleValue()).toList());
                s.put("ratios", pooled);
                peers.put(peer, s);
                double[] ci = (double[]) s.get("ci95");
                System.out.printf("%s over %d JVM%s: median %.3f, 95%% interval %.3f .. %.3f; each JVM's median %s%n",
                        heading(c.get("what"), c.get("op"), c.get("subject"), ((Number) c.get("threads")).intValue(), peer),
                        runs.size(), runs.size() == 1 ? "" : "s", s.get("median"), ci[0], ci[1],
                        ((List<?>) s.get("fork_medians")).stream().map(m -> String.format("%.3f", m)).toList());
            }
            result.put("peers", peers);
            merged.add(result);
        }
        Map<String, Object> doc = new LinkedHashMap<>(forks.get(0));
        doc.put("rounds", forks.stream().mapToInt(f -> ((Number) f.get("rounds")).intValue()).sum());
        doc.put("forks", forks.size());
        doc.put("comparisons", merged);
        Libraries.JACKSON.writerWithDefaultPrettyPrinter().writeValue(new File(args[1]), doc);
    }

    /** What names a comparison in the JSON: runs of it in several JVMs agree on these. */
    private static final List<String> IDENTITY = List.of("what", "op", "subject", "threads");

    /** How a printed result starts: "users read 1 KB, 2 threads, simdbridge / jackson". */
    private static String heading(Object what, Object op, Object subject, int threads, String peer) {
        return String.format("%s %s %s, %d thread%s, simdbridge / %s", what, op, subject, threads, threads == 1 ? "" : "s", peer);
    }

    /** The values of every run, one after the other. */
    private static double[] pool(List<Map<String, Object>> runs, java.util.function.Function<Map<String, Object>, Object> values) {
        List<Double> all = new ArrayList<>();
        for (Map<String, Object> r : runs) {
            for (Object v : (List<?>) values.apply(r)) {
                all.add(((Number) v).doubleValue());
            }
        }
        return all.stream().mapToDouble(Double::doubleValue).toArray();
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

    /**
     * Not a library: the document's string values made into Strings and nothing else (no
     * parsing, no objects but an array to hold them), each with the JDK's one-copy constructor
     * from its bytes. Every binder on the JDK's public API pays this much of a read (fastjson2
     * copies each string's bytes once too), so that the suite can say how much of a read is left
     * to win.
     */
    static final String STRINGS = "jdk-strings";

    @SuppressWarnings("deprecation") // String(byte[], int hibyte, int, int): the one-copy constructor for ASCII
    private static Libraries.Reader stringsOnly(byte[] json) throws java.io.IOException {
        // Each string value's UTF-8, unescaped, back to back (found with Jackson's streaming parser).
        java.io.ByteArrayOutputStream pool = new java.io.ByteArrayOutputStream();
        List<int[]> spans = new ArrayList<>(); // offset, length, 1 where ASCII
        try (com.fasterxml.jackson.core.JsonParser parser = Libraries.JACKSON.getFactory().createParser(json)) {
            for (com.fasterxml.jackson.core.JsonToken t; (t = parser.nextToken()) != null; ) {
                if (t == com.fasterxml.jackson.core.JsonToken.VALUE_STRING) {
                    byte[] b = parser.getText().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    boolean ascii = true;
                    for (byte x : b) {
                        ascii &= x >= 0;
                    }
                    spans.add(new int[] {pool.size(), b.length, ascii ? 1 : 0});
                    pool.write(b);
                }
            }
        }
        byte[] bytes = pool.toByteArray();
        int[][] all = spans.toArray(new int[0][]);
        return ignored -> {
            String[] made = new String[all.length];
            for (int i = 0; i < all.length; i++) {
                int[] span = all[i];
                made[i] = span[2] == 1 ? new String(bytes, 0, span[0], span[1])
                        : new String(bytes, span[0], span[1], java.nio.charset.StandardCharsets.UTF_8);
            }
            return made;
        };
    }

    private static Libraries.Reader tapeOnly(byte[] json, Class<?> type) {
        ThreadLocal<Object[]> arrays = ThreadLocal.withInitial(
                () -> new Object[] {io.simdbridge.NativeParser.forCurrentThread(), new long[2 * json.length + 64], new byte[json.length + 64]});
        // With the binding plan the read uses (the keys of matching objects checked natively, left off the tape).
        java.lang.foreign.MemorySegment plan = io.simdbridge.internal.ParserInternals.planOf(type);
        io.simdbridge.internal.ParserInternals.Access access = io.simdbridge.internal.ParserInternals.get();
        return bytes -> {
            Object[] a = arrays.get();
            io.simdbridge.NativeParser parser = (io.simdbridge.NativeParser) a[0];
            int written = plan != null ? access.bindingTapePlanned(parser, plan, bytes, 0, bytes.length, (long[]) a[1], (byte[]) a[2], true)
                    : access.bindingTape(parser, bytes, 0, bytes.length, (long[]) a[1], (byte[]) a[2], true) ? 0 : -1;
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
                        Libraries.Reader r = library.equals(BINDING_TAPE) ? tapeOnly(json, users.getClass())
                                : library.equals(STRINGS) ? stringsOnly(json) : readers.get(library);
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

    /**
     * Warmup rounds past the given ones, at most, while the JIT compiles or the rates move, unless
     * the warmup argument says otherwise ({@code 6+20}: six rounds, then at most twenty more).
     */
    public static final int MAX_EXTRA_WARMUP = 40;
    /** A warmup round is quiet when the JIT compiled for at most this share of its time... */
    static final double QUIET_JIT_SHARE = 0.02;
    /** ...and every library ran within this share of its rate in the round before. */
    static final double STEADY_RATE_SHARE = 0.15;

    /**
     * Warmup, then the measured rounds: every library one slice per round, the first turn rotating.
     * The warmup goes on past the rounds asked for until two rounds in a row are quiet (the JIT
     * compiling for at most 2% of the round, and every library within 15% of its rate the round
     * before), or for {@code extra} more rounds (the result says which: {@code steady}). In a
     * JVM's first seconds the libraries run at a fraction of their speed for a few hundred ms at a
     * time, the more so on two threads, where the compiler has no core of its own: fastjson2's
     * readers on two threads ran at a tenth of their speed for seconds after a fixed warmup, which
     * gave simdbridge ratios of 2x where the rest of the run gave 0.8x. The JIT's time while measuring is recorded.
     */
    static Map<String, Object> measure(Comparison c, long sliceNs, int warmup, int extra, int rounds) throws Exception {
        List<String> names = new ArrayList<>(c.libraries().keySet());
        Op[] ops = names.stream().map(c.libraries()::get).toArray(Op[]::new);
        int n = ops.length;
        double[][] rates = new double[n][rounds];
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        int warmed = 0;
        int quiet = 0;
        long jitWhileMeasured;
        try (Workers workers = new Workers(c.threads())) {
            long before = jitMillis(jit);
            double[] last = new double[n];
            while (warmed < warmup || (quiet < 2 && warmed < warmup + extra)) {
                long started = System.nanoTime();
                boolean steady = warmed > 0;
                for (int i = 0; i < n; i++) {
                    double rate = workers.rate(ops[i], sliceNs);
                    steady &= Math.abs(rate - last[i]) <= STEADY_RATE_SHARE * last[i];
                    last[i] = rate;
                }
                warmed++;
                long now = jitMillis(jit);
                boolean compiling = now - before > QUIET_JIT_SHARE * (System.nanoTime() - started) / 1e6;
                quiet = steady && !compiling ? quiet + 1 : 0;
                before = now;
            }
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < n; k++) {
                    int i = (r + k) % n;
                    rates[i][r] = workers.rate(ops[i], sliceNs);
                }
            }
            jitWhileMeasured = jitMillis(jit) - before;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("what", c.what());
        result.put("op", c.op());
        result.put("subject", c.subject());
        result.put("threads", c.threads());
        result.put("pairs", rounds);
        result.put("warmup_rounds", warmed);
        result.put("steady", quiet >= 2);
        result.put("jit_ms_while_measured", jitWhileMeasured);
        Map<String, Object> medians = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            medians.put(names.get(i), median(rates[i].clone()));
        }
        result.put("ops_per_s", medians);
        Map<String, Object> perRound = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            perRound.put(names.get(i), rates[i]);
        }
        result.put("rates", perRound);
        Map<String, Object> peers = new LinkedHashMap<>();
        for (int i = 1; i < n; i++) {
            double[] ratios = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                ratios[r] = rates[0][r] / rates[i][r];
            }
            Map<String, Object> s = summary(ratios);
            s.put("ratios", ratios);
            peers.put(names.get(i), s);
            double[] ci = (double[]) s.get("ci95");
            System.out.printf("%s: median %.3f, 95%% interval %.3f .. %.3f (%d rounds of %d ms "
                            + "slices after %d warmup rounds, JIT %d ms while measured); median ops/s: simdbridge %.0f, %s %.0f%n",
                    heading(c.what(), c.op(), c.subject(), c.threads(), names.get(i)),
                    s.get("median"), ci[0], ci[1], rounds, sliceNs / 1_000_000, warmed, jitWhileMeasured,
                    medians.get(names.get(0)), names.get(i), medians.get(names.get(i)));
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
     * The threads a comparison runs on: the calling thread alone, or {@code threads} threads
     * made once for the whole comparison and kept for every slice of every library, as an
     * application's pool keeps its threads (new threads for each slice would make every
     * library's per-thread state again, its parser, buffers and caches, a hundred times a run).
     */
    private static final class Workers implements AutoCloseable {
        private final int threads;
        private final java.util.concurrent.ExecutorService pool;

        Workers(int threads) {
            this.threads = threads;
            this.pool = threads == 1 ? null : java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "paired-ratio-worker");
                t.setDaemon(true);
                return t;
            });
        }

        /**
         * Operations per second over one slice, on all the threads at once (their operations
         * added up): they start together and each stops at the slice's end. The pool has exactly
         * as many threads as tasks, and each task waits for the others at the start, so each runs
         * on a thread of its own.
         */
        double rate(Op op, long sliceNs) throws Exception {
            if (pool == null) {
                return PairedRatio.rate(op, sliceNs);
            }
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
            List<java.util.concurrent.Future<Double>> slices = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                slices.add(pool.submit(() -> {
                    start.await();
                    return PairedRatio.rate(op, sliceNs);
                }));
            }
            double total = 0;
            for (java.util.concurrent.Future<Double> f : slices) {
                try {
                    total += f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw e.getCause() instanceof Exception x ? x : e;
                }
            }
            return total;
        }

        @Override
        public void close() {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
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

    /** The JIT's compiling time so far, in ms (0 where the JVM does not keep it: no extra warmup). */
    private static long jitMillis(CompilationMXBean jit) {
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    private static double quantile(double[] sorted, double q) {
        double at = q * (sorted.length - 1);
        int lo = (int) Math.floor(at), hi = (int) Math.ceil(at);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
    }
}
