// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Adversarial shapes read through the data binding: the Java heap a read allocates stays within
 * a fixed factor of the input (the binding tape: two words per value, at most one value per
 * input byte), and the time stays linear. Building the values themselves (a Map per empty
 * object) is the caller's choice of type; here every value is skipped.
 */
class HostileShapesTest {
    /** A class with no properties: every value of the document is validated and skipped. */
    public static final class Nothing {}

    private static final JsonMapper UNLIMITED = JsonMapper.builder().maxDepth(Integer.MAX_VALUE).build();

    /** The shape as the value of a property Nothing does not have: validated, then skipped. */
    private static byte[] document(IntFunction<String> shape, int n) {
        return ("{\"skipped\":" + shape.apply(n) + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static String repeat(String unit, int n) {
        return unit.repeat(Math.max(1, n / unit.length()));
    }

    private static Map<String, IntFunction<String>> shapes() {
        Map<String, IntFunction<String>> shapes = new LinkedHashMap<>();
        shapes.put("deep nesting", n -> "[".repeat(n / 2) + "]".repeat(n / 2));
        shapes.put("empty objects", n -> "[" + repeat("{},", n) + "{}]");
        shapes.put("one-character keys", n -> "{" + repeat("\"a\":0,", n) + "\"b\":1}");
        shapes.put("escapes", n -> "[\"" + repeat("\\u00e9\\n\\\"", n) + "\"]");
        shapes.put("huge exponents", n -> "[" + repeat("1e999999999,", n) + "0]");
        shapes.put("long numbers", n -> "[" + repeat("7".repeat(900) + ",", n) + "0]");
        shapes.put("ordinary records", n -> "[" + repeat("{\"id\":12345,\"name\":\"abcdefgh\",\"tags\":[\"x\",\"y\"]},", n) + "{}]");
        return shapes;
    }

    /** The heap the calling thread allocates in r. */
    private static long allocated(Runnable r) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        r.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void theHeapAReadAllocatesStaysWithinAFixedFactorOfTheInput() throws Exception {
        for (Map.Entry<String, IntFunction<String>> shape : shapes().entrySet()) {
            byte[] json = document(shape.getValue(), 8 << 20);
            AtomicLong bytes = new AtomicLong();
            // A new thread: its first read grows the tape it keeps, and that growth is counted.
            Thread t = Thread.ofPlatform().start(() -> bytes.set(allocated(() -> UNLIMITED.read(json, Nothing.class))));
            t.join();
            // Two 8-byte words per value, a value per input byte at most: 16 bytes a byte, and
            // the strings' bytes; a guess first, then the tape grown once.
            assertTrue(bytes.get() <= 24L * json.length + (4 << 20),
                    shape.getKey() + ": " + bytes.get() / json.length + " bytes a byte");
        }
    }

    private static double timeOf(byte[] json) {
        System.gc(); // a collection the reads before left due is not this read's time
        long start = System.nanoTime();
        UNLIMITED.read(json, Nothing.class);
        return (System.nanoTime() - start) / 1e9;
    }

    @Test
    void timeIsLinear() {
        for (Map.Entry<String, IntFunction<String>> shape : shapes().entrySet()) {
            byte[] one = document(shape.getValue(), 2 << 20);
            byte[] four = document(shape.getValue(), 8 << 20);
            timeOf(one); // warm up
            timeOf(four);
            double t1 = Double.MAX_VALUE, t4 = Double.MAX_VALUE;
            for (int round = 0; round < 11; round++) { // taking turns: both see the machine alike
                t1 = Math.min(t1, timeOf(one));
                t4 = Math.min(t4, timeOf(four));
            }
            // Four times the input: linear is 4 times the time, quadratic 16. The bound between
            // leaves room for caches (4 MB fits in cache where 16 MB does not) and a noisy machine.
            assertTrue(t4 / t1 < 8.0, shape.getKey() + ": " + t1 + " s, then " + t4 + " s for four times the input");
        }
        assertTrue(UNLIMITED.read(document(shapes().get("deep nesting"), 100), Nothing.class) != null);
    }
}
