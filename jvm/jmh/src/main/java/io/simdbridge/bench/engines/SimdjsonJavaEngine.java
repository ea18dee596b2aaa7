// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.engines;

import io.simdbridge.bench.data.Input;
import java.util.Iterator;
import java.util.Map;
import org.simdjson.JsonValue;
import org.simdjson.SimdJsonParser;

/**
 * simdjson-java, the Vector API port of simdjson: parse to its tape, then walk its JsonValues.
 * It reads one document at a time, so a stream is cut into lines here (NDJSON).
 */
public final class SimdjsonJavaEngine implements Engine {
    private final ThreadLocal<SimdJsonParser> parser = ThreadLocal.withInitial(SimdJsonParser::new);

    @Override
    public String name() {
        return "simdjson-java";
    }

    @Override
    public long checksum(Input in) {
        return walk(Checksum.SEED, parser.get().parse(in.padded(), in.length()));
    }

    @Override
    public long checksumStream(Input in) {
        byte[] bytes = in.bytes();
        SimdJsonParser p = parser.get();
        long h = Checksum.SEED;
        int start = 0;
        byte[] line = new byte[0];
        while (start < in.length()) {
            int end = start;
            while (end < in.length() && bytes[end] != '\n') {
                end++;
            }
            if (!blank(bytes, start, end)) {
                int length = end - start;
                if (line.length < length) {
                    line = new byte[Math.max(length, line.length * 2)];
                }
                System.arraycopy(bytes, start, line, 0, length);
                h = Checksum.fold(walk(h, p.parse(line, length)), Checksum.DOCUMENT_END, 0);
            }
            start = end + 1;
        }
        return h;
    }

    private static boolean blank(byte[] bytes, int start, int end) {
        for (int i = start; i < end; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static long walk(long h, JsonValue v) {
        if (v.isObject()) {
            h = Checksum.fold(h, Checksum.OBJECT_BEGIN, 0);
            for (Iterator<Map.Entry<String, JsonValue>> it = v.objectIterator(); it.hasNext(); ) {
                Map.Entry<String, JsonValue> field = it.next();
                h = walk(Checksum.fold(h, Checksum.KEY, Checksum.utf8Length(field.getKey())), field.getValue());
            }
            return Checksum.fold(h, Checksum.OBJECT_END, 0);
        }
        if (v.isArray()) {
            h = Checksum.fold(h, Checksum.ARRAY_BEGIN, 0);
            for (Iterator<JsonValue> it = v.arrayIterator(); it.hasNext(); ) {
                h = walk(h, it.next());
            }
            return Checksum.fold(h, Checksum.ARRAY_END, 0);
        }
        if (v.isString()) {
            return Checksum.fold(h, Checksum.STRING, Checksum.utf8Length(v.asString()));
        }
        if (v.isLong()) {
            return Checksum.fold(h, Checksum.INTEGER, v.asLong());
        }
        if (v.isDouble()) {
            return Checksum.foldDouble(h, v.asDouble());
        }
        if (v.isBoolean()) {
            return Checksum.fold(h, v.asBoolean() ? Checksum.TRUE : Checksum.FALSE, 0);
        }
        return Checksum.fold(h, Checksum.NULL, 0);
    }
}
