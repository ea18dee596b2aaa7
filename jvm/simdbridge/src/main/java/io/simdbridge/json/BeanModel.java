// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a class reads and writes: built once per class from its record components, its
 * {@link JsonCreator} constructor, or its no-argument constructor with public fields and
 * setters; its getters and public fields for writing. {@link JsonProperty}, {@link JsonAlias},
 * {@link JsonIgnore} and {@link JsonRequired} apply to any of a property's field, getter, setter,
 * parameter or component.
 */
final class BeanModel {
    /** How a property's value is read or written: a field, or a method (setter, getter, accessor). */
    record Access(Field field, Method method) {
        Class<?> owner() {
            return field != null ? field.getDeclaringClass() : method.getDeclaringClass();
        }
    }

    /** One property. {@code type} is its generic type, resolved against the bean's type arguments. */
    static final class Property {
        final String name;
        final Type type;
        final Class<?> raw;
        final boolean required;
        Access access; // read (field or setter) or write (field or getter); null for a creator parameter
        /** Other names the property is read by (@JsonAlias); none for a written property. */
        String[] aliases = new String[0];

        Property(String name, Type type, boolean required, Access access) {
            this.name = name;
            this.type = type;
            this.raw = Types.raw(type);
            this.required = required;
            this.access = access;
        }
    }

    final Class<?> type;
    /** Records and @JsonCreator classes: the constructor; read properties are its parameters, in order. */
    final Constructor<?> creator;
    /** Classes read through a no-argument constructor. */
    final Constructor<?> noArgs;
    final List<Property> read = new ArrayList<>();
    final List<Property> write = new ArrayList<>();
    /** Looked up once: every property asks for its field, setter and getter by name. */
    private final List<Field> fields;
    private final Method[] methods;

