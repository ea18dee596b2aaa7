// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The code generated per class (AccessGenerator). Its in-order reader (BeanAccess.readInOrder)
 * reads the keys that come in declared order with no lookup, and the rest by name: whatever the
 * order, the keys in between, and where the order breaks, the result must be the one the lookup
 * alone gives, with the same policies and the same errors. Its writer (writeProperties) writes
 * every property with its own typed write, commas placed whichever properties are left out.
 */
class GeneratedAccessTest {
    /** Every kind the generated reader stores itself, names of every length around 8 and 16 bytes. */
    public static class Wide {
        public int i;
        public long l;
        public short s;
        public byte b;
        public char c;
        public double d;
        public float f;
        public boolean z;
        public String str;
        public List<Integer> list;
        public Wide child;
        public String eightChr;
        public String sixteenCharsName;
        public String seventeenCharName;
        public String aVeryLongPropertyNameOne; // the same first 16 bytes as the next: only the tail tells them apart
        public String aVeryLongPropertyNameTwo;
        public String aVeryLongPropertyNameTwO; // and one that differs from it in its last byte
        @JsonProperty("ünïcödé") public String unicode;
        @JsonProperty("abcdefgh12345678") public int sixteenExactly;
        private String viaSetter;
        private int setterCalls;

        public String getViaSetter() {
            return viaSetter;
        }

        public void setViaSetter(String v) {
            viaSetter = v;
            setterCalls++;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Wide w && i == w.i && l == w.l && s == w.s && b == w.b && c == w.c
                    && Double.compare(d, w.d) == 0 && Float.compare(f, w.f) == 0 && z == w.z && Objects.equals(str, w.str)
                    && Objects.equals(list, w.list) && Objects.equals(child, w.child) && Objects.equals(eightChr, w.eightChr)
                    && Objects.equals(sixteenCharsName, w.sixteenCharsName) && Objects.equals(seventeenCharName, w.seventeenCharName)
                    && Objects.equals(aVeryLongPropertyNameOne, w.aVeryLongPropertyNameOne)
                    && Objects.equals(aVeryLongPropertyNameTwo, w.aVeryLongPropertyNameTwo)
                    && Objects.equals(aVeryLongPropertyNameTwO, w.aVeryLongPropertyNameTwO)
                    && Objects.equals(unicode, w.unicode) && sixteenExactly == w.sixteenExactly
                    && Objects.equals(viaSetter, w.viaSetter);
        }

        @Override
        public int hashCode() {
            return i;
        }

        @Override
        public String toString() {
            return Json.writeString(this);
        }
    }

    /** Each property of a random Wide as "key":value, in declared order. */
    private static List<String> members(Wide w) {
        List<String> m = new ArrayList<>();
        m.add("\"i\":" + w.i);
        m.add("\"l\":" + w.l);
        m.add("\"s\":" + w.s);
        m.add("\"b\":" + w.b);
        m.add("\"c\":\"" + w.c + "\"");
        m.add("\"d\":" + w.d);
        m.add("\"f\":" + w.f);
        m.add("\"z\":" + w.z);
        m.add("\"str\":" + (w.str == null ? "null" : "\"" + w.str + "\""));
        m.add("\"list\":" + w.list.toString().replace(" ", ""));
        m.add("\"child\":" + (w.child == null ? "null" : "{" + String.join(",", members(w.child)) + "}"));
        m.add("\"eightChr\":\"" + w.eightChr + "\"");
        m.add("\"sixteenCharsName\":\"" + w.sixteenCharsName + "\"");
        m.add("\"seventeenCharName\":\"" + w.seventeenCharName + "\"");
        m.add("\"aVeryLongPropertyNameOne\":\"" + w.aVeryLongPropertyNameOne + "\"");
        m.add("\"aVeryLongPropertyNameTwo\":\"" + w.aVeryLongPropertyNameTwo + "\"");
        m.add("\"aVeryLongPropertyNameTwO\":\"" + w.aVeryLongPropertyNameTwO + "\"");
        m.add("\"ünïcödé\":\"" + w.unicode + "\"");
        m.add("\"abcdefgh12345678\":" + w.sixteenExactly);
        m.add("\"viaSetter\":\"" + w.getViaSetter() + "\"");
        return m;
    }

