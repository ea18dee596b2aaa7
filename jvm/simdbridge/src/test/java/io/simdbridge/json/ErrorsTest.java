// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every error names the JSON path and the byte offset; no input crashes the JVM. */
class ErrorsTest {
    record User(String name, int age, @JsonRequired String email, List<String> tags) {}

    record Users(List<User> users) {}

    private static final String USERS = "{\"users\":[{\"name\":\"a\",\"age\":1,\"email\":\"a@x\",\"tags\":[]},"
            + "{\"name\":\"b\",\"age\":2,\"email\":\"b@x\",\"tags\":[\"t\"]}]}";

    private static String message(String json, Class<?> type) {
        return message(Json.mapper(), json, type);
    }

    private static String message(JsonMapper mapper, String json, Class<?> type) {
        JsonBindException e = assertThrows(JsonBindException.class, () -> mapper.read(json, type));
        return e.getMessage();
    }

    public static class Integers {
        public long l;
        public int i;
        public Long boxed;
        public long[] many;
        public java.math.BigInteger big;
    }

    @Test
    void integerFieldsTakeNumberTextWithAFractionOrExponentWhereItsValueIsAnIntegerExactly() {
        // Decided from the text: each of these has a double that is an integer, or the wrong one.
        String[][] exact = {{"1.0", "1"}, {"100e-2", "1"}, {"1e3", "1000"}, {"-0.0", "0"},
            {"9007199254740993.0", "9007199254740993"}, {"90071992547409930e-1", "9007199254740993"},
            {"9.223372036854775807e18", "9223372036854775807"}, {"-9.223372036854775808e18", "-9223372036854775808"}};
        for (String[] c : exact) {
            String json = "{\"l\":" + c[0] + ",\"boxed\":" + c[0] + ",\"many\":[" + c[0] + "]}";
            Integers r = Json.read(json, Integers.class);
            assertEquals(Long.parseLong(c[1]), r.l, c[0]);
            assertEquals(Long.parseLong(c[1]), r.boxed, c[0]);
            assertEquals(Long.parseLong(c[1]), r.many[0], c[0]);
        }
        assertEquals(2147483647, Json.read("{\"i\":2.147483647e9}", Integers.class).i);
        String[][] refused = {{"1.0000000000000000001", "a fraction"}, {"1e-400", "a fraction"},
            {"0.5e0", "a fraction"}, {"9.223372036854775808e18", "out of range"}, {"1e1000000000", "out of range"}};
        for (String[] c : refused) {
            for (String field : new String[] {"l", "boxed"}) {
                assertEquals("$." + field + ": expected a long, found " + c[0] + " (" + c[1] + ") (byte "
                        + (field.length() + 4) + ")", message("{\"" + field + "\":" + c[0] + "}", Integers.class));
            }
        }
        assertEquals("$.i: expected an int, found 2147483648.0 (out of range) (byte 5)",
                message("{\"i\":2147483648.0}", Integers.class));
        // BigInteger fields take the same rule, and say the same.
        assertEquals(new java.math.BigInteger("9007199254740993"),
                Json.read("{\"big\":9007199254740993.0}", Integers.class).big);
        assertEquals("$.big: expected an integer, found 1e-400 (a fraction) (byte 7)",
                message("{\"big\":1e-400}", Integers.class));
    }

