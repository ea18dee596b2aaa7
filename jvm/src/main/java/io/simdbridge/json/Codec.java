// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

/**
 * Reads one Java type from the tape and writes it as JSON. One codec per type, built once
 * ({@link Codecs}) and shared by every mapper and thread: codecs hold no state of a read.
 */
abstract class Codec<T> {
    /** The value at word {@code w} of the tape; null for JSON null (primitives: see Tape). */
    abstract T read(Tape t, int w);

    /** Writes a non-null value. */
    abstract void write(JsonWriter out, T value);
}
