// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import io.simdbridge.ErrorCode;
import io.simdbridge.JsonException;
import io.simdbridge.JsonLimits;
import io.simdbridge.NativeParser;
import io.simdbridge.internal.ParserInternals;
import io.simdbridge.internal.SharedPool;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Reads JSON into Java objects and writes them as JSON, through the native engine: each read is
 * one native call that parses and validates the whole document into a tape (two arrays on the
 * Java heap, read in place), which generated code then binds to records and classes. Immutable
 * and thread-safe: build one and share it. {@link Json} holds a default one.
 *
 * <pre>{@code
 * JsonMapper strict = JsonMapper.builder()
 *         .unknownProperties(JsonMapper.Policy.FAIL)
 *         .duplicateKeys(JsonMapper.Policy.FAIL)
 *         .build();
 * Users users = strict.read(bytes, Users.class);
 * byte[] json = strict.write(users);
 * }</pre>
 *
 * Types: records; classes with a no-argument constructor (public fields and setters) or a
 * {@link JsonCreator} constructor; List, Set, Collection, Map (String, Integer, Long, UUID or
 * enum keys), arrays, Optional; enums; primitives and their boxes; String, BigInteger,
 * BigDecimal, LocalDate, LocalDateTime, Instant, OffsetDateTime (ISO-8601), UUID; Object as
 * Map, List, String, Long, Double, Boolean or null; generic types through {@link TypeRef}.
 */
public final class JsonMapper {
    private static final ParserInternals.Access PARSER = ParserInternals.get();

    /** What to do with a document that is valid JSON but surprising. */
    public enum Policy {
        /** Go on: skip an unknown property, keep the last of duplicate keys, read null as 0/false. */
        ACCEPT,
        /** Throw a {@link JsonBindException} naming the path and offset. */
        FAIL
    }

    private final boolean failOnUnknown;
    private final boolean failOnDuplicate;
    private final boolean failOnNullPrimitive;
    private final boolean omitNulls;
    private final JsonLimits limits;

    private JsonMapper(Builder b) {
        failOnUnknown = b.unknown == Policy.FAIL;
        failOnDuplicate = b.duplicates == Policy.FAIL;
        failOnNullPrimitive = b.nullPrimitives == Policy.FAIL;
        omitNulls = b.omitNulls;
        limits = b.limits;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A mapper's settings. Defaults: accept unknown properties, last duplicate wins, null is 0; nulls written. */
    public static final class Builder {
        private Policy unknown = Policy.ACCEPT;
        private Policy duplicates = Policy.ACCEPT;
        private Policy nullPrimitives = Policy.ACCEPT;
        private boolean omitNulls;
        private JsonLimits limits = JsonLimits.DEFAULT;

        private Builder() {}

        /**
         * What a read accepts ({@link JsonLimits}: depth, number, string and document length), each limit
         * passed a {@link JsonBindException} with its offset; maxDepth also bounds the nesting
         * of what is written (a cycle is an exception, not a StackOverflowError).
         */
        public Builder limits(JsonLimits l) {
            limits = Objects.requireNonNull(l);
            return this;
        }

        /** Arrays and objects nest at most this deep, read or written (default 1024). */
        public Builder maxDepth(int depth) {
            limits = limits.withMaxDepth(depth);
            return this;
        }

        /** Characters of a number read as BigInteger or BigDecimal past 64 bits (default 1000; 0: none). */
        public Builder maxNumberLength(int characters) {
            limits = limits.withMaxNumberLength(characters);
            return this;
        }

        /** Bytes of a string or key read, unescaped (default: no limit, 0). */
        public Builder maxStringLength(long bytes) {
            limits = limits.withMaxStringLength(bytes);
            return this;
        }

        /** Bytes of a document read (default: no limit, 0). */
        public Builder maxDocumentLength(long bytes) {
            limits = limits.withMaxDocumentLength(bytes);
            return this;
        }

        /** A property the class does not have: skipped (ACCEPT) or an error (FAIL). */
        public Builder unknownProperties(Policy p) {
            unknown = Objects.requireNonNull(p);
            return this;
        }

        /** A key twice in one object: the last wins (ACCEPT) or an error (FAIL). */
        public Builder duplicateKeys(Policy p) {
            duplicates = Objects.requireNonNull(p);
            return this;
        }

        /** null for a primitive: its default, 0 or false (ACCEPT), or an error (FAIL). */
        public Builder nullForPrimitives(Policy p) {
            nullPrimitives = Objects.requireNonNull(p);
            return this;
        }

        /** Properties (and map entries) whose value is null are left out of what is written. */
        public Builder omitNulls(boolean omit) {
            omitNulls = omit;
            return this;
        }

        public JsonMapper build() {
            return new JsonMapper(this);
        }
    }

    // --- reading ---------------------------------------------------------------------------------

    public <T> T read(byte[] json, Class<T> type) {
        return read(json, 0, json.length, (Type) type);
    }

    public <T> T read(byte[] json, TypeRef<T> type) {
        return read(json, 0, json.length, type.type());
    }

    /**
     * The {@code length} bytes from {@code offset}. Like every read here, it copies the bytes into
     * the parser's memory before parsing them: another thread writing them during the call gives a
     * wrong result or an exception, never a crash.
     */
    public <T> T read(byte[] json, int offset, int length, Class<T> type) {
        return read(json, offset, length, (Type) type);
    }

    public <T> T read(String json, Class<T> type) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return read(b, 0, b.length, (Type) type);
    }

