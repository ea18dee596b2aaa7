// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.internal;

/**
 * Not API: the superclass of the accessors simdbridge generates for each bound class (a hidden
 * class in the bean's package, with direct field stores and loads, setter and getter calls and a
 * direct constructor call: no reflection per value). Public only so that a generated class in
 * another package may extend it. Property {@code p} is a read property's index in the set*
 * methods.
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

    /**
     * Reads the bean's properties in their declared order, starting at the key at word {@code k}
     * of the tape, for as long as the keys come in that order (JSON written from a class usually
     * keeps it): each key is compared with the name it should be, and its value read and stored
     * with no lookup and no switch. Returns the number of properties read in the high 32 bits and
     * the word index of the first key not read (or {@code end}) in the low 32; the caller reads
     * the rest of the object by name. This one reads none: generated for most classes (see
     * AccessGenerator); {@code bean} is the creator's arguments array for a class made by one
     * (records), each value boxed. {@code codecs} holds the codecs of the
     * properties read through one (by read-property index), {@code names} every property's UTF-8
     * name (for names past 16 bytes).
     */
    public long readInOrder(Object tape, int k, int end, Object bean, Value[] codecs, byte[][] names) {
        return k & 0xFFFFFFFFL;
    }

    /**
     * Reads every property, in declared order, from an object that a binding plan wrote without
     * its keys (io.simdbridge.json.BindingPlan): the value at word {@code w} is the first
     * property's, and each value follows the one before. Generated for the classes readInOrder
     * reads; {@code bean} is a creator's arguments array for a class made by one.
     */
    public void readPlanned(Object tape, int w, Object bean, Value[] codecs) {
        throw new UnsupportedOperationException();
    }

    /**
     * Not API: what the generated {@link #readInOrder} calls to read a property through its codec.
     * A public type (the codecs themselves are not), so that a class generated in the bean's
     * package may name it; the call site is in the generated class, so each property's codec
     * type is profiled, and inlined, on its own.
     */
    public abstract static class Value {
        protected Value() {}

        /** The value at word {@code w} of the tape (a {@code BindingTape}). */
        public abstract Object readValue(Object tape, int w);

        /** The same on a tape written by a binding plan that covers this value (see {@link #readPlanned}). */
        public Object readPlannedValue(Object tape, int w) {
            return readValue(tape, w);
        }

        /** Writes a non-null value to {@code out} (a {@code JsonWriter}). */
        public abstract void writeValue(Object out, Object value);
    }

    /**
     * Writes the bean's properties, from the first key to the last value (the caller writes the
     * braces), each read with its field or getter and written by its own typed write, with no
     * switch: generated for every class (see AccessGenerator). {@code firstKeys} and
     * {@code nextKeys} hold each written property's {@code "name":} and {@code ,"name":};
     * {@code codecs} the codecs of those written through one.
     */
    public void writeProperties(Object bean, Object out, Value[] codecs, byte[][] firstKeys, byte[][] nextKeys) {
        throw new UnsupportedOperationException();
    }

    // Called by the generated writeProperties. The writer is passed as an Object, as the tape is.

    protected static void writeKey(Object out, byte[] key) {
        ((BindingWriter) out).writeRaw(key);
    }

    /** A key of at most 16 bytes, as two little-endian words and its length (see writeRaw16). */
    protected static void writeKey(Object out, long first, long second, int length) {
        ((BindingWriter) out).writeRaw16(first, second, length);
    }

    /** Whether the write in progress leaves out properties that are null. */
    protected static boolean omitsNulls(Object out) {
        return ((BindingWriter) out).omitsNulls();
    }

    protected static void writeNull(Object out) {
        ((BindingWriter) out).writeNull();
    }

    protected static void writeInt(Object out, int v) {
        ((BindingWriter) out).writeInt(v);
    }

    protected static void writeLong(Object out, long v) {
        ((BindingWriter) out).writeLong(v);
    }

    protected static void writeDouble(Object out, double v) {
        ((BindingWriter) out).writeDouble(v);
    }

    protected static void writeFloat(Object out, float v) {
        ((BindingWriter) out).writeFloat(v);
    }

    protected static void writeBoolean(Object out, boolean v) {
        ((BindingWriter) out).writeBoolean(v);
    }

    protected static void writeChar(Object out, char v) {
        ((BindingWriter) out).writeString(String.valueOf(v));
    }

    protected static void writeString(Object out, String v) {
        ((BindingWriter) out).writeString(v);
    }

    // Called by the generated readInOrder. The tape is passed as an Object: its class is not
    // public. Each is a static call the JIT inlines.

    /** Whether the key at k has the given UTF-8 length and first 16 bytes (see BindingTape.keyIs). */
    protected static boolean keyIs(Object tape, int k, int length, long first, long second) {
        return ((BindingTapeReader) tape).keyIs(k, length, first, second);
    }

    /** Whether the bytes of the key at k past its 16th are those of {@code name}. */
    protected static boolean keyTailIs(Object tape, int k, byte[] name) {
        return ((BindingTapeReader) tape).keyTailIs(k, name);
    }

    protected static int readInt(Object tape, int w) {
        return ((BindingTapeReader) tape).intValue(w);
    }

    protected static short readShort(Object tape, int w) {
        return ((BindingTapeReader) tape).shortValue(w);
    }

    protected static byte readByte(Object tape, int w) {
        return ((BindingTapeReader) tape).byteValue(w);
    }

    protected static char readChar(Object tape, int w) {
        return ((BindingTapeReader) tape).charValue(w);
    }

    protected static long readLong(Object tape, int w) {
        return ((BindingTapeReader) tape).longValue(w);
    }

    protected static double readDouble(Object tape, int w) {
        return ((BindingTapeReader) tape).doubleValue(w);
    }

    protected static float readFloat(Object tape, int w) {
        return (float) ((BindingTapeReader) tape).doubleValue(w);
    }

    protected static boolean readBoolean(Object tape, int w) {
        return ((BindingTapeReader) tape).booleanValue(w);
    }

    protected static String readString(Object tape, int w) {
        return ((BindingTapeReader) tape).string(w);
    }

    /** The word index past the value at w. */
    protected static int next(Object tape, int w) {
        return ((BindingTapeReader) tape).next(w);
    }

    /** For the generated switches' default branch. */
    public static RuntimeException noProperty(int p) {
        return new IllegalStateException("simdbridge: no property " + p + " of this kind (a generator bug)");
    }
}
