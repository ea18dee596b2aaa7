// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Every supported type read and written, annotations, and the input forms. */
class BindingTest {
    record Friend(int id, String name) {}

    enum Color { RED, GREEN, @JsonProperty("bleu") BLUE }

    record Everything(int i, long l, short s, byte b, char c, double d, float f, boolean z,
                      Integer boxedInt, Long boxedLong, Double boxedDouble, Boolean boxedBoolean,
                      String text, BigInteger big, BigDecimal decimal, LocalDate date, LocalDateTime dateTime,
                      Instant instant, OffsetDateTime offsetDateTime, UUID uuid, Color color,
                      List<String> tags, Set<Integer> numbers, Map<String, Friend> byName, Friend[] friendArray,
                      int[] ints, long[] longs, double[] doubles, boolean[] flags, byte[] bytes, Optional<String> maybe,
                      Object anything, Map<Color, Long> byColor, SortedMap<Long, String> sorted) {}

    static Everything sample() {
        return new Everything(-7, 1L << 40, (short) 300, (byte) -5, 'é', 0.1, 1.5f, true, 42, null, 2.5, false,
                "héllo \"world\"\n\u0001 \uD83D\uDE00", new BigInteger("123456789012345678901234567890"),
                new BigDecimal("1.10"), LocalDate.of(2024, 2, 29), LocalDateTime.of(2024, 1, 2, 3, 4, 5, 6_000_000),
                Instant.parse("2024-05-06T07:08:09.123Z"), OffsetDateTime.parse("2024-05-06T07:08:09+02:00"),
                UUID.fromString("123e4567-e89b-12d3-a456-426614174000"), Color.BLUE, List.of("a", "b"),
                new java.util.LinkedHashSet<>(List.of(3, 1, 2)), Map.of("x", new Friend(1, "x")),
                new Friend[] {new Friend(2, "y"), null}, new int[] {1, -2}, new long[] {Long.MIN_VALUE}, new double[] {1e300, -0.0},
                new boolean[] {true, false}, new byte[] {0, 1, (byte) 255}, Optional.of("here"),
                Map.of("k", List.of(1L, "two", 3.5, true)), Map.of(Color.RED, 1L),
                new java.util.TreeMap<>(Map.of(2L, "b", 1L, "a")));
    }

    @Test
    void everythingRoundTrips() {
        Everything e = sample();
        byte[] json = Json.write(e);
        Everything back = Json.read(json, Everything.class);
        assertEquals(e.i(), back.i());
        assertEquals(e.l(), back.l());
        assertEquals(e.s(), back.s());
        assertEquals(e.b(), back.b());
        assertEquals(e.c(), back.c());
        assertEquals(e.d(), back.d());
        assertEquals(e.f(), back.f());
        assertEquals(e.z(), back.z());
        assertEquals(e.boxedInt(), back.boxedInt());
        assertNull(back.boxedLong());
        assertEquals(e.text(), back.text());
        assertEquals(e.big(), back.big());
        assertEquals(e.decimal(), back.decimal()); // scale kept: 1.10
        assertEquals(e.date(), back.date());
        assertEquals(e.dateTime(), back.dateTime());
        assertEquals(e.instant(), back.instant());
        assertEquals(e.offsetDateTime(), back.offsetDateTime());
        assertEquals(e.uuid(), back.uuid());
        assertEquals(Color.BLUE, back.color());
        assertEquals(e.tags(), back.tags());
        assertEquals(List.of(3, 1, 2), List.copyOf(back.numbers()));
        assertEquals(e.byName(), back.byName());
        assertArrayEquals(e.friendArray(), back.friendArray());
        assertArrayEquals(e.ints(), back.ints());
        assertArrayEquals(e.longs(), back.longs());
        assertArrayEquals(e.doubles(), back.doubles());
        assertArrayEquals(e.flags(), back.flags());
        assertArrayEquals(e.bytes(), back.bytes());
        assertEquals(e.maybe(), back.maybe());
        assertEquals(e.anything(), back.anything());
        assertEquals(e.byColor(), back.byColor());
        assertEquals(e.sorted(), back.sorted());
        String text = new String(json, StandardCharsets.UTF_8);
        assertTrue(text.contains("\"color\":\"bleu\""), text);
        assertTrue(text.contains("\"decimal\":1.10"), text);
    }

    public static class Pojo {
        public String name;
        public int age;
        private boolean active;
        private double score;
        @JsonProperty("renamed") public String original;
        @JsonIgnore public String secret = "kept";
        public transient String notMe = "untouched";
        public Pojo nested;

        public boolean isActive() {
            return active;
        }

        public void setActive(boolean active) {
            this.active = active;
        }

        public double getScore() {
            return score;
        }

        public void setScore(double score) {
            this.score = score;
        }
    }