    @Test
    void typeMismatches() {
        String json = USERS.replace("\"age\":2", "\"age\":\"2\"");
        assertEquals("$.users[1].age: expected an int, found a string (byte " + json.indexOf("\"2\"") + ")",
                message(json, Users.class));
        String tags = USERS.replace("[\"t\"]", "[\"t\", 5]");
        assertEquals("$.users[1].tags[1]: expected a string, found an integer (byte " + tags.indexOf("5]") + ")",
                message(tags, Users.class));
        assertEquals("$.users: expected an array, found an object (byte 9)", message("{\"users\":{}}", Users.class));
        assertEquals("$.users[0].age: expected an int, found 3000000000 (out of range) (byte 17)",
                message("{\"users\":[{\"age\":3000000000}]}", Users.class));
        assertEquals("$.users[0].age: expected an int, found 1.5 (a fraction) (byte 17)",
                message("{\"users\":[{\"age\":1.5}]}", Users.class));
        assertEquals("$: expected an object (Users), found an array (byte 0)", message("[]", Users.class));
        assertEquals("$['odd key'].x: expected an int, found true (byte 18)",
                message("{\"odd key\": {\"x\": true}}", OddHolder.class));
        // Each codec's own words for what it expected, and null read as null by each.
        assertEquals("$.color: expected one of the constants of Shade, found an integer (byte 9)",
                message("{\"color\":1}", Kinds.class));
        assertEquals("$.color: expected one of the constants of Shade, found \"blue\" (byte 9)",
                message("{\"color\":\"blue\"}", Kinds.class));
        assertEquals("$.counts: expected an object, found an array (byte 10)", message("{\"counts\":[]}", Kinds.class));
        assertEquals("$.id: expected a UUID, found false (byte 6)", message("{\"id\":false}", Kinds.class));
        assertEquals("$.inner: expected an object (Odd), found a string (byte 9)", message("{\"inner\":\"x\"}", Kinds.class));
        assertEquals("$.s: expected a short, found 40000 (out of range) (byte 5)", message("{\"s\":40000,\"b\":1}", Small.class));
        assertEquals("$.b: expected a byte, found -129 (out of range) (byte 11)", message("{\"s\":1,\"b\":-129}", Small.class));
        assertEquals(new Small((short) -32768, (byte) 127), Json.read("{\"s\":-32768,\"b\":127}", Small.class));
        assertEquals(new Kinds(null, null, null, null),
                Json.read("{\"color\":null,\"counts\":null,\"id\":null,\"inner\":null}", Kinds.class));
    }

    record Odd(int x) {}

    enum Shade { RED, GREEN }

    record Small(short s, byte b) {}

    record Kinds(Shade color, Map<String, Integer> counts, java.util.UUID id, Odd inner) {}

    record OddHolder(@JsonProperty("odd key") Odd odd) {}

    @Test
    void missingRequiredProperty() {
        String json = "{\"users\":[{\"name\":\"a\",\"email\":\"e\"},{\"name\":\"b\"}]}";
        assertEquals("$.users[1]: missing required property 'email' (byte " + json.indexOf("{\"name\":\"b\"") + ")",
                message(json, Users.class));
    }

    @Test
    void malformedJsonHasThePathWhereItStops() {
        String json = USERS.substring(0, USERS.indexOf("\"age\":2") + 6) + "}";
        String m = message(json, Users.class);
        assertTrue(m.startsWith("$.users[1].age: "), m);
        assertTrue(m.endsWith("(byte " + (json.length() - 1) + ")"), m);
        assertEquals("$: the input holds no JSON value (it is empty or only white space) (byte 0)".substring(0, 3),
                message("", Users.class).substring(0, 3));
        String bad = message("{\"users\":[{\"name\":\"a\" \"age\":1}]}", Users.class);
        assertTrue(bad.startsWith("$.users[0].name: ") && bad.endsWith("(byte 22)"), bad);
    }

    @Test
    void policies() {
        JsonMapper strict = JsonMapper.builder().unknownProperties(JsonMapper.Policy.FAIL)
                .duplicateKeys(JsonMapper.Policy.FAIL).nullForPrimitives(JsonMapper.Policy.FAIL).build();
        String unknown = "{\"users\":[{\"name\":\"a\",\"email\":\"e\",\"extra\":{\"deep\":[1]}}]}";
        assertEquals(List.of(), Json.read(unknown, Users.class).users().get(0).tags() == null ? List.of() : List.of("?"));
        assertEquals("$.users[0].extra: unknown property 'extra' of User (byte " + unknown.indexOf("\"extra\"") + ")",
                message(strict, unknown, Users.class));
        String dup = "{\"users\":[{\"name\":\"a\",\"email\":\"e\",\"name\":\"b\"}]}";
        assertEquals("b", Json.read(dup, Users.class).users().get(0).name()); // the last wins
        assertEquals("$.users[0].name: duplicate key 'name' (byte " + dup.lastIndexOf("\"name\"") + ")",
                message(strict, dup, Users.class));
        String nul = "{\"users\":[{\"email\":\"e\",\"age\":null}]}";
        assertEquals(0, Json.read(nul, Users.class).users().get(0).age());
        assertEquals("$.users[0].age: expected an int, found null (byte " + nul.indexOf("null") + ")",
                message(strict, nul, Users.class));
        String dupMap = "{\"a\":1,\"b\":2,\"a\":3}";
        JsonBindException e = assertThrows(JsonBindException.class, () -> strict.read(dupMap, Map.class));
        assertEquals("$.a: duplicate key 'a' (byte 13)", e.getMessage());
        assertEquals(Map.of("a", 3L, "b", 2L), Json.read(dupMap, Map.class));
    }

