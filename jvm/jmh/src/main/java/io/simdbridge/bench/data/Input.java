// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.data;

import io.simdbridge.PaddedBuffers;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One dataset's bytes in every form an engine may read, made before anything is timed: the
 * exact array, an array with simdjson's padding after the data, and a padded direct buffer.
 */
public record Input(String name, boolean stream, byte[] bytes, byte[] padded, ByteBuffer directBuffer) {
    public static Input of(String name, boolean stream, byte[] bytes) {
        return new Input(name, stream, bytes, PaddedBuffers.padded(bytes), PaddedBuffers.copyOf(bytes));
    }

    public int length() {
        return bytes.length;
    }

    /** The direct buffer, as a fresh view for a caller that moves its position (an extraction). */
    public ByteBuffer direct() {
        return directBuffer.duplicate();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Input i && i.name.equals(name) && Arrays.equals(i.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name + " (" + bytes.length + " bytes" + (stream ? ", stream" : "") + ")";
    }
}
