// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Buffers with the slack simdjson reads past the data ({@link #PADDING} bytes), so that the
 * native code reads them in place. The data lies in [0, limit); the capacity is at least
 * limit + PADDING.
 *
 * <pre>{@code
 * ByteBuffer json = PaddedBuffers.copyOf(bytes);        // direct, zero-copy bridges
 * long checksum = parser.checksum(json, Bridge.FFM_DIRECT);
 * byte[] heap = PaddedBuffers.padded(bytes);            // heap, read in place by FFM_HEAP
 * long same = parser.checksum(heap, 0, bytes.length, Bridge.FFM_HEAP);
 * }</pre>
 */
public final class PaddedBuffers {
    /** Readable bytes simdjson needs after the data (SIMDBRIDGE_PADDING). */
    public static final int PADDING = 64;

    private PaddedBuffers() {}

    /** A direct buffer for {@code size} bytes of data, limit {@code size}, capacity size + PADDING. */
    public static ByteBuffer allocateDirect(int size) {
        if (size < 0 || size > Integer.MAX_VALUE - PADDING) {
            throw new IllegalArgumentException("size " + size + " out of range");
        }
        return ByteBuffer.allocateDirect(size + PADDING).limit(size);
    }

    /** A padded direct copy of {@code data}. */
    public static ByteBuffer copyOf(byte[] data) {
        ByteBuffer buffer = allocateDirect(data.length);
        buffer.put(0, data);
        return buffer;
    }

    /** A copy of {@code data} with PADDING zero bytes after it: read in place by the heap bridges. */
    public static byte[] padded(byte[] data) {
        return Arrays.copyOf(data, data.length + PADDING);
    }
}
