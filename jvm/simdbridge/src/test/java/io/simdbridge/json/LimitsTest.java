// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.simdbridge.Bridge;
import io.simdbridge.ErrorCode;
import io.simdbridge.JsonException;
import io.simdbridge.JsonLimits;
import io.simdbridge.NativeParser;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The limits of JsonLimits, per mapper and per parser: each its own error, never a hang or a crash. */
class LimitsTest {
    private static ErrorCode code(JsonBindException e) {
        return assertInstanceOf(JsonException.class, e.getCause()).code();
    }

    /** A million digits took 21 s (BigInteger's conversion is quadratic); now refused at once. */
    @Test
    void aHugeNumberIsRefusedQuickly() {
        long start = System.nanoTime();
        JsonBindException e = assertThrows(JsonBindException.class, () -> Json.read("1".repeat(1_000_000), Object.class));
        assertTrue(System.nanoTime() - start < 2_000_000_000L, "took " + (System.nanoTime() - start) / 1e9 + " s");
        assertEquals(ErrorCode.NUMBER_TOO_LONG, code(e));
        assertEquals(0, e.offset());
        assertTrue(e.getMessage().contains("max_number_length"), e.getMessage());
        JsonBindException inList = assertThrows(JsonBindException.class,
                () -> Json.read("[1, " + "9".repeat(1001) + "]", Object.class));
        assertEquals(4, inList.offset());
        assertEquals(new BigInteger("9".repeat(1000)), Json.read("9".repeat(1000), BigInteger.class));
        assertEquals(new BigInteger("9".repeat(3000)),
                JsonMapper.builder().maxNumberLength(0).build().read("9".repeat(3000), BigInteger.class));
        JsonMapper five = JsonMapper.builder().maxNumberLength(5).build();
        assertEquals(ErrorCode.NUMBER_TOO_LONG,
                code(assertThrows(JsonBindException.class, () -> five.read("123456789012345678901", Object.class))));
        assertEquals(1.5, five.read("1.50000000000000000000000", Object.class)); // a double: not limited
    }

    /**
     * An exponent makes a short number a long integer: 1e9999999 read as a BigInteger took 2.3 s
     * and 4 MB, and each digit more in the exponent makes ten times the digits. Those digits now
     * count against the limit on a number's characters; an exponent past BigDecimal's, or a
     * number that is not an integer, is a binding error. Each is refused at once.
     */
    @Test
    void anExponentIsLimitedAsDigitsAre() {
        long start = System.nanoTime();
        for (String huge : new String[] {"1e99999999", "1e999999999"}) {
            JsonBindException e = assertThrows(JsonBindException.class, () -> Json.read("[" + huge + "]", BigInteger[].class));
            assertEquals(1, e.offset());
            assertTrue(e.getMessage().contains(huge + " (more than 1000 digits)"), e.getMessage());
        }
        JsonBindException tiny = assertThrows(JsonBindException.class, () -> Json.read("[1e-999999999]", BigInteger[].class));
        assertEquals(1, tiny.offset());
        assertTrue(System.nanoTime() - start < 2_000_000_000L, "took " + (System.nanoTime() - start) / 1e9 + " s");
        assertEquals(BigInteger.TEN.pow(999), Json.read("1e999", BigInteger.class)); // 1000 digits
        assertEquals(BigInteger.valueOf(15), Json.read("1.50e1", BigInteger.class));
        assertThrows(JsonBindException.class, () -> Json.read("1e1000", BigInteger.class));
        JsonMapper unlimited = JsonMapper.builder().maxNumberLength(0).build();
        assertEquals(BigInteger.TEN.pow(2000), unlimited.read("1e2000", BigInteger.class));
        assertTrue(assertThrows(JsonBindException.class, () -> unlimited.read("1e999999999", BigInteger.class))
                .getMessage().contains("1e999999999 (out of range)"));
        // BigDecimal holds exponents within an int; past them, an error, not NumberFormatException.
        assertEquals(new BigDecimal("1e2147483647"), Json.read("1e2147483647", BigDecimal.class));
        for (Class<?> type : new Class<?>[] {BigDecimal[].class, Object.class}) {
            for (String past : new String[] {"1e2147483649", "1e99999999999"}) {
                JsonBindException e = assertThrows(JsonBindException.class, () -> Json.read("[0," + past + "]", type));
                assertEquals(3, e.offset());
                assertTrue(e.getMessage().contains(past + " (out of range)"), e.getMessage());
            }
        }
        // A double's underflow is 0.0 (as Jackson and Python read it); a BigDecimal's, an error.
        assertEquals(List.of(0.0), Json.read("[0.1e-2147483648]", Object.class));
        assertThrows(JsonBindException.class, () -> Json.read("0.1e-2147483648", BigDecimal.class));
        // Numbers in strings: the same limit on their characters.
        assertEquals(new BigInteger("9".repeat(1000)), Json.read("\"" + "9".repeat(1000) + "\"", BigInteger.class));
        JsonBindException text = assertThrows(JsonBindException.class,
                () -> Json.read("\"" + "9".repeat(1001) + "\"", BigDecimal.class));
        assertTrue(text.getMessage().contains("a string of more than 1000 characters"), text.getMessage());
    }