    BeanModel(Type beanType) {
        this.type = Types.raw(beanType);
        this.fields = fields(type);
        this.methods = type.getMethods();
        Map<java.lang.reflect.TypeVariable<?>, Type> bindings = Types.bindings(beanType);
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            throw new IllegalArgumentException("simdbridge cannot make an instance of " + type.getName()
                    + " (an interface or abstract class)");
        }
        if (type.isRecord()) {
            RecordComponent[] components = type.getRecordComponents();
            Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
            }
            creator = constructor(type, types);
            noArgs = null;
            for (RecordComponent c : components) {
                Method accessor = c.getAccessor();
                Type t = Types.resolve(c.getGenericType(), bindings);
                // An ignored component keeps its place among the creator's arguments (its value
                // stays the default) but has no name to be read by, and is not written.
                boolean skip = annotated(JsonIgnore.class, c, accessor);
                String name = skip ? null : name(c.getName(), c, accessor);
                Property property = new Property(name, t, !skip && annotated(JsonRequired.class, c, accessor), null);
                property.aliases = skip ? property.aliases : aliases(c, accessor);
                read.add(property);
                if (!skip) {
                    write.add(new Property(name, t, false, new Access(null, accessor)));
                }
            }
            return;
        }
        Constructor<?> annotated = null;
        for (Constructor<?> c : type.getDeclaredConstructors()) {
            if (c.isAnnotationPresent(JsonCreator.class)) {
                if (annotated != null) {
                    throw new IllegalArgumentException(type.getName() + " has two @JsonCreator constructors");
                }
                annotated = c;
            }
        }
        Map<String, Property> writers = writeProperties(bindings);
        if (annotated != null) {
            creator = annotated;
            noArgs = null;
            for (Parameter p : annotated.getParameters()) {
                JsonProperty named = p.getAnnotation(JsonProperty.class);
                if (named == null && !p.isNamePresent()) {
                    throw new IllegalArgumentException("the parameters of " + type.getName()
                            + "'s @JsonCreator need @JsonProperty names (or compile with -parameters)");
                }
                String name = named != null ? named.value() : p.getName();
                Property property = new Property(name, Types.resolve(p.getParameterizedType(), bindings),
                        p.isAnnotationPresent(JsonRequired.class), null);
                property.aliases = aliases(p);
                read.add(property);
            }
        } else {
            creator = null;
            noArgs = constructor(type);
            readProperties(bindings);
        }
        write.addAll(writers.values());
    }

    // --- classes read through setters and fields --------------------------------------------

    private void readProperties(Map<java.lang.reflect.TypeVariable<?>, Type> bindings) {
        Map<String, Property> byJava = new LinkedHashMap<>();
        for (Field f : fields) {
            if (!usableField(f) || Modifier.isFinal(f.getModifiers()) || ignoredAnywhere(f.getName())) {
                continue;
            }
            Property property = new Property(name(f.getName(), f, setter(f.getName()), getter(f.getName())),
                    Types.resolve(f.getGenericType(), bindings), requiredAnywhere(f.getName()), new Access(f, null));
            property.aliases = aliases(f, setter(f.getName()), getter(f.getName()));
            byJava.put(f.getName(), property);
        }
        for (Method m : methods) {
            String java = setterName(m);
            if (java == null || ignoredAnywhere(java)) {
                continue;
            }
            Field f = field(java);
            Property property = new Property(name(java, m, f, getter(java)),
                    Types.resolve(m.getGenericParameterTypes()[0], bindings), requiredAnywhere(java), new Access(null, m));
            property.aliases = aliases(m, f, getter(java));
            byJava.put(java, property);
        }
        // In the order of the fields behind them (getMethods() has none to speak of): documents,
        // ours included, come in that order, which the reader's in-order path expects.
        read.addAll(orderByFields(byJava).values());
    }

    private Map<String, Property> writeProperties(Map<java.lang.reflect.TypeVariable<?>, Type> bindings) {
        Map<String, Property> byJava = new LinkedHashMap<>();
        for (Field f : fields) {
            if (!usableField(f) || ignoredAnywhere(f.getName())) {
                continue;
            }
            byJava.put(f.getName(), new Property(name(f.getName(), f, setter(f.getName()), getter(f.getName())),
                    Types.resolve(f.getGenericType(), bindings), false, new Access(f, null)));
        }
        for (Method m : methods) {
            String java = getterName(m);
            if (java == null || ignoredAnywhere(java)) {
                continue;
            }
            Property p = new Property(name(java, m, field(java), setter(java)),
                    Types.resolve(m.getGenericReturnType(), bindings), false, new Access(null, m));
            byJava.put(java, p);
        }
        // A getter-only property that a field of the same name precedes keeps the field's place.
        return orderByFields(byJava);
    }

    private Map<String, Property> orderByFields(Map<String, Property> byJava) {
        Map<String, Property> ordered = new LinkedHashMap<>();
        for (Field f : fields) {
            Property p = byJava.remove(f.getName());
            if (p != null) {
                ordered.put(f.getName(), p);
            }
        }
        ordered.putAll(byJava);
        Map<String, Property> byJson = new LinkedHashMap<>();
        for (Property p : ordered.values()) {
            byJson.putIfAbsent(p.name, p);
        }
        return byJson;
    }

    /** The class's and its superclasses' instance fields, the superclasses' first. */
    private static List<Field> fields(Class<?> type) {
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            chain.add(0, c);
        }
        List<Field> out = new ArrayList<>();
        for (Class<?> c : chain) {
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (!Modifier.isStatic(m) && !Modifier.isTransient(m) && !f.isSynthetic()) {
                    out.add(f);
                }
            }
        }
        return out;
    }

    /** Public fields, and the bean's own fields named by @JsonProperty (the accessor is its nestmate). */
    private boolean usableField(Field f) {
        int m = f.getModifiers();
        if (Modifier.isPublic(m) && Modifier.isPublic(f.getDeclaringClass().getModifiers())) {
            return true;
        }
        if (f.isAnnotationPresent(JsonProperty.class) || Modifier.isPublic(m)) {
            return f.getDeclaringClass() == type
                    || !Modifier.isPrivate(m) && f.getDeclaringClass().getPackageName().equals(type.getPackageName());
        }
        return false;
    }

    private Field field(String java) {
        for (Field f : fields) {
            if (f.getName().equals(java)) {
                return f;
            }
        }
        return null;
    }

    private Method setter(String java) {
        for (Method m : methods) {
            if (java.equals(setterName(m))) {
                return m;
            }
        }
        return null;
    }

    private Method getter(String java) {
        for (Method m : methods) {
            if (java.equals(getterName(m))) {
                return m;
            }
        }
        return null;
    }

    private static String setterName(Method m) {
        String n = m.getName();
        if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 1 || n.length() < 4 || !n.startsWith("set")
                || m.isBridge() || m.isSynthetic() || m.getReturnType() != void.class) {
            return null;
        }
        return decapitalize(n.substring(3));
    }

    private static String getterName(Method m) {
        String n = m.getName();
        if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0 || m.getReturnType() == void.class
                || m.isBridge() || m.isSynthetic() || m.getDeclaringClass() == Object.class) {
            return null;
        }
        if (n.startsWith("get") && n.length() > 3) {
            return decapitalize(n.substring(3));
        }
        if (n.startsWith("is") && n.length() > 2 && (m.getReturnType() == boolean.class || m.getReturnType() == Boolean.class)) {
            return decapitalize(n.substring(2));
        }
        return null;
    }

    /** java.beans' rule: "Name" -> "name", "URL" stays "URL". */
    private static String decapitalize(String s) {
        if (s.length() > 1 && Character.isUpperCase(s.charAt(0)) && Character.isUpperCase(s.charAt(1))) {
            return s;
        }
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    private boolean ignoredAnywhere(String java) {
        return annotated(JsonIgnore.class, field(java), setter(java), getter(java));
    }

    private boolean requiredAnywhere(String java) {
        return annotated(JsonRequired.class, field(java), setter(java), getter(java));
    }

    /** Whether any of the elements (null for none) carries the annotation. */
    private static boolean annotated(Class<? extends Annotation> annotation, AnnotatedElement... elements) {
        for (AnnotatedElement e : elements) {
            if (e != null && e.isAnnotationPresent(annotation)) {
                return true;
            }
        }
        return false;
    }

    /** The first @JsonAlias names among the elements, else none. */
    private static String[] aliases(AnnotatedElement... elements) {
        for (AnnotatedElement e : elements) {
            JsonAlias a = e == null ? null : e.getAnnotation(JsonAlias.class);
            if (a != null) {
                return a.value().clone();
            }
        }
        return new String[0];
    }

    /** The first @JsonProperty name among the elements, else the Java name. */
    private static String name(String java, AnnotatedElement... elements) {
        for (AnnotatedElement e : elements) {
            JsonProperty p = e == null ? null : e.getAnnotation(JsonProperty.class);
            if (p != null) {
                return p.value();
            }
        }
        return java;
    }

    private static Constructor<?> constructor(Class<?> type, Class<?>... parameters) {
        try {
            return type.getDeclaredConstructor(parameters);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("simdbridge reads " + type.getName() + " through a no-argument constructor,"
                    + " a @JsonCreator constructor or, for a record, its canonical constructor: it has none", e);
        }
    }
}
