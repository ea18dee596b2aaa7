// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

/**
 * Not API: the superclass of the accessors simdbridge generates for each bound class (a hidden
 * class in the bean's package, with direct field stores, setter and getter calls and a direct
 * constructor call: no reflection per value). Public only so that a generated class in another
 * package may extend it. Property {@code p} is a read property's index in the set* methods and
 * a written property's index in the get* methods.
 */
public abstract class BeanAccess {
    protected BeanAccess() {}

    /** A new instance (classes read through a no-argument constructor). */
    public Object create() {
        throw new UnsupportedOperationException();
    }

    /** A new instance from its creator's arguments, boxed (records, @JsonCreator constructors). */
    public Object construct(Object[] arguments) {
        throw new UnsupportedOperationException();
    }

    public void setInt(Object bean, int p, int value) {
        throw noProperty(p);
    }

    public void setLong(Object bean, int p, long value) {
        throw noProperty(p);
    }

    public void setDouble(Object bean, int p, double value) {
        throw noProperty(p);
    }

    public void setBoolean(Object bean, int p, boolean value) {
        throw noProperty(p);
    }

    public void setObject(Object bean, int p, Object value) {
        throw noProperty(p);
    }

    public int getInt(Object bean, int p) {
        throw noProperty(p);
    }

    public long getLong(Object bean, int p) {
        throw noProperty(p);
    }

    public double getDouble(Object bean, int p) {
        throw noProperty(p);
    }

    public boolean getBoolean(Object bean, int p) {
        throw noProperty(p);
    }

    public Object getObject(Object bean, int p) {
        throw noProperty(p);
    }

    /** For the generated switches' default branch. */
    public static RuntimeException noProperty(int p) {
        return new IllegalStateException("simdbridge: no property " + p + " of this kind (a generator bug)");
    }
}
