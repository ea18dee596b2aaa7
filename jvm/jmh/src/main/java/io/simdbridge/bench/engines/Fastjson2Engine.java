// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.engines;

import com.alibaba.fastjson2.JSONReader;
import io.simdbridge.bench.data.Input;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * fastjson2's streaming JSONReader, walked value by value. Its readNumber gives Integer, Long or
 * BigInteger for an integral token and BigDecimal or Double otherwise; a BigDecimal has no
 * negative zero, so for a zero the token's first byte says whether it was "-0.0".
 */
public final class Fastjson2Engine implements Engine {
    @Override
    public String name() {
        return "fastjson2";
    }

    @Override
    public long checksum(Input in) {
        try (JSONReader r = JSONReader.of(in.bytes(), 0, in.length())) {
            long h = value(r, Checksum.SEED, in.bytes());
            if (!r.isEnd()) {
                throw new IllegalArgumentException("content after the document");
            }
            return h;
        }
    }

    @Override
    public long checksumStream(Input in) {
        try (JSONReader r = JSONReader.of(in.bytes(), 0, in.length())) {
            long h = Checksum.SEED;
            while (!r.isEnd()) {
                h = Checksum.fold(value(r, h, in.bytes()), Checksum.DOCUMENT_END, 0);
            }
            return h;
        }
    }

    private static long value(JSONReader r, long h, byte[] bytes) {
        if (r.nextIfObjectStart()) {
            h = Checksum.fold(h, Checksum.OBJECT_BEGIN, 0);
            while (!r.nextIfObjectEnd()) {
                h = Checksum.fold(h, Checksum.KEY, Checksum.utf8Length(r.readFieldName()));
                h = value(r, h, bytes);
            }
            return Checksum.fold(h, Checksum.OBJECT_END, 0);
        }
        if (r.nextIfArrayStart()) {
            h = Checksum.fold(h, Checksum.ARRAY_BEGIN, 0);
            while (!r.nextIfArrayEnd()) {
                h = value(r, h, bytes);
            }
            return Checksum.fold(h, Checksum.ARRAY_END, 0);
        }
        if (r.isString()) {
            return Checksum.fold(h, Checksum.STRING, Checksum.utf8Length(r.readString()));
        }
        if (r.isNumber()) {
            int first = r.getOffset() - 1; // the reader holds the token's first byte
            Number n = r.readNumber();
            if (n instanceof Integer || n instanceof Long) {
                return Checksum.fold(h, Checksum.INTEGER, n.longValue());
            }
            if (n instanceof BigInteger b) {
                return Checksum.foldBigInteger(h, b);
            }
            double d = n instanceof BigDecimal b ? b.doubleValue() : n.doubleValue();
            if (d == 0 && bytes[first] == '-') {
                d = -0.0;
            }
            return Checksum.foldDouble(h, d);
        }
        if (r.nextIfNull()) {
            return Checksum.fold(h, Checksum.NULL, 0);
        }
        return Checksum.fold(h, r.readBoolValue() ? Checksum.TRUE : Checksum.FALSE, 0);
    }
}
