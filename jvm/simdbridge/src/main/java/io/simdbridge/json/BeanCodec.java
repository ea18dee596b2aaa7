// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import io.simdbridge.internal.BeanAccess;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A record or a class, read from a JSON object and written as one, through the code generated
 * for it ({@link BeanAccess}, {@link AccessGenerator}). Reading: the properties that come in
 * declared order are read by the generated readInOrder, with no lookup; the rest by name, keys
 * matched as bytes ({@link Keys}), each value going straight from the tape into a typed store,
 * with no boxing for primitives (records and creators collect their arguments first, boxed, then
 * call the constructor once). Writing: the generated writeProperties, a typed write per property.
 */
final class BeanCodec<T> extends Codec<T> {
    // Property kinds: how a value is read from the tape and handed to the accessor.
    private static final int INT = 0, SHORT = 1, BYTE = 2, CHAR = 3, LONG = 4, DOUBLE = 5, FLOAT = 6, BOOLEAN = 7,
            STRING = 8, OBJECT = 9;

    private final Class<T> type;
    private final String expected; // "an object (User)", for a mismatch
    private BeanAccess access;
    private boolean viaCreator;
    /** Read by the generated readPlanned where a binding plan wrote the object (see Codec.planned). */
    private boolean planned;
    // Read side, by read-property index.
    private Keys keys;
    private int[] keyToProperty; // Keys index -> read-property index (an ignored component has none)
    private int[] readKinds;
    private Codec<?>[] readCodecs;
    private String[] readNames;
    private long requiredMask;
    private int[] requiredBeyond64 = new int[0];
    private Object[] defaults; // creators: each argument's value where its property is missing
    // Write side.
    private Codec<?>[] writeCodecs;
    private byte[][] firstKey; // "name":
    private byte[][] nextKey;  // ,"name":

    BeanCodec(Class<T> type) {
        this.type = type;
        this.expected = "an object (" + type.getSimpleName() + ")";
    }

    /** Fills the codec in (after it is registered, so that a property of its own type finds it). */
    void initialize(BeanModel model, java.util.function.Function<java.lang.reflect.Type, Codec<?>> codecs) {
        access = AccessGenerator.generate(model);
        viaCreator = model.creator != null;
        int n = model.read.size();
        readKinds = new int[n];
        readCodecs = new Codec<?>[n];
        readNames = new String[n];
        defaults = viaCreator ? new Object[n] : null;
        java.util.List<String> names = new java.util.ArrayList<>();
        java.util.List<Integer> map = new java.util.ArrayList<>();
        java.util.List<Integer> requiredHigh = new java.util.ArrayList<>();
        for (int p = 0; p < n; p++) {
            BeanModel.Property prop = model.read.get(p);
            readKinds[p] = kind(prop.raw);
            readCodecs[p] = readKinds[p] == OBJECT ? codecs.apply(prop.type) : null;
            readNames[p] = prop.name;
            if (viaCreator) {
                defaults[p] = defaultValue(prop.raw);
            }
            if (prop.name != null) {
                names.add(prop.name);
                map.add(p);
            }
            if (prop.required) {
                if (p < 64) {
                    requiredMask |= 1L << p;
                } else {
                    requiredHigh.add(p);
                }
            }
        }
        // Aliases after every property's own name, so that a name's Keys index stays its
        // property's (the in-order reader relies on it).
        java.util.Set<String> taken = new java.util.HashSet<>(names);
        for (int p = 0; p < n; p++) {
            for (String alias : model.read.get(p).aliases) {
                if (!taken.add(alias)) {
                    throw new IllegalArgumentException(type.getName() + ": the alias '" + alias + "' of property '"
                            + model.read.get(p).name + "' is already a property's name or alias");
                }
                names.add(alias);
                map.add(p);
            }
        }
        keys = new Keys(names.toArray(new String[0]));
        planned = AccessGenerator.readsInOrder(model) && !(access instanceof ReflectiveAccess)
                && java.util.Arrays.stream(readNames).allMatch(BindingPlan::holds);
        keyToProperty = map.stream().mapToInt(Integer::intValue).toArray();
        requiredBeyond64 = requiredHigh.stream().mapToInt(Integer::intValue).toArray();
        int m = model.write.size();
        writeCodecs = new Codec<?>[m];
        firstKey = new byte[m][];
        nextKey = new byte[m][];
        for (int p = 0; p < m; p++) {
            BeanModel.Property prop = model.write.get(p);
            writeCodecs[p] = kind(prop.raw) == OBJECT ? codecs.apply(prop.type) : null;
            firstKey[p] = key(prop.name, false);
            nextKey[p] = key(prop.name, true);
        }
    }

    /** A property's key as written: {@code "name":}, after a comma if {@code comma}. */
    static byte[] key(String name, boolean comma) {
        JsonWriter w = new JsonWriter(name.length() * 6 + 5);
        if (comma) {
            w.writeByte((byte) ',');
        }
        w.writeString(name);
        w.writeByte((byte) ':');
        return w.toByteArray();
    }

    private static int kind(Class<?> c) {
        if (c == int.class) return INT;
        if (c == short.class) return SHORT;
        if (c == byte.class) return BYTE;
        if (c == char.class) return CHAR;
        if (c == long.class) return LONG;
        if (c == double.class) return DOUBLE;
        if (c == float.class) return FLOAT;
        if (c == boolean.class) return BOOLEAN;
        if (c == String.class) return STRING;
        return OBJECT;
    }