    @Test
    void depthAndDocumentLengthPerMapper() {
        JsonMapper shallow = JsonMapper.builder().maxDepth(3).maxDocumentLength(20).build();
        assertEquals(List.of(List.of(List.of(1L))), shallow.read("[[[1]]]", Object.class));
        JsonBindException deep = assertThrows(JsonBindException.class, () -> shallow.read("[[[[1]]]]", Object.class));
        assertEquals(ErrorCode.DEPTH_LIMIT, code(deep));
        assertEquals(3, deep.offset());
        JsonBindException longer = assertThrows(JsonBindException.class, () -> shallow.read("[1,2,3,4,5,6,7,8,9,10]", Object.class));
        assertEquals(ErrorCode.DOCUMENT_TOO_LONG, code(longer));
        assertEquals(20, longer.offset());
        // The default mapper on the same thread is unchanged by the other's limits.
        assertEquals(List.of(List.of(List.of(List.of(1L)))), Json.read("[[[[1]]]]", Object.class));
        assertSame(JsonLimits.DEFAULT, NativeParser.forCurrentThread().limits());
    }

    /** A long stream: "[1,1,1,..." for a megabyte, counting what was taken. */
    private static final class Endless extends java.io.InputStream {
        long taken;

        @Override
        public int read() {
            if (taken == 1 << 20) {
                return -1;
            }
            return taken++ == 0 ? '[' : (taken & 1) == 0 ? '1' : ',';
        }
    }

    @Test
    void aStreamIsReadNoFurtherThanTheDocumentLimit() {
        JsonMapper twenty = JsonMapper.builder().maxDocumentLength(20).build();
        Endless endless = new Endless();
        JsonBindException e = assertThrows(JsonBindException.class, () -> twenty.read(endless, Object.class));
        assertEquals(ErrorCode.DOCUMENT_TOO_LONG, code(e));
        assertEquals(20, e.offset());
        assertEquals(21, endless.taken);
        // The same error as from the array, and a document of the limit's length reads whole.
        byte[] longer = "[1,1,1,1,1,1,1,1,1,1,1]".getBytes(StandardCharsets.UTF_8);
        JsonBindException fromArray = assertThrows(JsonBindException.class, () -> twenty.read(longer, Object.class));
        JsonBindException fromStream = assertThrows(JsonBindException.class,
                () -> twenty.read(new java.io.ByteArrayInputStream(longer), Object.class));
        assertEquals(fromArray.getMessage(), fromStream.getMessage());
        byte[] exact = "[1,1,1,1,1,1,1,1,11]".getBytes(StandardCharsets.UTF_8);
        assertEquals(20, exact.length);
        assertEquals(9, twenty.read(new java.io.ByteArrayInputStream(exact), List.class).size());
    }

    @Test
    void aStreamPastTheLargestArrayIsRefusedThere() {
        // The JVM's largest array (readAll's bound without a limit) made 20 bytes: a longer stream
        // is DOCUMENT_TOO_LONG at byte 20, read no further than one byte past it.
        assertEquals(Integer.MAX_VALUE - 8, JsonMapper.LARGEST_ARRAY);
        Endless endless = new Endless();
        JsonBindException e = assertThrows(JsonBindException.class, () -> JsonMapper.readAll(endless, 0, 20));
        assertEquals(ErrorCode.DOCUMENT_TOO_LONG, code(e));
        assertEquals(20, e.offset());
        assertEquals("$[9]", e.path()); // as under a maxDocumentLength of 20
        JsonMapper twenty = JsonMapper.builder().maxDocumentLength(20).build();
        JsonBindException limited =
                assertThrows(JsonBindException.class, () -> twenty.read(new Endless(), Object.class));
        assertEquals(limited.path(), e.path());
        assertTrue(e.getMessage().contains("longer than the JVM's largest array, 20 bytes"), e.getMessage());
        assertEquals(21, endless.taken);
        // A limit at the bound or past it is the bound; one below it reads one byte past the limit.
        assertThrows(JsonBindException.class, () -> JsonMapper.readAll(new Endless(), 20, 20));
        assertThrows(JsonBindException.class, () -> JsonMapper.readAll(new Endless(), 1L << 40, 20));
        assertEquals(20, JsonMapper.readAll(new Endless(), 19, 20).length);
        byte[] exact = "[1,1,1,1,1,1,1,1,11]".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(exact, JsonMapper.readAll(new java.io.ByteArrayInputStream(exact), 0, 20));
    }

