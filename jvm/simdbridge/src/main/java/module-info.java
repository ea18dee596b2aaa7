// SPDX-License-Identifier: Apache-2.0
/**
 * simdbridge on the JVM: the bridges onto the C++ core ({@code io.simdbridge}: checksum,
 * validation, batch extraction, NDJSON to Arrow, MessagePack) and the data binding
 * ({@code io.simdbridge.json}). {@code io.simdbridge.internal} is its implementation and is not
 * exported. Arrow Java is needed only by {@code ArrowNdjson}'s users.
 *
 * <p>The library calls native code (FFM and JNI): launch with
 * {@code --enable-native-access=io.simdbridge} on the module path. Classes bound by
 * {@code Json} in a named module are reached through their package, which must be open to
 * simdbridge: {@code opens com.example.model to io.simdbridge;}.
 */
module io.simdbridge {
    requires static org.apache.arrow.vector;
    requires static org.apache.arrow.c;
    requires static org.apache.arrow.memory.core;

    exports io.simdbridge;
    exports io.simdbridge.json;
}