    private static Object defaultValue(Class<?> c) {
        if (c == int.class) return 0;
        if (c == short.class) return (short) 0;
        if (c == byte.class) return (byte) 0;
        if (c == char.class) return (char) 0;
        if (c == long.class) return 0L;
        if (c == double.class) return 0.0;
        if (c == float.class) return 0.0f;
        if (c == boolean.class) return false;
        if (c == Optional.class) return Optional.empty();
        return null;
    }

    @Override
    @SuppressWarnings("unchecked")
    T read(BindingTape t, int w) {
        if (!t.is(w, BindingTape.OBJECT, expected)) {
            return null;
        }
        BeanAccess a = access;
        Object bean = viaCreator ? defaults.clone() : a.create();
        Object[] args = viaCreator ? (Object[]) bean : null;
        java.util.BitSet seenHigh = null;
        int end = t.next(w);
        // Generated: the properties that come in declared order, read with no lookup (none where
        // the class has no such reader). It is generated only where every property has a name,
        // so the Keys index of a name is its property's index.
        long r = a.readInOrder(t, w + 2, end, bean, readCodecs, keys.names());
        int read = (int) (r >>> 32);
        int k = (int) r;
        long seen = read == 64 ? -1L : (1L << read) - 1;
        int guess = read;
        while (k < end) {
            int v = k + 2;
            int key = keys.find(t, k, guess);
            if (key < 0) {
                if (t.failOnUnknown) {
                    throw new BindingTape.Mismatch(k, "unknown property '" + t.text(k) + "' of " + type.getSimpleName());
                }
                k = t.next(v);
                continue;
            }
            guess = key + 1;
            int p = keyToProperty[key];
            if (p < 64) {
                long bit = 1L << p;
                if ((seen & bit) != 0 && t.failOnDuplicate) {
                    throw new BindingTape.Mismatch(k, "duplicate key '" + readNames[p] + "'");
                }
                seen |= bit;
            } else {
                if (seenHigh == null) {
                    seenHigh = new java.util.BitSet();
                }
                if (seenHigh.get(p) && t.failOnDuplicate) {
                    throw new BindingTape.Mismatch(k, "duplicate key '" + readNames[p] + "'");
                }
                seenHigh.set(p);
            }
            if (args != null) {
                args[p] = readBoxed(t, v, p);
            } else {
                switch (readKinds[p]) {
                    case INT -> a.setInt(bean, p, t.intValue(v));
                    case SHORT -> a.setInt(bean, p, t.shortValue(v));
                    case BYTE -> a.setInt(bean, p, t.byteValue(v));
                    case CHAR -> a.setInt(bean, p, t.charValue(v));
                    case LONG -> a.setLong(bean, p, t.longValue(v));
                    case DOUBLE -> a.setDouble(bean, p, t.doubleValue(v));
                    case FLOAT -> a.setDouble(bean, p, (float) t.doubleValue(v));
                    case BOOLEAN -> a.setBoolean(bean, p, t.booleanValue(v));
                    case STRING -> a.setObject(bean, p, t.string(v));
                    default -> a.setObject(bean, p, readCodecs[p].read(t, v));
                }
            }
            k = t.next(v);
        }
        if ((seen & requiredMask) != requiredMask || requiredBeyond64.length > 0) {
            checkRequired(t, w, seen, seenHigh);
        }
        return (T) (args != null ? a.construct(args) : bean);
    }

    @Override
    boolean planned() {
        return planned;
    }

    /** Its property names and their codecs (null for a primitive's or a String's), for a plan. */
    String[] readNames() {
        return readNames;
    }

    Codec<?>[] readCodecs() {
        return readCodecs;
    }

    @Override
    @SuppressWarnings("unchecked")
    T readPlanned(BindingTape t, int w) {
        if (!planned) {
            return read(t, w);
        }
        if (!t.is(w, BindingTape.OBJECT, expected)) {
            return null;
        }
        BeanAccess a = access;
        Object bean = viaCreator ? defaults.clone() : a.create();
        a.readPlanned(t, w + 2, bean, readCodecs);
        return (T) (viaCreator ? a.construct((Object[]) bean) : bean);
    }

    private Object readBoxed(BindingTape t, int v, int p) {
        return switch (readKinds[p]) {
            case INT -> t.intValue(v);
            case SHORT -> t.shortValue(v);
            case BYTE -> t.byteValue(v);
            case CHAR -> t.charValue(v);
            case LONG -> t.longValue(v);
            case DOUBLE -> t.doubleValue(v);
            case FLOAT -> (float) t.doubleValue(v);
            case BOOLEAN -> t.booleanValue(v);
            case STRING -> t.string(v);
            default -> readCodecs[p].read(t, v);
        };
    }

    private void checkRequired(BindingTape t, int w, long seen, java.util.BitSet seenHigh) {
        long missing = requiredMask & ~seen;
        if (missing != 0) {
            throw new BindingTape.Mismatch(w, "missing required property '" + readNames[Long.numberOfTrailingZeros(missing)] + "'");
        }
        for (int p : requiredBeyond64) {
            if (seenHigh == null || !seenHigh.get(p)) {
                throw new BindingTape.Mismatch(w, "missing required property '" + readNames[p] + "'");
            }
        }
    }

    @Override
    void write(JsonWriter out, T bean) {
        out.enter(bean);
        out.writeByte((byte) '{');
        access.writeProperties(bean, out, writeCodecs, firstKey, nextKey);
        out.writeByte((byte) '}');
        out.leave();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
