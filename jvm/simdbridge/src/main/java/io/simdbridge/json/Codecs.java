// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The codec of each type, made on first use and kept: one model per class for the process,
 * shared by every mapper and thread. Lookups take no lock; making codecs takes one, so that a
 * class whose properties lead back to itself gets one codec.
 */
final class Codecs {
    private static final ConcurrentHashMap<Type, Codec<?>> CACHE = new ConcurrentHashMap<>();
    /** Codecs being made by the thread holding the lock (a type that refers to itself finds its own). */
    private static final Map<Type, Codec<?>> MAKING = new HashMap<>();

    private Codecs() {}

    @SuppressWarnings("unchecked")
    static <T> Codec<T> forType(Type type) {
        Codec<?> c = CACHE.get(type);
        if (c != null) {
            return (Codec<T>) c;
        }
        synchronized (Codecs.class) {
            c = CACHE.get(type);
            if (c == null) {
                c = MAKING.get(type);
            }
            if (c != null) {
                return (Codec<T>) c; // made, or being made and met again through its own properties
            }
            boolean outermost = MAKING.isEmpty();
            try {
                c = make(type);
                MAKING.put(type, c);
                if (outermost) {
                    // Published together once all are complete: no other thread sees one half made.
                    MAKING.forEach(CACHE::putIfAbsent);
                }
            } finally {
                if (outermost) {
                    MAKING.clear();
                }
            }
            return (Codec<T>) c;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Codec<?> make(Type type) {
        Class<?> raw = Types.raw(type);
        Codec<?> scalar = ScalarCodecs.BY_CLASS.get(raw);
        if (scalar != null) {
            return scalar;
        }
        if (raw == Object.class) {
            return NaturalCodec.INSTANCE;
        }
        if (raw.isEnum()) {
            return EnumCodec.of(raw);
        }
        if (raw.getSuperclass() != null && raw.getSuperclass().isEnum()) {
            return forType(raw.getSuperclass()); // a constant with a body
        }
        if (raw.isArray()) {
            if (raw.getComponentType().isPrimitive()) {
                return ContainerCodecs.primitiveArray(raw);
            }
            Type component = type instanceof GenericArrayType g ? g.getGenericComponentType() : raw.getComponentType();
            return new ContainerCodecs.ObjectArrayCodec(raw.getComponentType(), forType(component));
        }
        if (raw == Optional.class) {
            ContainerCodecs.OptionalCodec o = new ContainerCodecs.OptionalCodec(null);
            MAKING.put(type, o);
            o.element = forType(Types.argument(type, Optional.class, 0));
            return o;
        }
        if (Collection.class.isAssignableFrom(raw)) {
            ContainerCodecs.CollectionCodec col = new ContainerCodecs.CollectionCodec(collectionFactory(raw), null);
            MAKING.put(type, col);
            col.element = forType(Types.argument(type, Collection.class, 0));
            return col;
        }
        if (Map.class.isAssignableFrom(raw)) {
            Type keyType = Types.argument(type, Map.class, 0);
            Keys.KeyCodec<?> keys = Keys.forClass(Types.raw(keyType));
            if (keys == null) {
                throw new IllegalArgumentException("simdbridge reads maps with String, Integer, Long, UUID or enum keys, not "
                        + keyType.getTypeName());
            }
            ContainerCodecs.MapCodec m = new ContainerCodecs.MapCodec(mapFactory(raw), keys, null);
            MAKING.put(type, m);
            m.value = forType(Types.argument(type, Map.class, 1));
            return m;
        }
        if (raw.isPrimitive() || raw.getName().startsWith("java.") || raw.getName().startsWith("javax.")) {
            throw new IllegalArgumentException("simdbridge does not read or write " + type.getTypeName());
        }
        BeanCodec bean = new BeanCodec(raw);
        MAKING.put(type, bean);
        bean.initialize(new BeanModel(type), t -> forType((Type) t));
        return bean;
    }

    private static IntFunction<? extends Collection<?>> collectionFactory(Class<?> raw) {
        if (raw.isAssignableFrom(ArrayList.class)) {
            return ContainerCodecs.ARRAY_LIST;
        }
        if (raw.isAssignableFrom(LinkedHashSet.class)) {
            return LinkedHashSet::newLinkedHashSet;
        }
        if (raw.isAssignableFrom(TreeSet.class)) { // SortedSet, NavigableSet
            return n -> new TreeSet<>();
        }
        if (raw.isAssignableFrom(ArrayDeque.class)) { // Deque, Queue
            return ArrayDeque::new;
        }
        if (raw == LinkedList.class) {
            return n -> new LinkedList<>();
        }
        if (raw == HashSet.class) {
            return HashSet::new;
        }
        Supplier<?> made = instantiator(raw);
        return n -> (Collection<?>) made.get();
    }

    private static Supplier<? extends Map<?, ?>> mapFactory(Class<?> raw) {
        if (raw.isAssignableFrom(LinkedHashMap.class)) {
            return LinkedHashMap::new;
        }
        if (raw.isAssignableFrom(TreeMap.class)) { // SortedMap, NavigableMap
            return TreeMap::new;
        }
        if (raw.isAssignableFrom(ConcurrentHashMap.class)) { // ConcurrentMap
            return ConcurrentHashMap::new;
        }
        Supplier<?> made = instantiator(raw);
        return () -> (Map<?, ?>) made.get();
    }

    /**
     * A public no-argument constructor of a concrete collection or map class; for one without
     * (an immutable collection met while writing), a factory that refuses when asked to read.
     */
    private static Supplier<?> instantiator(Class<?> raw) {
        java.lang.invoke.MethodHandle h;
        try {
            h = java.lang.invoke.MethodHandles.publicLookup().unreflectConstructor(raw.getConstructor());
        } catch (ReflectiveOperationException | SecurityException e) {
            return () -> {
                throw new IllegalArgumentException("simdbridge cannot make an instance of " + raw.getName()
                        + " to read into: declare the property as List, Set, Map, ...", e);
            };
        }
        return () -> {
            try {
                return h.invoke();
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        };
    }

    // Referenced so that the imports document the interfaces the factories cover.
    @SuppressWarnings("unused")
    private static final Class<?>[] COVERED = {List.class, Set.class, SortedSet.class, NavigableSet.class, Deque.class,
            Queue.class, SortedMap.class, NavigableMap.class, ConcurrentMap.class};
}