    @Test
    void writingACycleIsAnErrorNotAStackOverflow() {
        Loop a = new Loop();
        a.next = a;
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Json.write(a));
        assertTrue(e.getMessage().contains("cycle"), e.getMessage());
    }

    public static class Loop {
        public Loop next;
    }

    @Test
    void truncatedAndCorruptedInputNeverCrashes() {
        byte[] full = USERS.getBytes(StandardCharsets.UTF_8);
        for (int end = 0; end < full.length; end++) {
            byte[] cut = java.util.Arrays.copyOf(full, end);
            JsonBindException e = assertThrows(JsonBindException.class, () -> Json.read(cut, Users.class), "cut at " + end);
            assertTrue(e.offset() >= 0 && e.offset() <= end, e.getMessage());
        }
        Random r = new Random(5);
        for (int i = 0; i < 3000; i++) {
            byte[] b = full.clone();
            for (int k = 0; k < 1 + r.nextInt(3); k++) {
                b[r.nextInt(b.length)] = (byte) r.nextInt(256);
            }
            try {
                Json.read(b, Users.class);
                Json.read(b, Object.class);
            } catch (JsonBindException expected) {
                assertTrue(expected.offset() >= 0 && expected.offset() <= b.length, expected.getMessage());
            }
        }
    }

    public enum Level { LOW, HIGH }

    /** A property of every kind the binding reads. */
    public static class Every {
        public java.math.BigInteger big;
        public java.math.BigDecimal decimal;
        public double x;
        public float f;
        public long l;
        public int n;
        public short s;
        public byte b;
        public char c;
        public boolean flag;
        public Integer boxed;
        public Object any;
        public Level level;
        public java.time.LocalDate date;
        public java.time.LocalDateTime time;
        public java.time.Instant instant;
        public java.util.UUID id;
        public Map<Integer, Long> counts;
        public int[] ints;
        public java.util.Set<String> names;
        public java.util.Optional<String> maybe;
        public byte[] bytes;
        public List<java.math.BigDecimal> decimals;
        public List<User> users;
    }

    private static final String[] TOKENS = {"{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "-", "0", "1.5",
        "null", "true", "\"\"", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1e999999999",
        "1e-999999999", "1e2147483649", "0.1e-2147483648", "1e400", "1e99999", "\u00e9", "\u0000", " ", "[[[[", "{\"a\":{"};

    /**
     * Mutations of a document of every kind of property (bytes changed, cut, removed, and tokens
     * put in, huge exponents among them), read as that class, as Object and as records: a value
     * or a JsonBindException at an offset within the input, never another exception. Found
     * NumberFormatException from 1e2147483649 and a 2 s BigInteger from 1e9999999.
     */
    @Test
    void mutationsOfEveryKindRaiseOnlyBindingErrors() {
        String every = "{\"big\":123456789012345678901234567890,\"decimal\":1.25,\"x\":2.5,\"f\":1.5,\"l\":-7,"
                + "\"n\":7,\"s\":-3,\"b\":1,\"c\":\"z\",\"flag\":true,\"boxed\":null,\"any\":[1,\"a\",{\"b\":1e400}],"
                + "\"level\":\"HIGH\",\"date\":\"2024-02-29\",\"time\":\"2024-01-02T03:04:05.006\","
                + "\"instant\":\"2024-01-02T03:04:05Z\",\"id\":\"123e4567-e89b-12d3-a456-426614174000\","
                + "\"counts\":{\"1\":2,\"3\":4},\"ints\":[1,2,3],\"names\":[\"a\",\"b\"],\"maybe\":\"x\","
                + "\"bytes\":\"AQID\",\"decimals\":[1e-5,2],\"users\":" + USERS.substring(9);
        Json.read(every, Every.class); // the document itself reads
        Class<?>[] types = {Every.class, Every.class, Object.class, Users.class};
        Random r = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            byte[] b = mutate(r, (r.nextBoolean() ? every : USERS).getBytes(StandardCharsets.UTF_8));
            Class<?> type = types[r.nextInt(types.length)];
            try {
                Object value = Json.read(b, type);
                if (value != null) {
                    Json.write(value); // what was read writes
                }
            } catch (JsonBindException expected) {
                assertTrue(expected.offset() >= 0 && expected.offset() <= b.length, expected.getMessage());
            } catch (RuntimeException e) {
                throw new AssertionError("case " + i + " as " + type.getSimpleName() + ": "
                        + new String(b, StandardCharsets.UTF_8), e);
            }
        }
    }

    private static byte[] mutate(Random r, byte[] b) {
        for (int k = 0; k < 1 + r.nextInt(3); k++) {
            int at = r.nextInt(b.length + 1);
            switch (r.nextInt(4)) {
                case 0 -> {
                    if (at < b.length) {
                        b[at] = (byte) r.nextInt(256);
                    }
                }
                case 1 -> b = java.util.Arrays.copyOf(b, at);
                case 2 -> {
                    byte[] t = TOKENS[r.nextInt(TOKENS.length)].getBytes(StandardCharsets.UTF_8);
                    byte[] c = new byte[b.length + t.length];
                    System.arraycopy(b, 0, c, 0, at);
                    System.arraycopy(t, 0, c, at, t.length);
                    System.arraycopy(b, at, c, at + t.length, b.length - at);
                    b = c;
                }
                default -> {
                    int n = Math.min(b.length - at, 1 + r.nextInt(8));
                    byte[] c = new byte[b.length - n];
                    System.arraycopy(b, 0, c, 0, at);
                    System.arraycopy(b, at + n, c, at, b.length - at - n);
                    b = c;
                }
            }
        }
        return b;
    }

    @Test
    void hugeDeepAndWrongEncodingInput() {
        String deep = "[".repeat(2000) + "]".repeat(2000);
        JsonBindException e = assertThrows(JsonBindException.class, () -> Json.read(deep, Object.class));
        assertTrue(e.getMessage().contains("depth") || e.getMessage().contains("deep"), e.getMessage());
        byte[] utf16 = "{\"users\":[]}".getBytes(StandardCharsets.UTF_16);
        assertThrows(JsonBindException.class, () -> Json.read(utf16, Users.class));
        byte[] latin1 = "[\"caf\u00e9\"]".getBytes(StandardCharsets.ISO_8859_1);
        e = assertThrows(JsonBindException.class, () -> Json.read(latin1, Object.class));
        assertEquals(5, e.offset());
        StringBuilder big = new StringBuilder("[");
        for (int i = 0; i < 200_000; i++) {
            big.append(i > 0 ? "," : "").append("{\"id\":").append(i).append(",\"name\":\"n").append(i).append("\"}");
        }
        big.append(']');
        List<BindingTest.Friend> friends = Json.read(big.toString(), new TypeRef<List<BindingTest.Friend>>() {});
        assertEquals(199_999, friends.get(199_999).id());
        assertEquals("n5", friends.get(5).name());
    }

    @Test
    void wrongArgumentsFromJava() {
        byte[] b = "[1]".getBytes(StandardCharsets.UTF_8);
        assertThrows(IndexOutOfBoundsException.class, () -> Json.mapper().read(b, 2, 5, Object.class));
        assertThrows(IndexOutOfBoundsException.class, () -> Json.mapper().read(b, -1, 1, Object.class));
        assertThrows(NullPointerException.class, () -> Json.read((byte[]) null, Object.class));
        assertThrows(IllegalArgumentException.class, () -> Json.read(b, Runnable.class));
        assertEquals(List.of(1L), Json.mapper().read(b, 0, 3, Object.class));
    }

    @Test
    void deepDocumentsOnThreadsWithSmallStacks() throws Exception {
        String deep = "[".repeat(1000) + "1" + "]".repeat(1000);
        byte[] bytes = deep.getBytes(StandardCharsets.UTF_8);
        long expected = io.simdbridge.NativeParser.forCurrentThread().checksum(bytes);
        for (long stack : new long[] {128 * 1024, 256 * 1024, 512 * 1024}) {
            Throwable[] failure = new Throwable[1];
            long[] checksum = new long[1];
            Thread t = new Thread(null, () -> {
                try {
                    Object o = Json.read(bytes, Object.class);
                    for (int i = 0; i < 999; i++) {
                        o = ((List<?>) o).get(0);
                    }
                    assertEquals(List.of(1L), o);
                    checksum[0] = io.simdbridge.NativeParser.forCurrentThread().checksum(bytes);
                } catch (Throwable e) {
                    failure[0] = e;
                }
            }, "small-stack", stack);
            t.start();
            t.join();
            // Where the stack is too small for the binding's recursion: the depth error, never a
            // StackOverflowError out of the mapper.
            if (failure[0] != null && !(failure[0] instanceof JsonBindException b
                    && b.getMessage().contains("deeper than this thread's stack holds"))) {
                throw new AssertionError("stack " + stack, failure[0]);
            }
            if (failure[0] == null || stack == 512 * 1024) {
                assertEquals(null, failure[0]);
                assertEquals(expected, checksum[0]);
            }
        }
    }
}
