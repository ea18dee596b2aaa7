// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/** Codecs of collections, maps, arrays and Optional. */
final class ContainerCodecs {
    private ContainerCodecs() {}

    /** The factory of a List, Collection or Iterable (and ArrayList): an ArrayList of the size. */
    static final IntFunction<ArrayList<?>> ARRAY_LIST = ArrayList::new;

    /** A Collection made by {@code factory} (sized by the element count). */
    static final class CollectionCodec<E, C extends Collection<E>> extends Codec<C> {
        private final IntFunction<C> factory;
        Codec<E> element;
        /** The factory is ARRAY_LIST: read() fills an ArrayList itself. */
        private final boolean lists;

        CollectionCodec(IntFunction<C> factory, Codec<E> element) {
            this.factory = factory;
            this.element = element;
            this.lists = factory == (Object) ARRAY_LIST;
        }

        @Override
        C read(BindingTape t, int w) {
            if (!isArray(t, w)) {
                return null;
            }
            int end = t.next(w);
            Codec<E> e = element;
            if (lists) { // an ArrayList, filled without a call through the factory or Collection.add
                ArrayList<Object> list = new ArrayList<>(t.count(w));
                if (e == ScalarCodecs.STRING) { // strings are two words each: no next() to find them
                    for (int i = w + 2; i < end; i += 2) {
                        list.add(t.string(i));
                    }
                } else {
                    for (int i = w + 2; i < end; i = t.next(i)) {
                        list.add(e.read(t, i));
                    }
                }
                return (C) list;
            }
            C c = factory.apply(t.count(w));
            for (int i = w + 2; i < end; i = t.next(i)) {
                c.add(e.read(t, i));
            }
            return c;
        }

        /** An ArrayList of planned elements (a plan covers the list too: see Codec.planned). */
        @Override
        boolean planned() {
            return lists && element.planned();
        }

        /** The elements by their planned read: objects a plan wrote without their keys. */
        @Override
        @SuppressWarnings("unchecked")
        C readPlanned(BindingTape t, int w) {
            if (!planned()) {
                return read(t, w);
            }
            if (!isArray(t, w)) {
                return null;
            }
            int end = t.next(w);
            Codec<E> e = element;
            ArrayList<Object> list = new ArrayList<>(t.count(w));
            for (int i = w + 2; i < end; i = t.next(i)) {
                list.add(e.readPlanned(t, i));
            }
            return (C) list;
        }

        Codec<E> element() {
            return element;
        }

        @Override
        void write(JsonWriter out, C value) {
            out.enter(value);
            out.writeByte((byte) '[');
            Codec<E> e = element;
            if (value instanceof List<E> list && value instanceof java.util.RandomAccess) {
                for (int i = 0, n = list.size(); i < n; i++) {
                    if (i > 0) {
                        out.writeByte((byte) ',');
                    }
                    writeElement(out, e, list.get(i));
                }
            } else {
                Iterator<E> it = value.iterator();
                for (boolean first = true; it.hasNext(); first = false) {
                    if (!first) {
                        out.writeByte((byte) ',');
                    }
                    writeElement(out, e, it.next());
                }
            }
            out.writeByte((byte) ']');
            out.leave();
        }
    }

    static <E> void writeElement(JsonWriter out, Codec<E> codec, E value) {
        if (value == null) {
            out.writeNull();
        } else {
            codec.write(out, value);
        }
    }

    /** A Map with keys read from (and written as) strings. */
    static final class MapCodec<K, V, M extends Map<K, V>> extends Codec<M> {
        private final Supplier<M> factory;
        private final Keys.KeyCodec<K> keys;
        Codec<V> value;

        MapCodec(Supplier<M> factory, Keys.KeyCodec<K> keys, Codec<V> value) {
            this.factory = factory;
            this.keys = keys;
            this.value = value;
        }

