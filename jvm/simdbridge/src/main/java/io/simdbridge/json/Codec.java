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
