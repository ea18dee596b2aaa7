// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/** Generic types: raw classes, type variables bound to a bean's type arguments, supertypes' arguments. */
final class Types {
    private Types() {}

    static Class<?> raw(Type t) {
        if (t instanceof Class<?> c) {
            return c;
        }
        if (t instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (t instanceof GenericArrayType g) {
            return raw(g.getGenericComponentType()).arrayType();
        }
        if (t instanceof WildcardType w) {
            return raw(w.getUpperBounds()[0]);
        }
        if (t instanceof TypeVariable<?> v) {
            return raw(v.getBounds()[0]);
        }
        throw new IllegalArgumentException("unsupported type " + t);
    }

    /** The type variables of t's class (and its superclasses) bound to t's arguments. */
    static Map<TypeVariable<?>, Type> bindings(Type t) {
        Map<TypeVariable<?>, Type> out = new HashMap<>();
        Type current = t;
        while (current != null && current != Object.class) {
            Class<?> raw = raw(current);
            if (current instanceof ParameterizedType p) {
                TypeVariable<?>[] vars = raw.getTypeParameters();
                Type[] args = p.getActualTypeArguments();
                for (int i = 0; i < vars.length; i++) {
                    out.put(vars[i], resolve(args[i], out));
                }
            }
            current = raw.getGenericSuperclass();
        }
        return out;
    }

    /** t with the bound variables replaced; an unbound variable becomes its bound (Object). */
    static Type resolve(Type t, Map<TypeVariable<?>, Type> bindings) {
        if (t instanceof Class<?>) {
            return t;
        }
        if (t instanceof TypeVariable<?> v) {
            Type bound = bindings.get(v);
            return bound != null ? bound : resolve(v.getBounds()[0], bindings);
        }
        if (t instanceof WildcardType w) {
            return resolve(w.getLowerBounds().length > 0 ? w.getLowerBounds()[0] : w.getUpperBounds()[0], bindings);
        }
        if (t instanceof GenericArrayType g) {
            Type c = resolve(g.getGenericComponentType(), bindings);
            return c instanceof Class<?> k ? k.arrayType() : new ArrayOf(c);
        }
        if (t instanceof ParameterizedType p) {
            Type[] args = p.getActualTypeArguments().clone();
            for (int i = 0; i < args.length; i++) {
                args[i] = resolve(args[i], bindings);
            }
            return new Parameterized((Class<?>) p.getRawType(), args, p.getOwnerType());
        }
        return t;
    }

    /**
     * The {@code index}th type argument with which {@code t} implements or extends
     * {@code target} (List<String> and ArrayList<String> give String for List), or Object.
     */
    static Type argument(Type t, Class<?> target, int index) {
        Class<?> raw = raw(t);
        if (raw == target) {
            return t instanceof ParameterizedType p ? p.getActualTypeArguments()[index] : Object.class;
        }
        Map<TypeVariable<?>, Type> bindings = bindings(t);
        for (Type s : supertypes(raw)) {
            if (target.isAssignableFrom(raw(s))) {
                return argument(resolve(s, bindings), target, index);
            }
        }
        return Object.class;
    }

    private static Type[] supertypes(Class<?> c) {
        Type[] interfaces = c.getGenericInterfaces();
        Type superclass = c.getGenericSuperclass();
        if (superclass == null) {
            return interfaces;
        }
        Type[] all = Arrays.copyOf(interfaces, interfaces.length + 1);
        all[interfaces.length] = superclass;
        return all;
    }

    /** A ParameterizedType equal to the JDK's for the same type (so that it keys the codec cache). */
    record Parameterized(Class<?> raw, Type[] args, Type owner) implements ParameterizedType {
        @Override
        public Type[] getActualTypeArguments() {
            return args.clone();
        }

        @Override
        public Type getRawType() {
            return raw;
        }

        @Override
        public Type getOwnerType() {
            return owner;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ParameterizedType p && raw.equals(p.getRawType()) && Objects.equals(owner, p.getOwnerType())
                    && Arrays.equals(args, p.getActualTypeArguments());
        }

        @Override
        public int hashCode() {
            // The JDK's: arguments ^ owner ^ raw.
            return Arrays.hashCode(args) ^ Objects.hashCode(owner) ^ raw.hashCode();
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(raw.getTypeName()).append('<');
            for (int i = 0; i < args.length; i++) {
                sb.append(i > 0 ? ", " : "").append(args[i].getTypeName());
            }
            return sb.append('>').toString();
        }
    }

    record ArrayOf(Type component) implements GenericArrayType {
        @Override
        public Type getGenericComponentType() {
            return component;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof GenericArrayType g && component.equals(g.getGenericComponentType());
        }

        @Override
        public int hashCode() {
            return component.hashCode();
        }
    }
}