        @Override
        M read(BindingTape t, int w) {
            if (!t.is(w, BindingTape.OBJECT, "an object")) {
                return null;
            }
            M m = factory.get();
            int end = t.next(w);
            Codec<V> v = value;
            for (int k = w + 2; k < end; ) {
                K key = keys.read(t, k);
                int at = k + 2;
                m.put(key, v.read(t, at));
                k = t.next(at);
            }
            if (t.failOnDuplicate && m.size() != t.count(w)) {
                throw t.duplicateKey(w);
            }
            return m;
        }

        @Override
        void write(JsonWriter out, M map) {
            out.enter(map);
            out.writeByte((byte) '{');
            boolean first = true;
            Codec<V> v = value;
            for (Map.Entry<K, V> e : map.entrySet()) {
                V val = e.getValue();
                if (val == null && out.omitNulls) {
                    continue;
                }
                if (!first) {
                    out.writeByte((byte) ',');
                }
                first = false;
                keys.write(out, e.getKey());
                out.writeByte((byte) ':');
                writeElement(out, v, val);
            }
            out.writeByte((byte) '}');
            out.leave();
        }
    }

    /** An array of references. */
    static final class ObjectArrayCodec<E> extends Codec<E[]> {
        private final Class<E> componentType;
        Codec<E> element;

        ObjectArrayCodec(Class<E> componentType, Codec<E> element) {
            this.componentType = componentType;
            this.element = element;
        }

        @Override
        @SuppressWarnings("unchecked")
        E[] read(BindingTape t, int w) {
            if (!isArray(t, w)) {
                return null;
            }
            E[] a = (E[]) Array.newInstance(componentType, t.count(w));
            int i = 0;
            for (int e = w + 2, end = t.next(w); e < end; e = t.next(e)) {
                a[i++] = element.read(t, e);
            }
            return a;
        }

        @Override
        void write(JsonWriter out, E[] a) {
            out.enter(a);
            out.writeByte((byte) '[');
            for (int i = 0; i < a.length; i++) {
                if (i > 0) {
                    out.writeByte((byte) ',');
                }
                writeElement(out, element, a[i]);
            }
            out.writeByte((byte) ']');
            out.leave();
        }
    }