    /** A node of a chain, read and written by the bean codec. */
    public static final class Node {
        public Node next;
    }

    /** What the call throws, run on a thread of 512 KB of stack. */
    private static Throwable onASmallStack(Runnable call) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try {
                call.run();
            } catch (Throwable e) {
                thrown[0] = e;
            }
        }, "small stack", 512 << 10);
        t.start();
        t.join();
        return thrown[0];
    }

    @Test
    void nestingPastTheStackIsTheDepthErrorNotAStackOverflow() throws InterruptedException {
        // Under a maxDepth raised far past the default, a document nested 200,000 deep (or a
        // value that deep written) overflowed the stack: a StackOverflowError out of the mapper.
        JsonMapper deep = JsonMapper.builder().maxDepth(1_000_000).build();
        int n = 200_000;
        String arrays = "[".repeat(n) + "]".repeat(n);
        String chain = "{\"next\":".repeat(n) + "null" + "}".repeat(n);
        for (Object[] c : new Object[][] {{arrays, Object.class, (long) n - 1}, {arrays, List.class, (long) n - 1},
                {chain, Node.class, 8L * (n - 1)}}) {
            Throwable e = onASmallStack(() -> deep.read((String) c[0], (Class<?>) c[1]));
            JsonBindException b = assertInstanceOf(JsonBindException.class, e, String.valueOf(e));
            assertEquals(ErrorCode.DEPTH_LIMIT, code(b));
            assertEquals((long) c[2], b.offset()); // the first of the deepest containers
            assertTrue(b.getMessage().contains("nest " + n + " deep, deeper than this thread's stack holds"), b.getMessage());
            assertTrue(b.getMessage().length() < 400, b.getMessage()); // the path elided, as for the depth limit
        }
        Node head = new Node();
        Node at = head;
        for (int i = 0; i < n; i++) {
            at = at.next = new Node();
        }
        List<Object> lists = new ArrayList<>();
        List<Object> inner = lists;
        for (int i = 0; i < n; i++) {
            List<Object> next = new ArrayList<>();
            inner.add(next);
            inner = next;
        }
        for (Object value : new Object[] {head, lists}) {
            Throwable e = onASmallStack(() -> deep.write(value));
            assertInstanceOf(IllegalStateException.class, e, String.valueOf(e));
            assertTrue(e.getMessage().contains("deeper than this thread's stack holds"), e.getMessage());
            e = onASmallStack(() -> deep.write(value, new java.io.ByteArrayOutputStream()));
            assertInstanceOf(IllegalStateException.class, e, String.valueOf(e));
        }
        // What fits the stack still reads and writes, on the same thread size.
        String fits = "[".repeat(500) + "]".repeat(500);
        assertEquals(null, onASmallStack(() -> assertEquals(fits, deep.writeString(deep.read(fits, Object.class)))));
    }

    @Test
    void aStringLongerThanTheLimitPerMapper() {
        JsonMapper ten = JsonMapper.builder().maxStringLength(10).build();
        assertEquals(Map.of("abcdefghij", "0123456789"), ten.read("{\"abcdefghij\":\"0123456789\"}", Object.class));
        JsonBindException value = assertThrows(JsonBindException.class, () -> ten.read("[\"abcdefghijk\"]", Object.class));
        assertEquals(ErrorCode.STRING_TOO_LONG, code(value));
        assertEquals(1, value.offset());
        JsonBindException key = assertThrows(JsonBindException.class, () -> ten.read("{\"abcdefghijk\":1}", Object.class));
        assertEquals(ErrorCode.STRING_TOO_LONG, code(key));
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i < 1000; i++) {
            many.append("\"0123456789\",");
        }
        int at = many.length();
        many.append("\"0123456789X\"]");
        assertEquals(at, assertThrows(JsonBindException.class, () -> ten.read(many.toString(), Object.class)).offset());
        assertEquals(List.of("abcdefghijk"), Json.read("[\"abcdefghijk\"]", Object.class));
        NativeParser p = new NativeParser(JsonLimits.DEFAULT.withMaxStringLength(3));
        byte[] json = "[\"abcd\"]".getBytes(StandardCharsets.UTF_8);
        JsonException e = assertThrows(JsonException.class, () -> p.validate(json, 0, json.length, Bridge.JNI_COPY));
        assertEquals(ErrorCode.STRING_TOO_LONG, e.code());
        assertEquals(1, e.offset());
        p.close();
    }

    @Test
    void theMessageOfADeepErrorIsOneShortLine() {
        String deep = "[".repeat(2000) + "]".repeat(2000);
        JsonBindException e = assertThrows(JsonBindException.class, () -> Json.read(deep, Object.class));
        assertEquals(ErrorCode.DEPTH_LIMIT, code(e));
        assertTrue(e.getMessage().length() < 300, e.getMessage().length() + ": " + e.getMessage());
        assertTrue(e.getMessage().contains("more)"), e.getMessage());
    }

    /** A cycle or a very deep value, written: an exception naming the limit, not a StackOverflowError. */
    @Test
    void writingACycleOrATooDeepValueIsAClearError() {
        List<Object> cyclic = new ArrayList<>();
        cyclic.add(1);
        cyclic.add(cyclic);
        Map<String, Object> cyclicMap = new HashMap<>();
        cyclicMap.put("self", cyclicMap);
        List<Object> deep = new ArrayList<>();
        List<Object> inner = deep;
        for (int i = 0; i < 100_000; i++) {
            List<Object> next = new ArrayList<>();
            inner.add(next);
            inner = next;
        }
        Object[] selfArray = new Object[1];
        selfArray[0] = selfArray;
        for (Object value : new Object[] {cyclic, cyclicMap, deep, selfArray}) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Json.write(value));
            assertTrue(e.getMessage().contains("nest more than 1024"), e.getMessage());
        }
        JsonMapper three = JsonMapper.builder().maxDepth(3).build();
        assertEquals("[[[]]]", new String(three.write(List.of(List.of(List.of()))), StandardCharsets.UTF_8));
        assertThrows(IllegalStateException.class, () -> three.write(List.of(List.of(List.of(List.of())))));
        assertEquals("[[[[]]]]", Json.writeString(List.of(List.of(List.of(List.of())))));
    }

    /** Depth buffers follow the documents read: 2^31 levels allocated 2.2 GB a parser for "[1]". */
    @Test
    void aHugeDepthLimitCostsNothingUntilUsed() {
        List<NativeParser> parsers = new ArrayList<>();
        byte[] json = "[1]".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 50; i++) {
            NativeParser p = new NativeParser(Integer.MAX_VALUE);
            p.validate(json, 0, json.length, Bridge.FFM_HEAP);
            p.checksum(json);
            parsers.add(p);
        }
        byte[] deep = ("[".repeat(100_000) + "]".repeat(100_000)).getBytes(StandardCharsets.UTF_8);
        parsers.get(0).validate(deep, 0, deep.length, Bridge.JNI_COPY);
        parsers.forEach(NativeParser::close);
    }

    @Test
    void aParsersLimitsChangeAndARelasedParserGoesBackWithTheDefaults() {
        NativeParser p = NativeParser.acquire();
        p.setLimits(JsonLimits.DEFAULT.withMaxDocumentLength(3));
        byte[] json = "[1,2]".getBytes(StandardCharsets.UTF_8);
        JsonException e = assertThrows(JsonException.class, () -> p.validate(json, 0, json.length, Bridge.FFM_HEAP));
        assertEquals(ErrorCode.DOCUMENT_TOO_LONG, e.code());
        assertEquals(3, e.offset());
        p.release();
        NativeParser again = NativeParser.acquire();
        assertEquals(JsonLimits.DEFAULT, again.limits());
        again.validate(json, 0, json.length, Bridge.FFM_HEAP);
        again.release();
        assertThrows(IllegalArgumentException.class, () -> JsonLimits.DEFAULT.withMaxDepth(0));
        assertThrows(IllegalArgumentException.class, () -> JsonLimits.DEFAULT.withMaxNumberLength(-1));
    }
}
