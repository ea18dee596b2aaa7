// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Values read equal to what Jackson reads from the same documents, and random objects of every
 * supported type round trips through our writer and reader (and through Jackson's reader).
 */
class JacksonAgreementTest {
    private static final ObjectMapper JACKSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS) // compared after normalizing
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    enum Kind { ALPHA, BETA, GAMMA }

    record Leaf(int i, long l, double d, float f, boolean b, short s, byte y, String text, Kind kind) {}

    record Tree(String name, List<Leaf> leaves, Map<String, Tree> children, int[] counts, double[] weights,
                List<String> tags, BigInteger big, BigDecimal decimal, Integer maybeInt, String maybeText) {}

    private static String randomString(Random r) {
        int n = r.nextInt(12);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int pick = r.nextInt(10);
            if (pick < 5) {
                sb.append((char) ('a' + r.nextInt(26)));
            } else if (pick == 5) {
                sb.append((char) r.nextInt(0x20)); // control characters
            } else if (pick == 6) {
                sb.append("\"\\/");
            } else if (pick == 7) {
                sb.append((char) (0xA0 + r.nextInt(0x700)));
            } else if (pick == 8) {
                sb.append((char) (0x4E00 + r.nextInt(0x5000)));
            } else {
                sb.appendCodePoint(0x1F600 + r.nextInt(80));
            }
        }
        return sb.toString();
    }

    private static double randomDouble(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> r.nextDouble();
            case 1 -> Double.longBitsToDouble(r.nextLong() & 0x7FEFFFFFFFFFFFFFL) * (r.nextBoolean() ? 1 : -1);
            case 2 -> r.nextInt(1000) / 8.0;
            default -> r.nextGaussian() * 1e6;
        };
    }

    private static Leaf leaf(Random r) {
        return new Leaf(r.nextInt(), r.nextLong(), randomDouble(r), (float) randomDouble(r), r.nextBoolean(),
                (short) r.nextInt(), (byte) r.nextInt(), randomString(r), Kind.values()[r.nextInt(3)]);
    }

    private static Tree tree(Random r, int depth) {
        List<Leaf> leaves = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            leaves.add(leaf(r));
        }
        Map<String, Tree> children = new LinkedHashMap<>();
        for (int i = depth > 2 ? 0 : r.nextInt(3); i > 0; i--) {
            children.put(randomString(r), tree(r, depth + 1));
        }
        int[] counts = r.ints(r.nextInt(5)).toArray();
        double[] weights = r.doubles(r.nextInt(5)).map(x -> x * 1e3).toArray();
        List<String> tags = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            tags.add(randomString(r));
        }
        return new Tree(randomString(r), leaves, children, counts, weights, tags,
                new BigInteger(100, r).subtract(BigInteger.ONE.shiftLeft(99)), new BigDecimal(r.nextLong()).movePointLeft(r.nextInt(10)),
                r.nextBoolean() ? r.nextInt() : null, r.nextBoolean() ? randomString(r) : null);
    }

    @Test
    void randomObjectsRoundTripAndJacksonReadsWhatWeWrite() throws Exception {
        Random r = new Random(20261129);
        for (int i = 0; i < 300; i++) {
            Tree t = tree(r, 0);
            byte[] ours = Json.write(t);
            Tree back = Json.read(ours, Tree.class);
            assertEquals(canonical(t), canonical(back), "round trip " + i);
            Tree theirs = JACKSON.readValue(ours, Tree.class);
            assertEquals(canonical(t), canonical(theirs), "Jackson reading ours " + i);
            // And we read what Jackson writes.
            byte[] jackson = JACKSON.writeValueAsBytes(t);
            assertEquals(canonical(t), canonical(Json.read(jackson, Tree.class)), "ours reading Jackson's " + i);
        }
    }

    /** Arrays compared by content, doubles by bits: Jackson's view of the tree as a string. */
    private static String canonical(Object o) throws Exception {
        return new ObjectMapper().writeValueAsString(o);
    }

    /** Random JSON text, read as Object by both. */
    private static void randomValue(Random r, StringBuilder sb, int depth) {
        switch (depth > 4 ? r.nextInt(5) : r.nextInt(7)) {
            case 0 -> sb.append(r.nextLong());
            case 1 -> sb.append(randomDouble(r));
            case 2 -> sb.append(new ObjectMapper().valueToTree(randomString(r)).toString());
            case 3 -> sb.append(r.nextBoolean());
            case 4 -> sb.append("null");
            case 5 -> {
                sb.append('[');
                for (int i = r.nextInt(5); i > 0; i--) {
                    randomValue(r, sb, depth + 1);
                    sb.append(i > 1 ? "," : "");
                }
                sb.append(']');
            }
            default -> {
                sb.append('{');
                for (int i = r.nextInt(5); i > 0; i--) {
                    sb.append(new ObjectMapper().valueToTree("k" + r.nextInt(8)).toString()).append(':');
                    randomValue(r, sb, depth + 1);
                    sb.append(i > 1 ? "," : "");
                }
                sb.append('}');
            }
        }
    }

    @Test
    void randomDocumentsReadAsJacksonReadsThem() throws Exception {
        Random r = new Random(7);
        ObjectMapper plain = new ObjectMapper();
        for (int i = 0; i < 2000; i++) {
            StringBuilder sb = new StringBuilder();
            randomValue(r, sb, 0);
            byte[] doc = sb.toString().getBytes(StandardCharsets.UTF_8);
            Object theirs = plain.readValue(doc, Object.class);
            Object ours = Json.read(doc, Object.class);
            assertEquals(normalize(theirs), normalize(ours), sb.toString());
        }
    }

    /** Jackson reads small integers as Integer and we as Long: both as Long (and BigInteger as is). */
    private static Object normalize(Object o) {
        if (o instanceof Integer i) {
            return i.longValue();
        }
        if (o instanceof List<?> l) {
            return l.stream().map(JacksonAgreementTest::normalize).toList();
        }
        if (o instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k, normalize(v)));
            return out;
        }
        return o;
    }

    /** The files of a folder of the corpus (SIMDBRIDGE_DATA, or ../shared/data) whose names start with prefix. */
    private static List<Path> corpus(String folder, String prefix) throws java.io.IOException {
        String env = System.getenv("SIMDBRIDGE_DATA");
        Path dir = Path.of(env != null && !env.isEmpty() ? env : "../../../shared/data", folder);
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
        }
    }

    private static void readsAsJacksonReadsIt(Path p) throws Exception {
        byte[] doc = Files.readAllBytes(p);
        Object jackson = new ObjectMapper().readValue(doc, Object.class);
        assertEquals(normalize(jackson), normalize(Json.read(doc, Object.class)), p.toString());
    }

    @Test
    void theCorpusReadsAsJacksonReadsIt() throws Exception {
        for (Path p : corpus("jsonexamples", "")) {
            readsAsJacksonReadsIt(p);
        }
    }

    /** Every file JSONTestSuite says must be accepted (JsonTestSuiteTest: the others, every way in). */
    @Test
    void everyJsonTestSuiteYFileReadsAsJacksonReadsIt() throws Exception {
        List<Path> files = corpus("jsonchecker/minefield", "y_");
        for (Path p : files) {
            readsAsJacksonReadsIt(p);
        }
        assertEquals(95, files.size());
    }
}