    /** The UTF-8 offset of the character at {@code index}: errors name bytes. */
    private static int utf8Offset(String s, int index) {
        return s.substring(0, index).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    static Wide random(Random r, int depth) {
        Wide w = new Wide();
        w.i = r.nextInt();
        w.l = r.nextLong();
        w.s = (short) r.nextInt();
        w.b = (byte) r.nextInt();
        w.c = (char) ('a' + r.nextInt(26));
        w.d = r.nextDouble() * 1e6;
        w.f = r.nextFloat();
        w.z = r.nextBoolean();
        w.str = r.nextInt(4) == 0 ? null : "s" + r.nextInt(1000);
        w.list = new ArrayList<>();
        for (int k = r.nextInt(4); k > 0; k--) {
            w.list.add(r.nextInt(100));
        }
        w.child = depth < 2 && r.nextBoolean() ? random(r, depth + 1) : null;
        w.eightChr = "e" + r.nextInt(10);
        w.sixteenCharsName = "x" + r.nextInt(10);
        w.seventeenCharName = "y" + r.nextInt(10);
        w.aVeryLongPropertyNameOne = "one" + r.nextInt(10);
        w.aVeryLongPropertyNameTwo = "two" + r.nextInt(10);
        w.aVeryLongPropertyNameTwO = "twO" + r.nextInt(10);
        w.unicode = "ü" + r.nextInt(10);
        w.sixteenExactly = r.nextInt();
        w.setViaSetter("v" + r.nextInt(10));
        return w;
    }

    @Test
    void wideIsReadInOrder() {
        assertTrue(AccessGenerator.readsInOrder(new BeanModel(Wide.class)));
        assertTrue(AccessGenerator.readsInOrder(new BeanModel(Rec.class)));
        // Past 64 properties, the lookup alone reads it.
        assertFalse(AccessGenerator.readsInOrder(new BeanModel(Many.class)));
    }

    /** More properties than two of the in-order reader's chunks hold: ints and Strings in turn. */
    public static class Flat {
        public int p0;
        public String p1;
        public int p2;
        public String p3;
        public int p4;
        public String p5;
        public int p6;
        public String p7;
        public int p8;
        public String p9;
        public int p10;
        public String p11;
        public int p12;
        public String p13;
        public int p14;
        public String p15;
        public int p16;
        public String p17;
        public int p18;
        public String p19;
        public int p20;
        public String p21;
        public int p22;
        public String p23;

        Object get(int p) throws ReflectiveOperationException {
            Object v = Flat.class.getField("p" + p).get(this);
            return p % 2 == 0 ? v : Objects.requireNonNullElse(v, 0);
        }

        static String member(int p) {
            return "\"p" + p + "\":" + (p % 2 == 0 ? String.valueOf(p + 100) : "\"s" + p + "\"");
        }

        static Object value(int p) {
            return p % 2 == 0 ? (Object) (p + 100) : "s" + p;
        }
    }

    @Test
    void inOrderReaderGoesOnAcrossItsChunks() throws ReflectiveOperationException {
        BeanModel model = new BeanModel(Flat.class);
        int n = model.read.size();
        assertTrue(n > 2 * AccessGenerator.READ_CHUNK);
        for (int p = 0; p < n; p++) {
            assertEquals("p" + p, model.read.get(p).name);
        }
        io.simdbridge.internal.BeanAccess access = AccessGenerator.generate(model);
        io.simdbridge.NativeParser parser = new io.simdbridge.NativeParser();
        BindingTape t = new BindingTape(1024, 1024);
        for (int k = 0; k <= n; k++) {
            // The first k properties in order, then the last one (out of order unless it is next).
            List<String> m = new ArrayList<>();
            for (int p = 0; p < k; p++) {
                m.add(Flat.member(p));
            }
            if (k < n) {
                m.add(Flat.member(n - 1));
            }
            byte[] json = ("{" + String.join(",", m) + "}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(io.simdbridge.internal.ParserInternals.get().bindingTape(parser, json, 0, json.length, t.words, t.strings, true));
            t.input = json; // string values may be left there
            t.inputOffset = 0;
            Flat bean = (Flat) access.create();
            long r = access.readInOrder(t, 2, t.next(0), bean, new io.simdbridge.internal.BeanAccess.Value[n], new byte[n][]);
            int read = k >= n - 1 ? n : k;
            assertEquals(read, (int) (r >>> 32), "k " + k);
            assertEquals(read == n ? t.next(0) : 2 + 4 * k, (int) r, "k " + k); // each member: a key and a value, two words each
            for (int p = 0; p < n; p++) {
                assertEquals(p < read ? Flat.value(p) : 0, bean.get(p), "k " + k + ", p" + p);
            }
        }
    }

    /** Read through its canonical constructor: readInOrder fills the arguments, boxed. */
    record Rec(int i, long l, short s, byte b, char c, double d, float f, boolean z, String str, List<Integer> list,
            java.util.Optional<String> opt, @JsonRequired String req, String aVeryLongPropertyNameOne,
            String aVeryLongPropertyNameTwo) {}

    private static List<String> members(Rec r) {
        List<String> m = new ArrayList<>();
        m.add("\"i\":" + r.i());
        m.add("\"l\":" + r.l());
        m.add("\"s\":" + r.s());
        m.add("\"b\":" + r.b());
        m.add("\"c\":\"" + r.c() + "\"");
        m.add("\"d\":" + r.d());
        m.add("\"f\":" + r.f());
        m.add("\"z\":" + r.z());
        m.add("\"str\":\"" + r.str() + "\"");
        m.add("\"list\":" + r.list().toString().replace(" ", ""));
        m.add("\"opt\":" + (r.opt().isPresent() ? "\"" + r.opt().get() + "\"" : "null"));
        m.add("\"req\":\"" + r.req() + "\"");
        m.add("\"aVeryLongPropertyNameOne\":\"" + r.aVeryLongPropertyNameOne() + "\"");
        m.add("\"aVeryLongPropertyNameTwo\":\"" + r.aVeryLongPropertyNameTwo() + "\"");
        return m;
    }

    @Test
    void recordsInAnyOrder() {
        Random r = new Random(11);
        for (int round = 0; round < 300; round++) {
            Rec rec = new Rec(r.nextInt(), r.nextLong(), (short) r.nextInt(), (byte) r.nextInt(), (char) ('a' + r.nextInt(26)),
                    r.nextDouble(), r.nextFloat(), r.nextBoolean(), "s" + r.nextInt(9), List.of(r.nextInt(9), r.nextInt(9)),
                    r.nextBoolean() ? java.util.Optional.of("o" + r.nextInt(9)) : java.util.Optional.empty(), "r" + r.nextInt(9),
                    "one" + r.nextInt(9), "two" + r.nextInt(9));
            List<String> m = reorder(members(rec), r, round);
            String json = "{" + String.join(",", m) + "}";
            assertEquals(rec, Json.read(json, Rec.class), json);
        }
        // Missing members take their defaults (Optional: empty); a missing required one fails.
        Rec partial = Json.read("{\"i\":1,\"l\":2,\"req\":\"x\",\"str\":\"late\"}", Rec.class);
        assertEquals(new Rec(1, 2, (short) 0, (byte) 0, (char) 0, 0, 0, false, "late", null, java.util.Optional.empty(), "x",
                null, null), partial);
        JsonBindException e = assertThrows(JsonBindException.class,
                () -> Json.read("{\"i\":1,\"l\":2,\"s\":3}", Rec.class));
        assertEquals("$: missing required property 'req' (byte 0)", e.getMessage());
        e = assertThrows(JsonBindException.class, () -> Json.read("{\"i\":1,\"l\":2,\"s\":3,\"b\":300}", Rec.class));
        assertEquals("$.b: expected a byte, found 300 (out of range) (byte 23)", e.getMessage());
    }

    /** 65 properties. */
    public static class Many {
        public int p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p20, p21,
                p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42,
                p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63,
                p64;
    }

    /** By round: the members in declared order, the order broken at one place, any order. */
    private static List<String> reorder(List<String> m, Random r, int round) {
        if (round % 3 == 1) {
            int at = r.nextInt(m.size() - 1);
            Collections.swap(m, at, at + 1 + r.nextInt(m.size() - at - 1));
        } else if (round % 3 == 2) {
            Collections.shuffle(m, r);
        }
        return m;
    }

    @Test
    void anyOrderReadsTheSame() {
        Random r = new Random(42);
        for (int round = 0; round < 400; round++) {
            Wide w = random(r, 0);
            List<String> m = reorder(members(w), r, round);
            String json = "{" + String.join(",", m) + "}";
            Wide read = Json.read(json, Wide.class);
            assertEquals(w, read, json);
            assertEquals(1, read.setterCalls, json);
        }
    }

    @Test
    void missingAndUnknownKeysAnywhere() {
        Random r = new Random(7);
        JsonMapper strict = JsonMapper.builder().unknownProperties(JsonMapper.Policy.FAIL).build();
        for (int round = 0; round < 300; round++) {
            Wide w = random(r, 1);
            List<String> m = members(w);
            // Drop one member (its property keeps its default), and put an unknown one anywhere.
            int dropped = r.nextInt(m.size());
            m.remove(dropped);
            Wide expected = Json.read("{" + String.join(",", m) + "}", Wide.class);
            int at = r.nextInt(m.size() + 1);
            String unknown = r.nextBoolean() ? "\"aVeryLongPropertyNameTwX\":[1,{\"i\":2}]" : "\"j\":{\"i\":3}";
            m.add(at, unknown);
            String json = "{" + String.join(",", m) + "}";
            assertEquals(expected, Json.read(json, Wide.class), json);
            JsonBindException e = assertThrows(JsonBindException.class, () -> strict.read(json, Wide.class));
            String key = unknown.substring(1, unknown.indexOf('"', 1));
            assertEquals("$." + key + ": unknown property '" + key + "' of Wide (byte " + utf8Offset(json, json.indexOf(unknown)) + ")",
                    e.getMessage());
        }
        Wide empty = Json.read("{}", Wide.class);
        assertEquals(new Wide(), empty);
    }

    @Test
    void duplicatesOfKeysReadInOrder() {
        // Every member in order, then one of them again: the lookup must know the first was read.
        Wide w = random(new Random(3), 1);
        List<String> m = members(w);
        List<String> other = members(random(new Random(4), 1));
        JsonMapper strict = JsonMapper.builder().duplicateKeys(JsonMapper.Policy.FAIL).build();
        for (int k = 0; k < m.size(); k++) {
            String again = other.get(k);
            String json = "{" + String.join(",", m) + "," + again + "}";
            String key = again.substring(1, again.indexOf('"', 1));
            JsonBindException e = assertThrows(JsonBindException.class, () -> strict.read(json, Wide.class), json);
            assertEquals("$." + key + ": duplicate key '" + key + "' (byte " + utf8Offset(json, json.lastIndexOf("\"" + key + "\"")) + ")",
                    e.getMessage());
            // Accepted, the last one wins.
            List<String> replaced = new ArrayList<>(m);
            replaced.set(k, again);
            assertEquals(Json.read("{" + String.join(",", replaced) + "}", Wide.class), Json.read(json, Wide.class), json);
        }
    }

    public static class Needs {
        public int a;
        @JsonRequired public String bb;
        public String ccc;
        @JsonRequired public int dddd;
    }

    @Test
    void requiredAfterTheOrderBreaks() {
        Needs n = Json.read("{\"a\":1,\"bb\":\"x\",\"ccc\":\"y\",\"dddd\":4}", Needs.class);
        assertEquals(4, n.dddd);
        n = Json.read("{\"dddd\":4,\"a\":1,\"bb\":\"x\"}", Needs.class);
        assertEquals("x", n.bb);
        JsonBindException e = assertThrows(JsonBindException.class,
                () -> Json.read("{\"a\":1,\"bb\":\"x\",\"ccc\":\"y\"}", Needs.class));
        assertEquals("$: missing required property 'dddd' (byte 0)", e.getMessage());
        e = assertThrows(JsonBindException.class, () -> Json.read("{\"a\":1,\"ccc\":\"y\",\"dddd\":4}", Needs.class));
        assertEquals("$: missing required property 'bb' (byte 0)", e.getMessage());
    }

    @Test
    void errorsInTheOrderedPart() {
        String json = "{\"i\":1,\"l\":\"x\"}";
        JsonBindException e = assertThrows(JsonBindException.class, () -> Json.read(json, Wide.class));
        assertEquals("$.l: expected a long, found a string (byte 11)", e.getMessage());
        String nested = "{\"i\":1,\"l\":2,\"s\":3,\"b\":4,\"c\":\"c\",\"d\":1,\"f\":1,\"z\":true,\"str\":null,\"list\":[1,true]}";
        e = assertThrows(JsonBindException.class, () -> Json.read(nested, Wide.class));
        assertEquals("$.list[1]: expected an int, found true (byte " + nested.indexOf("true]") + ")", e.getMessage());
        String shortJson = "{\"i\":1,\"l\":2,\"s\":70000}";
        e = assertThrows(JsonBindException.class, () -> Json.read(shortJson, Wide.class));
        assertEquals("$.s: expected a short, found 70000 (out of range) (byte " + shortJson.indexOf("70000") + ")", e.getMessage());
        // A String property past the first of its method's: read by the read they share.
        String stringJson = "{\"i\":1,\"l\":2,\"s\":3,\"b\":4,\"c\":\"c\",\"d\":1,\"f\":1,\"z\":true,\"str\":null,\"list\":[],"
                + "\"child\":null,\"eightChr\":\"e\",\"sixteenCharsName\":[5]}";
        e = assertThrows(JsonBindException.class, () -> Json.read(stringJson, Wide.class));
        assertEquals("$.sixteenCharsName: expected a string, found an array (byte " + stringJson.indexOf("[5]") + ")", e.getMessage());
        String charJson = "{\"i\":1,\"l\":2,\"s\":3,\"b\":4,\"c\":\"cc\"}";
        e = assertThrows(JsonBindException.class, () -> Json.read(charJson, Wide.class));
        assertEquals("$.c: expected a string of one character, found a string (byte " + charJson.indexOf("\"cc\"") + ")",
                e.getMessage());
    }

    @Test
    void escapedKeysMatchTheirText() {
        // Keys are compared unescaped: "\u0069" is "i", "\u00fc..." the UTF-8 of the name.
        Wide w = Json.read("{\"\\u0069\":5,\"l\":6,\"\\u00fcn\\u00efc\\u00f6d\\u00e9\":\"u\"}", Wide.class);
        assertEquals(5, w.i);
        assertEquals(6, w.l);
        assertEquals("u", w.unicode);
        // A key that is a prefix of a name, or the name with one more byte, is not it.
        w = Json.read("{\"i\":1,\"ll\":2,\"eightCh\":\"no\",\"eightChrs\":\"no\",\"sixteenCharsNam\":\"no\"}", Wide.class);
        assertEquals(0, w.l);
        assertEquals(null, w.eightChr);
        assertEquals(null, w.sixteenCharsName);
    }

    @Test
    void writesEveryKindInDeclaredOrder() {
        Random r = new Random(5);
        for (int round = 0; round < 200; round++) {
            Wide w = random(r, 0);
            String json = Json.writeString(w);
            assertEquals("{" + String.join(",", members(w)) + "}", json);
            assertEquals(w, Json.read(json, Wide.class));
        }
    }

    public static class Nullable {
        public String a;
        public List<Integer> b;
        public Nullable c;
    }

    public static class Mixed {
        public String a;
        public int n;
        public String z;
    }

    @Test
    void nullsWrittenOrLeftOut() {
        JsonMapper omit = JsonMapper.builder().omitNulls(true).build();
        for (int mask = 0; mask < 8; mask++) {
            Nullable v = new Nullable();
            List<String> all = new ArrayList<>();
            List<String> present = new ArrayList<>();
            v.a = (mask & 1) != 0 ? "x" : null;
            v.b = (mask & 2) != 0 ? List.of(1, 2) : null;
            v.c = (mask & 4) != 0 ? new Nullable() : null;
            String[] written = {
                "\"a\":" + (v.a == null ? "null" : "\"x\""),
                "\"b\":" + (v.b == null ? "null" : "[1,2]"),
                "\"c\":" + (v.c == null ? "null" : "{\"a\":null,\"b\":null,\"c\":null}")};
            for (int i = 0; i < 3; i++) {
                all.add(written[i]);
                if ((mask & (1 << i)) != 0) {
                    present.add(written[i].replace("{\"a\":null,\"b\":null,\"c\":null}", "{}"));
                }
            }
            assertEquals("{" + String.join(",", all) + "}", Json.writeString(v));
            assertEquals("{" + String.join(",", present) + "}", omit.writeString(v));
        }
        Mixed m = new Mixed();
        assertEquals("{\"n\":0}", omit.writeString(m));
        m.z = "z";
        assertEquals("{\"n\":0,\"z\":\"z\"}", omit.writeString(m));
        m.a = "a";
        assertEquals("{\"a\":\"a\",\"n\":0,\"z\":\"z\"}", omit.writeString(m));
        assertEquals("{\"a\":\"a\",\"n\":0,\"z\":\"z\"}", Json.writeString(m));
    }

    /** A bean as java-json-benchmark's Users has them: private fields, accessors declared out of order. */
    public static class Bean {
        private String id;
        private int index;
        private boolean isActive;
        private String name;

        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public boolean getIsActive() { return isActive; }
        public void setIsActive(boolean isActive) { this.isActive = isActive; }
        public int getIndex() { return index; }
        public void setIndex(int index) { this.index = index; }
        public String getId() { return id; }
        public void setId(String id) { this.id = id; }
    }

    @Test
    void setterPropertiesAreReadInTheOrderOfTheirFields() {
        BeanModel model = new BeanModel(Bean.class);
        assertEquals(java.util.List.of("id", "index", "isActive", "name"),
                model.read.stream().map(p -> p.name).toList());
        assertEquals(java.util.List.of("id", "index", "isActive", "name"),
                model.write.stream().map(p -> p.name).toList());
        Bean b = Json.read("{\"id\":\"x\",\"index\":3,\"isActive\":true,\"name\":\"n\"}", Bean.class);
        assertEquals("x", b.getId());
        assertEquals(3, b.getIndex());
        assertEquals(true, b.getIsActive());
        assertEquals("{\"id\":\"x\",\"index\":3,\"isActive\":true,\"name\":\"n\"}", Json.writeString(b));
    }

    /**
     * Keys from 14 to 18 bytes with their comma: the generated writer stores keys of up to 16
     * bytes as two words and copies longer ones, and a 13-character name is 16 bytes first and 17
     * after a comma. Every present/null mix, so that each key is written both ways.
     */
    public static class KeyLengths {
        public String elevenChars;
        public String twelveCharsX;
        public String thirteenChars;
        public String fourteenCharsX;
        @JsonProperty("tab\there") public String escaped;
    }

    @Test
    void keysAroundSixteenBytesWrittenEitherWay() {
        JsonMapper omit = JsonMapper.builder().omitNulls(true).build();
        String[] names = {"elevenChars", "twelveCharsX", "thirteenChars", "fourteenCharsX", "tab\\there"};
        for (int mask = 0; mask < 32; mask++) {
            KeyLengths k = new KeyLengths();
            String[] values = new String[5];
            for (int i = 0; i < 5; i++) {
                values[i] = (mask & (1 << i)) != 0 ? "v" + i : null;
            }
            k.elevenChars = values[0];
            k.twelveCharsX = values[1];
            k.thirteenChars = values[2];
            k.fourteenCharsX = values[3];
            k.escaped = values[4];
            List<String> all = new ArrayList<>();
            List<String> present = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                String member = "\"" + names[i] + "\":" + (values[i] == null ? "null" : "\"" + values[i] + "\"");
                all.add(member);
                if (values[i] != null) {
                    present.add(member);
                }
            }
            assertEquals("{" + String.join(",", all) + "}", Json.writeString(k));
            assertEquals("{" + String.join(",", present) + "}", omit.writeString(k));
        }
    }
}
