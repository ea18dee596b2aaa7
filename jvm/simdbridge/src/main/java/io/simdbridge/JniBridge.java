// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import java.nio.ByteBuffer;

/**
 * The JNI entry points (src/main/native/simdbridge_jni.cpp): forwarders onto the C API. Callers
 * check every argument first; the natives trust what they are given. Each {@code read*0} and
 * {@code extract*0} returns the native error code and writes the result's value (a checksum,
 * a count, or an error's byte offset) at {@code resultAddress}.
 */
final class JniBridge {
    static final int KIND_CHECKSUM = 0;
    static final int KIND_CHECKSUM_STREAM = 1;
    static final int KIND_VALIDATE = 2;
    static final int KIND_VALIDATE_STREAM = 3;

    static {
        NativeLibrary.ensureLoaded();
    }

    private JniBridge() {}

    static native long parserNew0(int maxDepth);

    static native void parserFree0(long parser);

    static native int readDirect0(long parser, int kind, ByteBuffer buffer, int position, int length,
                                  int capacity, long resultAddress);

    static native int readArrayCopy0(long parser, int kind, byte[] array, int offset, int length,
                                     int capacity, long resultAddress);

    static native int readArrayCritical0(long parser, int kind, byte[] array, int offset, int length,
                                         int capacity, long resultAddress);

    static native int extractDirect0(long parser, ByteBuffer buffer, int position, int length, int capacity,
                                     long columns, int columnCount, long maxRows, long statusAddress,
                                     long resultAddress);

    static native int documentParseDirect0(long parser, ByteBuffer buffer, int position, int length, int capacity,
                                           long resultAddress);

    static native int documentField0(long parser, long pointer, long pointerLength, int type, long out,
                                     long outCapacity, long resultAddress);

    static native void noop0();

    static native String errorMessage0(int code);

    static native String errorName0(int code);

    static native String version0(int which);
}
