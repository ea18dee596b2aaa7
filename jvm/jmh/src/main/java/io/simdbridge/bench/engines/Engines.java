// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.engines;

import io.simdbridge.Bridge;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Every engine, by name: the @Param values of the JMH suites. */
public final class Engines {
    public static final List<Engine> ALL = List.of(
            new JacksonTreeEngine(),
            new JacksonStreamEngine(),
            new Fastjson2Engine(),
            new SimdjsonJavaEngine(),
            new NativeEngine(Bridge.JNI_COPY),
            new NativeEngine(Bridge.JNI_CRITICAL),
            new NativeEngine(Bridge.JNI_DIRECT),
            new NativeEngine(Bridge.FFM_HEAP),
            new NativeEngine(Bridge.FFM_DIRECT));

    private static final Map<String, Engine> BY_NAME =
            ALL.stream().collect(Collectors.toMap(Engine::name, Function.identity()));

    private Engines() {}

    public static Engine byName(String name) {
        Engine e = BY_NAME.get(name);
        if (e == null) {
            throw new IllegalArgumentException("no engine " + name + "; engines: " + BY_NAME.keySet());
        }
        return e;
    }
}
