// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import io.simdbridge.internal.BeanAccess;

/**
 * Reads one Java type from the tape and writes it as JSON. One codec per type, built once
 * ({@link Codecs}) and shared by every mapper and thread: codecs hold no state of a read.
 */
abstract class Codec<T> extends BeanAccess.Value {
    /** The value at word {@code w} of the tape; null for JSON null (primitives: see BindingTape). */
    abstract T read(BindingTape t, int w);

    /**
     * Whether this codec reads what a binding plan writes (see BindingPlan): a bean read by its
     * generated readPlanned, or an ArrayList of such. A plan covers exactly the codecs for which
     * this is true, and readPlanned is then called for their values.
     */
    boolean planned() {
        return false;
    }

    /** The value at word {@code w} of a tape a binding plan wrote; {@link #read} where this codec is not planned(). */
    T readPlanned(BindingTape t, int w) {
        return read(t, w);
    }

    /** {@link #readPlanned}, for the generated readers (BeanAccess.readPlanned). */
    @Override
    public final Object readPlannedValue(Object tape, int w) {
        return readPlanned((BindingTape) tape, w);
    }

    private static final Object NO_PLAN = new Object();
    /** This codec's binding plan as the root of a read: a BindingPlan, NO_PLAN, or null until first asked. */
    private volatile Object plan;

    /** The binding plan of reads of this type (made once, on the first read), or null where it has none. */
    final BindingPlan plan() {
        Object p = plan;
        if (p == null) {
            synchronized (this) {
                p = plan;
                if (p == null) {
                    BindingPlan made = BindingPlan.of(this);
                    plan = p = made != null ? made : NO_PLAN;
                }
            }
        }
        return p == NO_PLAN ? null : (BindingPlan) p;
    }

    /** {@link #read}, for the generated readers (BeanAccess.readInOrder). */
    @Override
    public final Object readValue(Object tape, int w) {
        return read((BindingTape) tape, w);
    }

    /** {@link #write}, for the generated writers (BeanAccess.writeProperties). */
    @Override
    @SuppressWarnings("unchecked")
    public final void writeValue(Object out, Object value) {
        write((JsonWriter) out, (T) value);
    }

    /** Writes a non-null value. */
    abstract void write(JsonWriter out, T value);
}