    @Test
    void pojosThroughFieldsAndAccessors() {
        Pojo p = Json.read("{\"name\":\"n\",\"age\":3,\"active\":true,\"score\":1.25,\"renamed\":\"r\",\"secret\":\"no\","
                + "\"notMe\":\"no\",\"nested\":{\"name\":\"inner\",\"nested\":null}}", Pojo.class);
        assertEquals("n", p.name);
        assertEquals(3, p.age);
        assertTrue(p.isActive());
        assertEquals(1.25, p.getScore());
        assertEquals("r", p.original);
        assertEquals("kept", p.secret);
        assertEquals("untouched", p.notMe);
        assertEquals("inner", p.nested.name);
        assertNull(p.nested.nested);
        String out = Json.writeString(p);
        assertTrue(out.startsWith("{\"name\":\"n\",\"age\":3,\"active\":true,\"score\":1.25,\"renamed\":\"r\",\"nested\":{"), out);
        assertTrue(!out.contains("secret") && !out.contains("notMe"), out);
    }

    public static final class Point {
        private final int x;
        private final int y;

        @JsonCreator
        Point(@JsonProperty("x") int x, @JsonProperty("y") @JsonRequired int y) {
            this.x = x;
            this.y = y;
        }

        public int getX() {
            return x;
        }

        public int getY() {
            return y;
        }
    }

    @Test
    void creatorConstructors() {
        Point p = Json.read("{\"y\": 2, \"x\": 1}", Point.class);
        assertEquals(1, p.getX());
        assertEquals(2, p.getY());
        assertEquals("{\"x\":1,\"y\":2}", Json.writeString(p));
        JsonBindException e = assertThrows(JsonBindException.class, () -> Json.read("{\"x\": 1}", Point.class));
        assertEquals("$: missing required property 'y' (byte 0)", e.getMessage());
    }

    record Box<T>(T value, List<T> more) {}

    @Test
    void genericTypes() {
        Box<Friend> box = Json.read("{\"value\":{\"id\":1,\"name\":\"a\"},\"more\":[{\"id\":2,\"name\":\"b\"}]}",
                new TypeRef<Box<Friend>>() {});
        assertEquals(new Friend(1, "a"), box.value());
        assertEquals(List.of(new Friend(2, "b")), box.more());
        Map<String, List<Integer>> m = Json.read("{\"a\":[1,2],\"b\":[]}", new TypeRef<Map<String, List<Integer>>>() {});
        assertEquals(Map.of("a", List.of(1, 2), "b", List.of()), m);
        ArrayDeque<String> d = Json.read("[\"x\",\"y\"]", new TypeRef<ArrayDeque<String>>() {});
        assertEquals("x", d.peekFirst());
        TreeSet<String> sorted = Json.read("[\"b\",\"a\"]", new TypeRef<TreeSet<String>>() {});
        assertEquals("a", sorted.first());
    }

    /**
     * Lists are filled directly (an ArrayList, strings two words apart): nulls, nesting, every
     * declared type that gets an ArrayList, and an element that is not a string named by its
     * index and offset, whatever it is (a nested container would otherwise throw the walk off).
     */
    @Test
    void listsOfStringsAndTheirElements() {
        assertEquals(java.util.Arrays.asList("a", null, "b"), Json.read("[\"a\", null, \"b\"]", new TypeRef<List<String>>() {}));
        assertEquals(List.of(List.of("a"), java.util.Arrays.asList("b", null), List.of()),
                Json.read("[[\"a\"],[\"b\",null],[]]", new TypeRef<List<List<String>>>() {}));
        assertEquals(java.util.ArrayList.class, Json.read("[\"a\"]", new TypeRef<java.util.Collection<String>>() {}).getClass());
        assertEquals(java.util.ArrayList.class, Json.read("[\"a\"]", new TypeRef<java.util.ArrayList<String>>() {}).getClass());
        List<String> empty = Json.read("[]", new TypeRef<List<String>>() {});
        empty.add("mutable"); // an ArrayList, as Jackson gives
        for (String[] bad : new String[][] {{"[\"a\", 1]", "an integer"}, {"[\"a\", [\"x\"]]", "an array"},
                {"[\"a\", {\"k\": \"v\"}, \"b\"]", "an object"}, {"[\"a\", true]", "true"}}) {
            JsonBindException e = assertThrows(JsonBindException.class, () -> Json.read(bad[0], new TypeRef<List<String>>() {}));
            assertEquals("$[1]: expected a string, found " + bad[1] + " (byte 6)", e.getMessage(), bad[0]);
        }
    }

    record Node(String name, List<Node> children) {}

    @Test
    void recursiveTypes() {
        Node n = Json.read("{\"name\":\"root\",\"children\":[{\"name\":\"leaf\",\"children\":[]}]}", Node.class);
        assertEquals("leaf", n.children().get(0).name());
        assertEquals("{\"name\":\"root\",\"children\":[{\"name\":\"leaf\",\"children\":[]}]}", Json.writeString(n));
    }

