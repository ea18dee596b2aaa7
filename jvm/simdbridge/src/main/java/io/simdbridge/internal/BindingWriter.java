// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.internal;

/**
 * Not API: what the accessors generated for bound classes write through (the data binding's
 * writer, io.simdbridge.json.JsonWriter, is its one subclass; a class for the reason
 * BindingTapeReader is one).
 */
public abstract class BindingWriter {
    protected BindingWriter() {}

    public abstract void writeRaw(byte[] bytes);

    /**
     * Writes the first {@code length} (at most 16) bytes of {@code first} and {@code second}
     * (little-endian): a short key, given as constants by the generated code.
     */
    public abstract void writeRaw16(long first, long second, int length);

    public abstract boolean omitsNulls();

    public abstract void writeNull();

    public abstract void writeInt(int v);

    public abstract void writeLong(long v);

    public abstract void writeDouble(double d);

    public abstract void writeFloat(float f);

    public abstract void writeBoolean(boolean b);

    public abstract void writeString(String s);
}