    public <T> T read(String json, TypeRef<T> type) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return read(b, 0, b.length, type.type());
    }

    /** The bytes from the buffer's position to its limit (the position does not move), copied first. */
    public <T> T read(ByteBuffer json, Class<T> type) {
        return read(json, (Type) type);
    }

    public <T> T read(ByteBuffer json, TypeRef<T> type) {
        return read(json, type.type());
    }

    /**
     * Reads the stream to its end (it is not closed). Under a {@code maxDocumentLength}, no more
     * than that many bytes and one more are read: a longer document fails as it would from an
     * array (DOCUMENT_TOO_LONG at the limit's offset), without taking all of the stream first.
     * Without one, a stream longer than the JVM's largest array (2,147,483,639 bytes) is
     * DOCUMENT_TOO_LONG at that offset.
     */
    public <T> T read(InputStream json, Class<T> type) {
        return read(readAll(json), (Type) type);
    }

    public <T> T read(InputStream json, TypeRef<T> type) {
        return read(readAll(json), type.type());
    }

    private byte[] readAll(InputStream in) {
        return readAll(in, limits.maxDocumentLength(), LARGEST_ARRAY);
    }

    /** The most bytes an array holds (the JDK's own bound, which readAllBytes enforces). */
    static final int LARGEST_ARRAY = Integer.MAX_VALUE - 8;

    /**
     * The stream's bytes, at most {@code maxDocumentLength} and one more where that is below
     * {@code largest} (the parse then refuses the longer document, at the limit); else at most
     * {@code largest}, and a stream with more is refused here, where readAllBytes would throw the
     * JDK's OutOfMemoryError ("Required array size too large") after taking all it could.
     */
    static byte[] readAll(InputStream in, long maxDocumentLength, int largest) {
        Objects.requireNonNull(in, "json");
        try {
            if (maxDocumentLength > 0 && maxDocumentLength < largest) {
                return in.readNBytes((int) maxDocumentLength + 1);
            }
            byte[] bytes = in.readNBytes(largest);
            if (bytes.length == largest && in.read() != -1) {
                ErrorCode code = ErrorCode.DOCUMENT_TOO_LONG;
                String past = "a stream longer than the JVM's largest array, " + largest + " bytes";
                throw parseError(i -> i < largest ? bytes[(int) i] & 0xFF : -1, PARSER.error(code, largest, past),
                        code.message() + " (" + past + ")");
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A type known only at run time (a Class, a ParameterizedType, ...). */
    public <T> T read(byte[] json, Type type) {
        return read(json, 0, json.length, type);
    }

    @SuppressWarnings("unchecked")
    private <T> T read(byte[] json, int offset, int length, Type type) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(type, "type");
        Objects.checkFromIndexSize(offset, length, json.length);
        Codec<T> codec = Codecs.forType(type);
        Contexts c = Contexts.take();
        BindingTape t = c.bindingTape(length);
        try {
            t.input = json;
            t.inputOffset = offset;
            t.inputLength = length;
            return parseAndBind(codec, c, t, json, offset, length, null, type);
        } finally {
            c.release(t, length);
            Contexts.give(c);
        }
    }

    @SuppressWarnings("unchecked")
    private <T> T read(ByteBuffer json, Type type) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(type, "type");
        if (!json.isDirect()) {
            if (json.hasArray()) {
                return read(json.array(), json.arrayOffset() + json.position(), json.remaining(), type);
            }
            byte[] copy = new byte[json.remaining()];
            json.duplicate().get(copy);
            return read(copy, 0, copy.length, type);
        }
        Codec<T> codec = Codecs.forType(type);
        Contexts c = Contexts.take();
        int length = json.remaining();
        BindingTape t = c.bindingTape(length);
        try {
            t.inputBuffer = json;
            return parseAndBind(codec, c, t, null, 0, length, json, type);
        } finally {
            c.release(t, length);
            Contexts.give(c);
        }
    }

    /**
     * The document (an array's bytes, or a direct buffer) parsed and bound: through the type's
     * binding plan where it has one worth trying (BindingPlan), else as always, and as always
     * again where a value inside a planned object is not what its property takes (the error
     * then names its JSON path, which needs the keys).
     */
    private <T> T parseAndBind(Codec<T> codec, Contexts c, BindingTape t, byte[] json, int offset, int length, ByteBuffer buffer,
            Type type) {
        BindingPlan plan = codec.plan();
        if (plan != null && plan.worthTrying()) {
            boolean followed = parse(c, t, json, offset, length, buffer, plan);
            plan.tried(followed);
            if (!followed) {
                return bind(codec, t, type); // the tape is the one without a plan
            }
            policies(t);
            try {
                return codec.readPlanned(t, 0);
            } catch (BindingTape.Mismatch | StackOverflowError e) {
                // read again below
            }
        }
        parse(c, t, json, offset, length, buffer, null);
        return bind(codec, t, type);
    }

    /**
     * One native call (two where the tape's arrays must first grow). With a plan:
     * whether the tape follows it (its objects without their keys: read with Codec.readPlanned).
     */
    private boolean parse(Contexts c, BindingTape t, byte[] json, int offset, int length, ByteBuffer buffer, BindingPlan plan) {
        NativeParser parser = c.parser(length);
        JsonLimits before = parser.limits();
        if (before != limits) {
            parser.setLimits(limits); // nothing crosses where they are equal
        }
        try {
            for (int attempt = 0; ; attempt++) {
                int written = plan != null
                        ? (buffer == null ? PARSER.bindingTapePlanned(parser, plan.segment, json, offset, length, t.words, t.strings, true)
                                : PARSER.bindingTapePlanned(parser, plan.segment, buffer, t.words, t.strings))
                        : (buffer == null ? PARSER.bindingTape(parser, json, offset, length, t.words, t.strings, true)
                                : PARSER.bindingTape(parser, buffer, t.words, t.strings)) ? 0 : -1;
                if (written >= 0) {
                    return written == 1;
                }
                if (attempt > 0) {
                    throw new IllegalStateException("simdbridge: the tape did not fit after growing");
                }
                t.ensure(PARSER.bindingTapeWords(parser), PARSER.bindingTapeStrings(parser));
            }
        } catch (JsonException e) {
            throw parseError(t::inputByte, e, e.code().message());
        } finally {
            if (before != limits) {
                parser.setLimits(before); // the thread's parser serves other mappers and callers
            }
        }
    }

    /**
     * A parse error (the core's, or one found in Java before the parse) as the binding reports it:
     * at its offset, with the JSON path there read from the input, the error as its cause.
     */
    private static JsonBindException parseError(Paths.Reader input, JsonException e, String reason) {
        return new JsonBindException(Paths.ofOffset(input, e.offset()), e.offset(), reason, e);
    }

    @SuppressWarnings("unchecked")
    private <T> T bind(Codec<T> codec, BindingTape t, Type type) {
        policies(t);
        try {
            T value = codec.read(t, 0);
            if (value == null && type instanceof Class<?> c && c.isPrimitive()) {
                // null read as int.class (say): 0, or an error, as for a primitive property.
                if (failOnNullPrimitive) {
                    throw t.mismatch(0, "a " + c.getName());
                }
                return (T) java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(c, 1), 0);
            }
            return value;
        } catch (BindingTape.Mismatch m) {
            throw new JsonBindException(Paths.ofWord(t, m.word), t.offset(m.word), m.getMessage(), null);
        } catch (StackOverflowError e) {
            throw tooDeepForTheStack(t);
        }
    }

    /** This mapper's policies, for the read in progress on t. */
    private void policies(BindingTape t) {
        t.failOnUnknown = failOnUnknown;
        t.failOnDuplicate = failOnDuplicate;
        t.failOnNullPrimitive = failOnNullPrimitive;
        t.maxNumberLength = limits.maxNumberLength();
    }

    /**
     * The codecs read nested values by recursion, a frame or two a level: under a maxDepth raised
     * far past the default, a document can nest deeper than the thread's stack holds. That is
     * this error, at the first of the document's deepest containers, with the depth limit's code
     * (the stack is unwound by then), rather than a StackOverflowError.
     */
    private JsonBindException tooDeepForTheStack(BindingTape t) {
        long deepest = t.deepest();
        int w = (int) deepest;
        long offset = t.offset(w);
        String reason = "arrays and objects nest " + (deepest >>> 32) + " deep, deeper than this thread's stack holds"
                + " for the data binding (the mapper's maxDepth is " + limits.maxDepth()
                + "): lower it, or read on a thread with a larger stack";
        return new JsonBindException(Paths.ofWord(t, w), offset, reason,
                PARSER.error(io.simdbridge.ErrorCode.DEPTH_LIMIT, offset, "this thread's stack"));
    }

    // --- writing ---------------------------------------------------------------------------------

    /** The value as UTF-8 JSON. */
    public byte[] write(Object value) {
        Contexts c = Contexts.take();
        JsonWriter w = c.writer();
        try {
            writeValue(w, value);
            return w.toByteArray();
        } catch (StackOverflowError e) {
            throw tooDeepForTheStack(w, value);
        } finally {
            c.release(w);
            Contexts.give(c);
        }
    }

    /** Writes the value to the stream as UTF-8 JSON (the stream is not closed). */
    public void write(Object value, OutputStream out) {
        Contexts c = Contexts.take();
        JsonWriter w = c.writer();
        try {
            writeValue(w, value);
            w.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (StackOverflowError e) {
            throw tooDeepForTheStack(w, value);
        } finally {
            c.release(w);
            Contexts.give(c);
        }
    }

    /** The value as a JSON string. */
    public String writeString(Object value) {
        return new String(write(value), StandardCharsets.UTF_8);
    }

    /** As for reads: values nested deeper than the thread's stack holds, under a maxDepth raised past it. */
    private IllegalStateException tooDeepForTheStack(JsonWriter w, Object value) {
        return new IllegalStateException("simdbridge: values nest " + w.depth + " deep writing a " + value.getClass().getName()
                + ", deeper than this thread's stack holds (the mapper's maxDepth is " + limits.maxDepth()
                + "; a cycle? else lower it, or write on a thread with a larger stack)");
    }

    private void writeValue(JsonWriter w, Object value) {
        w.omitNulls = omitNulls;
        w.maxDepth = limits.maxDepth();
        ContainerCodecs.writeElement(w, NaturalCodec.INSTANCE, value); // null, or by its runtime class
    }

    // --- per thread ------------------------------------------------------------------------------

    /**
     * A native parser, tape and writer, reused from call to call: a platform thread's own, or, on
     * virtual threads, ones shared through pools and taken for one call. A read or write that
     * runs inside another on the same thread (a constructor or getter that reads JSON itself)
     * gets fresh ones.
     */
    private static final class Contexts {
        private static final ThreadLocal<Contexts> CURRENT = ThreadLocal.withInitial(() -> new Contexts(false));
        /**
         * Contexts of virtual threads, shared: a virtual thread per task would otherwise make,
         * and drop, its own for each task (a native parser, a tape and a writer). Users read
         * 1 KB on a virtual thread each (VirtualThreadBenchmark): 60,000 reads/s that way, 480,000
         * from the pools (fastjson2: 580,000, Jackson: 330,000).
         */
        private static final SharedPool<Contexts> SHARED = SharedPool.perCore();

        /** From SHARED: its parser is acquired from NativeParser's pool for a call, and given back. */
        private final boolean shared;
        private NativeParser parser;
        private final BindingTape tape = new BindingTape(1024, 4096);
        private final JsonWriter writer = new JsonWriter(4096);

        private Contexts(boolean shared) {
            this.shared = shared;
        }

        /** This thread's contexts; on a virtual thread, ones from SHARED. Give them back with give(). */
        static Contexts take() {
            if (!Thread.currentThread().isVirtual()) {
                return CURRENT.get();
            }
            Contexts c = SHARED.take();
            return c != null ? c : new Contexts(true);
        }

        static void give(Contexts c) {
            if (c.shared) {
                if (c.parser != null) {
                    c.parser.release();
                    c.parser = null;
                }
                SHARED.give(c); // dropped where full
            }
        }

        /**
         * What a thread keeps from call to call follows what its documents need. The tape's
         * arrays and the native parser's buffers grow to the document being read (the arrays to
         * about 5 times its size, the native ones too, a third of it touched) and stay for the next one,
         * but are cut back when a read needs less than a quarter of what they hold, and they
         * hold more than a document of KEEP_INPUT bytes needs: a thread keeps what its last
         * documents needed, not what the largest it ever read did (which, on many threads, would
         * hold hundreds of MB until they ended). Consecutive large documents keep their buffers:
         * making them again on every read would cost a large part of each. After a document of
         * more than HUGE_INPUT bytes nothing is kept.
         */
        private static final int KEEP_INPUT = 1 << 20;
        private static final int HUGE_INPUT = 1 << 24;
        /** A writer's buffer past this is not kept. */
        private static final int KEEP_OUTPUT = 1 << 24;
        /** The largest input the parser has grown for since it was last trimmed. */
        private long parserHolds;

        /** The parser for a read of {@code length} bytes. */
        NativeParser parser(long length) {
            if (parser == null) {
                parser = shared ? NativeParser.acquire() : NativeParser.forCurrentThread();
            }
            if (!shared) {
                if (parserHolds > KEEP_INPUT && 4 * length < parserHolds) {
                    parser.trim();
                    parserHolds = 0;
                }
                parserHolds = Math.max(parserHolds, length);
            }
            return parser;
        }

        BindingTape bindingTape(int length) {
            BindingTape t = tape.inUse ? new BindingTape(64, 64) : tape;
            t.inUse = true;
            // Strings never take more bytes than the input, and with 16 more (a vector store's
            // overshoot) the native walk writes them without a capacity check (parser::to_binding_tape);
            // words are sized on a guess (two per structural also spares the walk its checks).
            int words = Math.min(Integer.MAX_VALUE - 64, length / 2 + 64);
            int bytes = (int) Math.min(Integer.MAX_VALUE - 64L, length + 16L);
            if (t.strings.length > KEEP_INPUT && t.strings.length > 4L * bytes) { // cut back
                t.words = new long[Math.max(1024, words + 16)];
                t.strings = new byte[Math.max(4096, bytes + 16)];
            }
            t.ensure(words, bytes);
            return t;
        }

        /** After a read of {@code length} bytes. */
        void release(BindingTape t, long length) {
            t.inUse = false;
            t.input = null;
            t.inputBuffer = null;
            if (length > HUGE_INPUT && t == tape) {
                t.words = new long[1024];
                t.strings = new byte[4096];
            }
            if (parser != null && (length > HUGE_INPUT || (shared && length > KEEP_INPUT))) {
                parser.trim(); // a pooled parser goes back small: its next thread may read small documents
                parserHolds = 0;
            }
        }

        JsonWriter writer() {
            JsonWriter w = writer.inUse ? new JsonWriter(256) : writer;
            w.inUse = true;
            w.reset();
            return w;
        }

        void release(JsonWriter w) {
            w.inUse = false;
            if (w == writer && w.buf.length > KEEP_OUTPUT) {
                w.buf = new byte[4096];
            }
        }
    }
}