    @Test
    void objectIsJsonsOwnTypes() {
        Object o = Json.read("{\"a\":[1,2.5,\"s\",true,null,{}],\"big\":18446744073709551615,\"huge\":1e400}", Object.class);
        Map<?, ?> m = (Map<?, ?>) o;
        assertEquals(List.of(1L, 2.5, "s", true, java.util.Collections.emptyMap()), ((List<?>) m.get("a")).stream()
                .filter(x -> x != null).toList());
        assertEquals(new BigInteger("18446744073709551615"), m.get("big"));
        assertEquals(new BigDecimal("1e400"), m.get("huge"));
    }

    @Test
    void everyInputForm() throws Exception {
        String json = "{\"id\":5,\"name\":\"\u00e9t\u00e9\"}";
        Friend want = new Friend(5, "été");
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        assertEquals(want, Json.read(bytes, Friend.class));
        assertEquals(want, Json.read(json, Friend.class));
        assertEquals(want, Json.read(new ByteArrayInputStream(bytes), Friend.class));
        assertEquals(want, Json.read(ByteBuffer.wrap(bytes), Friend.class));
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 10);
        direct.position(5);
        direct.put(bytes);
        direct.flip().position(5);
        assertEquals(want, Json.read(direct, Friend.class));
        byte[] padded = new byte[bytes.length + 20];
        System.arraycopy(bytes, 0, padded, 7, bytes.length);
        assertEquals(want, Json.mapper().read(padded, 7, bytes.length, Friend.class));
        // A number token read back from the input (BigDecimal, BigInteger) ends with the slice,
        // not with the array: the digits after it belong to something else.
        byte[] slice = "x1.5599[12345678901234567890123]9".getBytes(StandardCharsets.US_ASCII);
        assertEquals(new BigDecimal("1.5"), Json.mapper().read(slice, 1, 3, BigDecimal.class));
        assertArrayEquals(new BigInteger[] {new BigInteger("12345678901234567890123")},
                Json.mapper().read(slice, 7, 25, BigInteger[].class));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Json.write(want, out);
        assertEquals("{\"id\":5,\"name\":\"été\"}", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aTapeLargerThanItsFirstGuess() {
        // Two words a value and two bytes of input a value: more words than the first guess of
        // half the input's length, so the tape grows to what the native parser asks for.
        int n = 100_000;
        String json = "[" + "7,".repeat(n - 1) + "7]";
        int[] a = Json.read(json, int[].class);
        assertEquals(n, a.length);
        assertEquals(7, a[0]);
        assertEquals(7, a[n - 1]);
    }

    @Test
    void scalarsAtTheRoot() {
        assertEquals(42, Json.read("42", Integer.class));
        assertEquals("s", Json.read("\"s\"", String.class));
        assertNull(Json.read("null", Friend.class));
        assertEquals(List.of(1, 2), Json.read("[1,2]", new TypeRef<List<Integer>>() {}));
        assertEquals("\ud800x", Json.read("\"\\ud800x\"", String.class)); // a lone surrogate
        assertEquals("\"\\ud800x\"", Json.writeString("\ud800x"));
        assertEquals(new BigInteger("-123456789012345678901234567890"), Json.read("-123456789012345678901234567890", BigInteger.class));
    }

    @Test
    void numbersAndTheirLimits() {
        assertEquals(3, Json.read("3.0", int.class));
        assertEquals(Double.NaN, Json.read("\"NaN\"", double.class));
        assertEquals("[\"NaN\",\"Infinity\",1.0E-7,123.0,-0.0]", Json.writeString(new double[] {Double.NaN,
                Double.POSITIVE_INFINITY, 1e-7, 123, -0.0}));
        for (double d : new double[] {0.1, 1 / 3.0, 5e-324, 1.7976931348623157e308, 123456789.125, 1e22, 2.5e-8}) {
            assertEquals(d, Json.read(Json.write(d), double.class));
        }
        assertEquals(Long.MIN_VALUE, Json.read(Json.write(Long.MIN_VALUE), long.class));
        assertEquals("-9223372036854775808", Json.writeString(Long.MIN_VALUE));
        assertEquals(0, Json.read("null", int.class));
    }

    @Test
    void stringsOfEveryShapeAndLengthRoundTrip() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper jackson = new com.fasterxml.jackson.databind.ObjectMapper();
        java.util.Random r = new java.util.Random(11);
        String[] pieces = {"plain ascii ", "\"q\"", "\\", "\n\t\u0001\u001f", "caf\u00e9", "\u0080\u00a0\u00ff", "\u4e2d\u6587", "\uD83D\uDE00", "?", "\u007f"};
        for (int i = 0; i < 400; i++) {
            StringBuilder sb = new StringBuilder();
            int target = r.nextInt(3) == 0 ? 600 + r.nextInt(2000) : r.nextInt(80);
            while (sb.length() < target) {
                sb.append(pieces[r.nextInt(pieces.length)]);
            }
            String s = sb.toString();
            byte[] json = Json.write(s);
            assertEquals(s, Json.read(json, String.class));
            assertEquals(s, jackson.readValue(json, String.class));
            String lone = s + "\ud800" + s.substring(0, Math.min(5, s.length()));
            assertEquals(lone, Json.read(Json.write(lone), String.class));
        }
    }
}
