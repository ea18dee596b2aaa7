// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * String values that the native read leaves in the input (an all-ASCII document, the value with
 * no escape: BindingTape.IN_INPUT), read from there: every kind of value that reads a string's
 * bytes (Strings, enums, dates, map values, lists), at the start, in the middle and at the end of
 * the bytes given, with white space before the next token, beside escaped strings that are copied,
 * and the same values where the document is not ASCII and everything is copied.
 */
class StringsInInputTest {
    public enum Color { RED, GREEN, A_CONSTANT_NAME_PAST_SIXTEEN_BYTES }

    public static class Item {
        public String name;
        public Color color;
        public LocalDate day;
        public List<String> tags;
        public Map<String, String> labels;
        public Item next;
    }

    private static Item item(String name, Color color, LocalDate day, List<String> tags, Map<String, String> labels) {
        Item i = new Item();
        i.name = name;
        i.color = color;
        i.day = day;
        i.tags = tags;
        i.labels = labels;
        return i;
    }

    private static void assertSame(Item expected, Item actual, String doc) {
        assertEquals(expected.name, actual.name, doc);
        assertEquals(expected.color, actual.color, doc);
        assertEquals(expected.day, actual.day, doc);
        assertEquals(expected.tags, actual.tags, doc);
        assertEquals(expected.labels, actual.labels, doc);
        assertEquals(expected.next == null, actual.next == null, doc);
        if (expected.next != null) {
            assertSame(expected.next, actual.next, doc);
        }
    }

    /** The document as written, and with white space between every token. */
    private static List<String> layouts(String compact) {
        return List.of(compact, compact.replace(",", " ,\n ").replace(":", "\t: ").replace("}", " \r\n}").replace("]", " ]"));
    }

    @Test
    void valuesReadFromTheInputAreThoseOfTheDocument() {
        Random random = new Random(5);
        String[] texts = {"", "a", "plain text", "exactly16bytes!!", "a string that runs past thirty-two bytes of text",
                "with \\\"escapes\\\" \\n", "tab\\there", "\\u0041\\u00e9", "caf\u00e9", "\u4e2d\u6587"};
        String[] decoded = {"", "a", "plain text", "exactly16bytes!!", "a string that runs past thirty-two bytes of text",
                "with \"escapes\" \n", "tab\there", "A\u00e9", "caf\u00e9", "\u4e2d\u6587"};
        for (int round = 0; round < 400; round++) {
            int a = random.nextInt(texts.length), b = random.nextInt(texts.length), c = random.nextInt(texts.length);
            Color color = Color.values()[random.nextInt(3)];
            LocalDate day = LocalDate.of(2000 + random.nextInt(30), 1 + random.nextInt(12), 1 + random.nextInt(28));
            String compact = "{\"name\":\"" + texts[a] + "\",\"color\":\"" + color + "\",\"day\":\"" + day + "\",\"tags\":[\""
                    + texts[b] + "\",\"" + texts[c] + "\"],\"labels\":{\"k\":\"" + texts[c] + "\"},\"next\":{\"name\":\""
                    + texts[b] + "\",\"color\":\"" + color + "\"}}";
            Item expected = item(decoded[a], color, day, List.of(decoded[b], decoded[c]), Map.of("k", decoded[c]));
            expected.next = item(decoded[b], color, null, null, null);
            for (String doc : layouts(compact)) {
                byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
                assertSame(expected, Json.read(bytes, Item.class), doc);
                // The same bytes inside a larger array, read from their offset (the strings' offsets
                // in the input are the array's less that), with text around them that would show.
                byte[] around = ("xx\"yy" + doc + "\"zz,").getBytes(StandardCharsets.UTF_8);
                assertSame(expected, Json.mapper().read(around, 5, bytes.length, Item.class), doc);
                ByteBuffer slice = ByteBuffer.wrap(around, 5, bytes.length).slice();
                assertSame(expected, Json.read(slice, Item.class), doc);
                ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
                assertSame(expected, Json.read(direct, Item.class), doc); // copied: the input is not an array
            }
        }
    }

    @Test
    void anEnumConstantAtTheVeryEndOfTheInput() {
        // Enum constants are matched eight bytes at a time; a string left in the input may end
        // fewer than 16 bytes before the array does.
        for (Color c : Color.values()) {
            for (String doc : List.of("[\"" + c + "\"]", "[\"" + c + "\" ]", "{\"color\":\"" + c + "\"}")) {
                byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
                Object read = doc.startsWith("[") ? Json.read(bytes, new TypeRef<List<Color>>() {}).get(0)
                        : Json.read(bytes, Item.class).color;
                assertEquals(c, read, doc);
            }
        }
        JsonBindException e = org.junit.jupiter.api.Assertions.assertThrows(JsonBindException.class,
                () -> Json.read("[\"BLUE\"]".getBytes(StandardCharsets.UTF_8), new TypeRef<List<Color>>() {}));
        assertNotEquals(-1, e.getMessage().indexOf("BLUE"), e.getMessage());
    }

    @Test
    void theStringsAreNotTiedToTheInput() {
        // A String is made from the input's bytes once: changing the array afterwards leaves it be.
        byte[] bytes = "{\"name\":\"before\",\"tags\":[\"one\"]}".getBytes(StandardCharsets.UTF_8);
        Item read = Json.read(bytes, Item.class);
        java.util.Arrays.fill(bytes, (byte) 'z');
        assertEquals("before", read.name);
        assertEquals(List.of("one"), read.tags);
    }
}
