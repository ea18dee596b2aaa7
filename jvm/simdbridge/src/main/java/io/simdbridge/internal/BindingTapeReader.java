// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.internal;

/**
 * Not API: what the accessors generated for bound classes read of a binding tape (the data
 * binding's tape, io.simdbridge.json.BindingTape, is its one subclass; w is a word index). A class, not
 * an interface: with one subclass loaded, the JIT binds each call to it directly.
 */
public abstract class BindingTapeReader {
    protected BindingTapeReader() {}

    public abstract int next(int w);

    public abstract boolean keyIs(int k, int length, long first, long second);

    public abstract boolean keyTailIs(int k, byte[] name);

    public abstract String string(int w);

    public abstract int intValue(int w);

    public abstract long longValue(int w);

    public abstract short shortValue(int w);

    public abstract byte byteValue(int w);

    public abstract char charValue(int w);

    public abstract double doubleValue(int w);

    public abstract boolean booleanValue(int w);
}
