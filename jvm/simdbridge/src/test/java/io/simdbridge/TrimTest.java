// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.simdbridge.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NativeParser.trim(), and when the mapper calls it: a thread keeps the buffers its last
 * documents needed, gives them back when a much smaller one follows, and keeps none after a huge
 * one; reads are the same across every change.
 */
class TrimTest {
    private static byte[] document(int bytes) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; sb.length() < bytes; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"id\":").append(i).append(",\"name\":\"n\\u00e9").append(i)
                    .append("\",\"x\":[1.5,-2,true,null]}");
        }
        return sb.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aTrimmedParserReadsAsBefore() throws Exception {
        NativeParser p = new NativeParser();
        byte[] large = document(3 << 20), small = document(100);
        long expectedLarge = p.checksum(large), expectedSmall = p.checksum(small);
        p.trim();
        assertEquals(expectedSmall, p.checksum(small));
        p.trim();
        p.trim();
        assertEquals(expectedLarge, p.checksum(large));
        long[] words = new long[1 << 20];
        byte[] strings = new byte[large.length + 64];
        p.bindingTape(large, 0, large.length, words, strings, false);
        int used = p.bindingTapeWords();
        p.trim();
        long[] again = new long[1 << 20];
        p.bindingTape(large, 0, large.length, again, strings, false);
        assertEquals(used, p.bindingTapeWords());
        assertEquals(java.util.Arrays.toString(java.util.Arrays.copyOf(words, used)),
                java.util.Arrays.toString(java.util.Arrays.copyOf(again, used)));
        // A kept document is dropped; another thread may not trim it; a closed one neither.
        p.parseDocument(PaddedBuffers.copyOf(small), Bridge.FFM_DIRECT);
        p.trim();
        assertThrows(IllegalStateException.class, () -> p.getLong(JsonPointer.of("/0/id"), -1));
        Throwable[] seen = new Throwable[1];
        Thread other = Thread.ofPlatform().start(() -> {
            try {
                p.trim();
            } catch (Throwable e) {
                seen[0] = e;
            }
        });
        other.join();
        assertEquals(IllegalStateException.class, seen[0] == null ? null : seen[0].getClass());
        assertEquals(expectedSmall, p.checksum(small));
        p.close();
        assertThrows(IllegalStateException.class, p::trim);
    }

    @Test
    void theMapperTrimsWhenAMuchSmallerDocumentFollowsOrAfterAHugeOne() throws Exception {
        // On a thread of its own: its contexts start empty.
        List<Object> failures = new ArrayList<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                byte[] two = document(2 << 20), small = document(200), huge = document(17 << 20);
                Object expectedTwo = Json.read(two, Object.class), expectedSmall = Json.read(small, Object.class);
                long before = NativeParser.TRIMS.get();
                for (int i = 0; i < 3; i++) {
                    assertEquals(expectedTwo, Json.read(two, Object.class)); // the same size again: kept
                }
                assertEquals(before, NativeParser.TRIMS.get());
                assertEquals(expectedSmall, Json.read(small, Object.class)); // far smaller: given back
                assertEquals(before + 1, NativeParser.TRIMS.get());
                assertEquals(expectedSmall, Json.read(small, Object.class));
                assertEquals(expectedTwo, Json.read(two, Object.class));
                assertEquals(before + 1, NativeParser.TRIMS.get());
                Object h = Json.read(huge, Object.class); // past 16 MB: nothing kept after it
                assertEquals(before + 2, NativeParser.TRIMS.get());
                assertEquals(Map.of("id", 3L, "name", "n\u00e93", "x", java.util.Arrays.asList(1.5, -2L, true, null)),
                        ((List<?>) h).get(3));
                assertEquals(expectedSmall, Json.read(small, Object.class));
                assertEquals(before + 2, NativeParser.TRIMS.get());
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        t.join();
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.get(0));
        }
    }
}
