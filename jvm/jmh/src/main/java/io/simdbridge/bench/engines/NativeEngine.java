// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.engines;

import io.simdbridge.Bridge;
import io.simdbridge.NativeParser;
import io.simdbridge.bench.data.Input;

/**
 * simdbridge's C++ engine through one of the JNI or FFM bridges, on this thread's parser. The
 * direct buffer is shared, not duplicated: a checksum never moves its position, and a duplicate
 * per call would be the only Java allocation of the operation.
 */
public final class NativeEngine implements Engine {
    private final Bridge bridge;
    private final String name;

    public NativeEngine(Bridge bridge) {
        this.bridge = bridge;
        this.name = switch (bridge) {
            case JNI_COPY -> "simdjson-jni-copy";
            case JNI_CRITICAL -> "simdjson-jni-critical";
            case JNI_DIRECT -> "simdjson-jni-direct";
            case FFM_HEAP -> "simdjson-ffm-heap";
            case FFM_DIRECT -> "simdjson-ffm-direct";
        };
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long checksum(Input in) {
        NativeParser parser = NativeParser.forCurrentThread();
        return bridge.direct() ? parser.checksum(in.directBuffer(), bridge) : parser.checksum(in.padded(), 0, in.length(), bridge);
    }

    @Override
    public long checksumStream(Input in) {
        NativeParser parser = NativeParser.forCurrentThread();
        return bridge.direct() ? parser.checksumStream(in.directBuffer(), bridge)
                : parser.checksumStream(in.padded(), 0, in.length(), bridge);
    }
}
