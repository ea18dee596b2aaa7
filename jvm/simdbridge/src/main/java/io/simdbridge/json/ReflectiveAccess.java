// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import io.simdbridge.internal.BeanAccess;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * A bean's {@link BeanAccess} through method handles, where {@link AccessGenerator} cannot define
 * its hidden class in the bean's nest: the bean is in another module than simdbridge (a named
 * module that opens its package to io.simdbridge, or simdbridge on the module path and the bean
 * on the class path) or in another class loader's unnamed module (a single-file launch, jshell).
 * A lookup without full privilege there cannot define a class, but still reaches the members.
 * Reads go by name (no readInOrder); the values are the same as the generated class's.
 */
final class ReflectiveAccess extends BeanAccess {
    private final MethodHandle create;     // ()Object, or null
    private final MethodHandle construct;  // (Object[])Object, or null
    private final MethodHandle[] setters;  // by read property: (Object, family's type)void, or null
    private final MethodHandle[] getters;  // by write property: (Object)Object, boxed
    private final Class<?>[] writeTypes;

    ReflectiveAccess(BeanModel model, MethodHandles.Lookup lookup) throws IllegalAccessException {
        create = model.noArgs == null ? null
                : lookup.unreflectConstructor(model.noArgs).asType(MethodType.methodType(Object.class));
        construct = model.creator == null ? null
                : lookup.unreflectConstructor(model.creator)
                        .asSpreader(Object[].class, model.creator.getParameterCount())
                        .asType(MethodType.methodType(Object.class, Object[].class));
        List<BeanModel.Property> read = model.read;
        setters = new MethodHandle[read.size()];
        for (int p = 0; p < setters.length; p++) {
            BeanModel.Access a = read.get(p).access;
            if (a == null) {
                continue; // a creator's parameter
            }
            MethodHandle h = a.field() != null ? lookup.unreflectSetter(a.field()) : lookup.unreflect(a.method());
            Class<?> value = AccessGenerator.Family.of(read.get(p).raw).type;
            // The same narrowing the generated stores make: int to short, byte or char; double to float.
            setters[p] = MethodHandles.explicitCastArguments(h, MethodType.methodType(void.class, Object.class, value));
        }
        List<BeanModel.Property> write = model.write;
        getters = new MethodHandle[write.size()];
        writeTypes = new Class<?>[write.size()];
        for (int p = 0; p < getters.length; p++) {
            BeanModel.Access a = write.get(p).access;
            MethodHandle h = a.field() != null ? lookup.unreflectGetter(a.field()) : lookup.unreflect(a.method());
            getters[p] = h.asType(MethodType.methodType(Object.class, Object.class));
            writeTypes[p] = write.get(p).raw;
        }
    }

    @Override
    public Object create() {
        if (create == null) {
            throw new UnsupportedOperationException();
        }
        try {
            return (Object) create.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public Object construct(Object[] arguments) {
        if (construct == null) {
            throw new UnsupportedOperationException();
        }
        try {
            return (Object) construct.invokeExact(arguments);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private MethodHandle setter(int p) {
        MethodHandle h = p >= 0 && p < setters.length ? setters[p] : null;
        if (h == null) {
            throw noProperty(p);
        }
        return h;
    }

    @Override
    public void setInt(Object bean, int p, int value) {
        try {
            setter(p).invokeExact(bean, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void setLong(Object bean, int p, long value) {
        try {
            setter(p).invokeExact(bean, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void setDouble(Object bean, int p, double value) {
        try {
            setter(p).invokeExact(bean, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void setBoolean(Object bean, int p, boolean value) {
        try {
            setter(p).invokeExact(bean, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void setObject(Object bean, int p, Object value) {
        try {
            setter(p).invokeExact(bean, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** What the generated writeProperties writes: each property's key and value, nulls as the writer says. */
    @Override
    public void writeProperties(Object bean, Object out, Value[] codecs, byte[][] firstKeys, byte[][] nextKeys) {
        boolean first = true;
        for (int p = 0; p < getters.length; p++) {
            Object v;
            try {
                v = (Object) getters[p].invokeExact(bean);
            } catch (Throwable t) {
                throw rethrow(t);
            }
            if (v == null && omitsNulls(out)) {
                continue;
            }
            writeKey(out, first ? firstKeys[p] : nextKeys[p]);
            first = false;
            Class<?> type = writeTypes[p];
            if (v == null) {
                writeNull(out);
            } else if (type == int.class || type == short.class || type == byte.class) {
                writeInt(out, ((Number) v).intValue());
            } else if (type == long.class) {
                writeLong(out, (Long) v);
            } else if (type == double.class) {
                writeDouble(out, (Double) v);
            } else if (type == float.class) {
                writeFloat(out, (Float) v);
            } else if (type == boolean.class) {
                writeBoolean(out, (Boolean) v);
            } else if (type == char.class) {
                writeChar(out, (Character) v);
            } else if (type == String.class) {
                writeString(out, (String) v);
            } else {
                codecs[p].writeValue(out, v);
            }
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t); // a checked exception from a constructor or accessor
    }
}
