// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import java.util.Arrays;

/**
 * simdbridge's Users throughput over another library's, measured in pairs: both in one JVM,
 * alternating in slices of {@code sliceMs} (warmed up first, each slice's order swapped every
 * round), one ratio per pair of neighbouring slices, and the median of the ratios with its
 * interquartile range. What it is for: a machine whose speed changes from one second to the
 * next (this one ran at half speed for seconds at a time on 2026-11-30) moves JMH's forks, which
 * time one library after the other, by more than the difference being measured; two slices a
 * few hundred milliseconds apart see the same machine. It complements DatabindBenchmark (JMH),
 * which stays the measurement of record: one library per JVM there, both here, so their call
 * sites are not monomorphic here (the JIT profiles both in the same process).
 *
 * <pre>java -cp benchmarks.jar io.simdbridge.bench.databind.PairedRatio read 1 fastjson2-features 200 60</pre>
 *
 * Arguments: read or write, the payload in KB, the peer, the slice in ms, the rounds.
 */
public final class PairedRatio {
    private PairedRatio() {}

    @FunctionalInterface
    private interface Op {
        Object run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String what = args[0];
        int kb = Integer.parseInt(args[1]);
        String peer = args[2];
        long sliceNs = Long.parseLong(args[3]) * 1_000_000L;
        int rounds = Integer.parseInt(args[4]);
        Users users = UsersGenerator.generate(kb, DatabindGate.SEED);
        byte[] json = Libraries.JACKSON.writeValueAsBytes(users);
        Op ours, theirs;
        if (what.equals("read")) {
            Libraries.Reader a = Libraries.readers().get("simdbridge"), b = Libraries.readers().get(peer);
            if (b == null) {
                throw new IllegalArgumentException("no reader " + peer);
            }
            ours = () -> a.read(json);
            theirs = () -> b.read(json);
        } else if (what.equals("write")) {
            Libraries.Writer a = Libraries.writers().get("simdbridge"), b = Libraries.writers().get(peer);
            if (b == null) {
                throw new IllegalArgumentException("no writer " + peer);
            }
            ours = () -> a.write(users);
            theirs = () -> b.write(users);
        } else {
            throw new IllegalArgumentException("read or write, not " + what);
        }
        for (int i = 0; i < 10; i++) { // warm up both: 10 slices each
            rate(ours, sliceNs);
            rate(theirs, sliceNs);
        }
        double[] ratios = new double[rounds];
        double[] oursRates = new double[rounds], theirRates = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            double o, t;
            if (r % 2 == 0) {
                o = rate(ours, sliceNs);
                t = rate(theirs, sliceNs);
            } else {
                t = rate(theirs, sliceNs);
                o = rate(ours, sliceNs);
            }
            oursRates[r] = o;
            theirRates[r] = t;
            ratios[r] = o / t;
        }
        Arrays.sort(ratios);
        Arrays.sort(oursRates);
        Arrays.sort(theirRates);
        System.out.printf("Users %s %d KB, simdbridge / %s: median %.3f, IQR %.3f .. %.3f (%d pairs of %d ms slices); "
                        + "median ops/s: simdbridge %.0f, %s %.0f%n", what, kb, peer, quantile(ratios, 0.5),
                quantile(ratios, 0.25), quantile(ratios, 0.75), rounds, sliceNs / 1_000_000, quantile(oursRates, 0.5), peer,
                quantile(theirRates, 0.5));
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