    /** Arrays of primitives (byte[] as base64, char[] as a string, as Jackson writes them). */
    static Codec<?> primitiveArray(Class<?> type) {
        if (type == int[].class) {
            return new Codec<int[]>() {
                @Override
                int[] read(BindingTape t, int w) {
                    if (!isArray(t, w)) {
                        return null;
                    }
                    int[] a = new int[t.count(w)];
                    int i = 0;
                    for (int e = w + 2, end = t.next(w); e < end; e += 2) {
                        a[i++] = t.intValue(e);
                    }
                    return a;
                }

                @Override
                void write(JsonWriter out, int[] a) {
                    out.writeByte((byte) '[');
                    for (int i = 0; i < a.length; i++) {
                        if (i > 0) {
                            out.writeByte((byte) ',');
                        }
                        out.writeInt(a[i]);
                    }
                    out.writeByte((byte) ']');
                }
            };
        }
        if (type == long[].class) {
            return new Codec<long[]>() {
                @Override
                long[] read(BindingTape t, int w) {
                    if (!isArray(t, w)) {
                        return null;
                    }
                    long[] a = new long[t.count(w)];
                    int i = 0;
                    for (int e = w + 2, end = t.next(w); e < end; e += 2) {
                        a[i++] = t.longValue(e);
                    }
                    return a;
                }

                @Override
                void write(JsonWriter out, long[] a) {
                    out.writeByte((byte) '[');
                    for (int i = 0; i < a.length; i++) {
                        if (i > 0) {
                            out.writeByte((byte) ',');
                        }
                        out.writeLong(a[i]);
                    }
                    out.writeByte((byte) ']');
                }
            };
        }
        if (type == double[].class) {
            return new Codec<double[]>() {
                @Override
                double[] read(BindingTape t, int w) {
                    if (!isArray(t, w)) {
                        return null;
                    }
                    double[] a = new double[t.count(w)];
                    int i = 0;
                    for (int e = w + 2, end = t.next(w); e < end; e += 2) {
                        a[i++] = t.doubleValue(e);
                    }
                    return a;
                }

                @Override
                void write(JsonWriter out, double[] a) {
                    out.writeByte((byte) '[');
                    for (int i = 0; i < a.length; i++) {
                        if (i > 0) {
                            out.writeByte((byte) ',');
                        }
                        out.writeDouble(a[i]);
                    }
                    out.writeByte((byte) ']');
                }
            };
        }
        if (type == byte[].class) {
            return new Codec<byte[]>() {
                @Override
                byte[] read(BindingTape t, int w) {
                    int kind = t.kind(w);
                    if (kind == BindingTape.NULL) {
                        return null;
                    }
                    if (kind == BindingTape.STRING) {
                        try {
                            return Base64.getDecoder().decode(t.text(w));
                        } catch (IllegalArgumentException e) {
                            throw t.mismatch(w, "base64 bytes", "a string that is not base64");
                        }
                    }
                    if (kind != BindingTape.ARRAY) {
                        throw t.mismatch(w, "base64 bytes or an array of bytes");
                    }
                    byte[] a = new byte[t.count(w)];
                    int i = 0;
                    for (int e = w + 2, end = t.next(w); e < end; e += 2) {
                        a[i++] = t.byteValue(e);
                    }
                    return a;
                }

                @Override
                void write(JsonWriter out, byte[] a) {
                    out.writeQuotedAscii(Base64.getEncoder().encodeToString(a));
                }
            };
        }
        if (type == char[].class) {
            return new Codec<char[]>() {
                @Override
                char[] read(BindingTape t, int w) {
                    String s = t.string(w);
                    return s == null ? null : s.toCharArray();
                }

                @Override
                void write(JsonWriter out, char[] a) {
                    out.writeString(new String(a));
                }
            };
        }
        // boolean[], short[], float[]: through their boxed codec, element by element.
        Class<?> component = type.getComponentType();
        @SuppressWarnings("unchecked")
        Codec<Object> boxed = (Codec<Object>) ScalarCodecs.BY_CLASS.get(component);
        return new Codec<Object>() {
            @Override
            Object read(BindingTape t, int w) {
                if (!isArray(t, w)) {
                    return null;
                }
                Object a = Array.newInstance(component, t.count(w));
                int i = 0;
                for (int e = w + 2, end = t.next(w); e < end; e += 2) {
                    Object v = boxed.read(t, e);
                    if (v == null) {
                        if (t.failOnNullPrimitive) {
                            throw t.mismatch(e, component.getName());
                        }
                        i++;
                        continue;
                    }
                    Array.set(a, i++, v);
                }
                return a;
            }

            @Override
            void write(JsonWriter out, Object a) {
                out.writeByte((byte) '[');
                for (int i = 0, n = Array.getLength(a); i < n; i++) {
                    if (i > 0) {
                        out.writeByte((byte) ',');
                    }
                    boxed.write(out, Array.get(a, i));
                }
                out.writeByte((byte) ']');
            }
        };
    }

    /** Whether the value at w is an array: false for null, a mismatch for anything else. */
    private static boolean isArray(BindingTape t, int w) {
        return t.is(w, BindingTape.ARRAY, "an array");
    }

    /** Optional: empty for null (and for a missing property of a record or creator). */
    static final class OptionalCodec<E> extends Codec<Optional<E>> {
        Codec<E> element;

        OptionalCodec(Codec<E> element) {
            this.element = element;
        }

        @Override
        Optional<E> read(BindingTape t, int w) {
            return t.kind(w) == BindingTape.NULL ? Optional.empty() : Optional.ofNullable(element.read(t, w));
        }

        @Override
        void write(JsonWriter out, Optional<E> value) {
            if (value.isPresent()) {
                element.write(out, value.get());
            } else {
                out.writeNull();
            }
        }
    }
}
