// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

/**
 * How the bytes cross into native code. The heap bridges take a {@code byte[]}; the direct
 * bridges take a direct {@link java.nio.ByteBuffer} and never copy.
 */
public enum Bridge {
    /** JNI, GetByteArrayElements: the JVM copies the array out (and back). */
    JNI_COPY(false),
    /** JNI, GetPrimitiveArrayCritical: the array in place where the GC pins it. */
    JNI_CRITICAL(false),
    /** JNI over a direct buffer's memory: zero copy. */
    JNI_DIRECT(true),
    /** FFM, Linker.Option.critical(true) over a heap segment: the array read in place. */
    FFM_HEAP(false),
    /** FFM over a direct buffer's memory: zero copy. */
    FFM_DIRECT(true);

    private final boolean direct;

    Bridge(boolean direct) {
        this.direct = direct;
    }

    /** Takes a direct buffer (true) or a heap array (false). */
    public boolean direct() {
        return direct;
    }
}
