// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.internal;

import io.simdbridge.ErrorCode;
import io.simdbridge.JsonException;
import io.simdbridge.NativeParser;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.ByteBuffer;

/**
 * Not API (this package is not exported): what the data binding, the writer and the benchmarks
 * need of {@link NativeParser} beyond its public methods. NativeParser registers the one
 * implementation when it is initialised; {@link #get()} makes sure it was.
 */
public final class ParserInternals {
    /** The parser's binding tape, its empty crossings, and the native string writer. */
    public interface Access {
        /**
         * NativeParser.tape over an array: see its documentation there. With stringsInInput, string
         * values with no escape may stay in {@code json} (BindingTape.IN_INPUT).
         */
        boolean bindingTape(NativeParser parser, byte[] json, int offset, int length, long[] words, byte[] strings,
                boolean stringsInInput);

        /** NativeParser.tape over a direct buffer. */
        boolean bindingTape(NativeParser parser, ByteBuffer json, long[] words, byte[] strings);

        /** Words written (or needed) by the last tape call. */
        /** -1: an array too small; 1: the tape follows the plan; 0: it does not (see NativeParser). */
        int bindingTapePlanned(NativeParser parser, java.lang.foreign.MemorySegment plan, byte[] json, int offset, int length,
                long[] words, byte[] strings, boolean stringsInInput);

        int bindingTapePlanned(NativeParser parser, java.lang.foreign.MemorySegment plan, ByteBuffer json, long[] words,
                byte[] strings);

        java.lang.foreign.MemorySegment newBindingPlan(byte[] spec);

        void freeBindingPlan(java.lang.foreign.MemorySegment plan);

        int bindingTapeWords(NativeParser parser);

        /** String bytes written (or needed) by the last tape call. */
        int bindingTapeStrings(NativeParser parser);

        /** One empty crossing through JNI, to price it. */
        void noopJni();

        /** One empty FFM downcall, plain or critical, to price it. */
        void noopFfm(boolean critical);

        /** The core's JSON string writer (simdbridge_write_json_string), or null without the library. */
        MethodHandle writeJsonString();

        /** The exception of an error found in Java, with the core's code for it (its message, at the offset). */
        JsonException error(ErrorCode code, long offset, String detail);
    }

    private static volatile Access access;
    private static volatile java.util.function.Function<java.lang.reflect.Type, java.lang.foreign.MemorySegment> plans;

    /** Registered by the data binding (io.simdbridge.json.BindingPlan). */
    public static void registerPlans(java.util.function.Function<java.lang.reflect.Type, java.lang.foreign.MemorySegment> f) {
        plans = f;
    }

    /**
     * The native binding plan the data binding reads {@code type} with, or null where it has none:
     * for the benchmarks, which time the native parse of a read on its own.
     */
    public static java.lang.foreign.MemorySegment planOf(java.lang.reflect.Type type) {
        if (plans == null) {
            try {
                Class.forName("io.simdbridge.json.BindingPlan", true, ParserInternals.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
        return plans.apply(type);
    }

    private ParserInternals() {}

    /** Called once, by NativeParser's static initialiser. */
    public static void register(Access implementation) {
        if (access != null) {
            throw new IllegalStateException("registered twice");
        }
        access = implementation;
    }

    /** The implementation, NativeParser initialised first if it was not. */
    public static Access get() {
        Access a = access;
        if (a == null) {
            try {
                MethodHandles.lookup().ensureInitialized(NativeParser.class);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
            a = access;
        }
        return a;
    }
}
