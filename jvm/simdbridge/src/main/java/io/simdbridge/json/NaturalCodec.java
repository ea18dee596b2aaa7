// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code Object}: JSON's own types read as LinkedHashMap, ArrayList, String, Long, Double,
 * Boolean and null (an integer in [2^63, 2^64) or past 64 bits as BigInteger, a number past the
 * double range as BigDecimal); written by the runtime class of each value.
 */
final class NaturalCodec extends Codec<Object> {
    static final NaturalCodec INSTANCE = new NaturalCodec();

    private NaturalCodec() {}

    @Override
    Object read(BindingTape t, int w) {
        switch (t.kind(w)) {
            case BindingTape.OBJECT: {
                Map<String, Object> m = LinkedHashMap.newLinkedHashMap(t.count(w));
                int end = t.next(w);
                for (int k = w + 2; k < end; ) {
                    int v = k + 2;
                    m.put(t.text(k), read(t, v));
                    k = t.next(v);
                }
                if (t.failOnDuplicate && m.size() != t.count(w)) {
                    throw t.duplicateKey(w);
                }
                return m;
            }
            case BindingTape.ARRAY: {
                List<Object> list = new ArrayList<>(t.count(w));
                int end = t.next(w);
                for (int e = w + 2; e < end; e = t.next(e)) {
                    list.add(read(t, e));
                }
                return list;
            }
            case BindingTape.STRING: return t.text(w);
            case BindingTape.INT64: return t.words[w + 1];
            case BindingTape.UINT64: return t.bigInteger(w);
            case BindingTape.FLOAT64: return Double.longBitsToDouble(t.words[w + 1]);
            case BindingTape.BIG: {
                String s = t.numberText(w);
                return s.indexOf('.') < 0 && s.indexOf('e') < 0 && s.indexOf('E') < 0 ? new BigInteger(s) : t.decimal(w, s, "a number");
            }
            case BindingTape.TRUE: return Boolean.TRUE;
            case BindingTape.FALSE: return Boolean.FALSE;
            default: return null;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    void write(JsonWriter out, Object value) {
        Class<?> c = value.getClass();
        if (c == String.class) {
            out.writeString((String) value);
        } else if (c == Long.class || c == Integer.class || c == Short.class || c == Byte.class) {
            out.writeLong(((Number) value).longValue());
        } else if (c == Double.class) {
            out.writeDouble((Double) value);
        } else if (c == Boolean.class) {
            out.writeBoolean((Boolean) value);
        } else if (value instanceof Map<?, ?> map) {
            writeMap(out, map);
        } else if (value instanceof Collection<?> collection) {
            writeCollection(out, collection);
        } else {
            ((Codec<Object>) Codecs.forType(c)).write(out, value);
        }
    }

    /** A map known only by its runtime class: values by theirs, keys as strings (enums by name). */
    @SuppressWarnings("unchecked")
    private void writeMap(JsonWriter out, Map<?, ?> map) {
        out.enter(map);
        out.writeByte((byte) '{');
        boolean first = true;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object v = e.getValue();
            if (v == null && out.omitNulls) {
                continue;
            }
            if (!first) {
                out.writeByte((byte) ',');
            }
            first = false;
            Object k = e.getKey();
            if (k instanceof Enum<?> constant) {
                ((EnumCodec<?>) Codecs.forType(constant.getDeclaringClass())).writeConstant(out, constant);
            } else {
                out.writeString(String.valueOf(k));
            }
            out.writeByte((byte) ':');
            ContainerCodecs.writeElement(out, this, v);
        }
        out.writeByte((byte) '}');
        out.leave();
    }

    private void writeCollection(JsonWriter out, Collection<?> collection) {
        out.enter(collection);
        out.writeByte((byte) '[');
        boolean first = true;
        for (Object v : collection) {
            if (!first) {
                out.writeByte((byte) ',');
            }
            first = false;
            ContainerCodecs.writeElement(out, this, v);
        }
        out.writeByte((byte) ']');
        out.leave();
    }
}
