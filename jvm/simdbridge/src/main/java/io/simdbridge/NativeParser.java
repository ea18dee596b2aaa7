// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import io.simdbridge.internal.ParserInternals;
import io.simdbridge.internal.SharedPool;

/**
 * A native parser: the checksum of docs/checksum.md, validation and batch field
 * extraction, through JNI or FFM ({@link Bridge}). It keeps native buffers that grow to the
 * largest input seen, so reuse it ({@link #trim()} gives that memory back); it belongs to the
 * thread that made or acquired it (another thread gets an IllegalStateException, never a
 * crash). {@link #forCurrentThread()} keeps one per thread; on threads made per task (virtual
 * threads), {@link #acquire()} takes one from a shared pool and {@link #release()} gives it back.
 *
 * <p>Every buffer, offset and length is checked here, before anything crosses; invalid JSON is a
 * {@link JsonException} with its byte offset. Inputs are read from {@code position} to
 * {@code limit} and never modified; a direct buffer needs {@link PaddedBuffers#PADDING} bytes
 * of capacity past its limit, so that it is read in place. A heap array is read in place when it
 * has that slack past the data, and copied once otherwise.
 *
 * <p><b>Bytes read in place must not change during the call.</b> simdjson reads them twice (its
 * index of the structure, then the values), and trusts the second reading to match the first:
 * another thread writing into the buffer or array while a call reads it is a data race that can
 * corrupt native memory and crash the JVM (a thread flipping bytes of an array with slack did
 * crash {@code checksum} and {@code validate}; RacingWriterTest runs the copied paths). Bytes that another thread
 * may write should be copied first; an array without the slack is copied by the call itself,
 * once, and a race then gives a wrong result or a {@link JsonException}, never a crash. {@link #bindingTape}, the data binding's read,
 * always copies.
 *
 * <p>A direct buffer from an {@link Arena} is checked before every call: a closed arena's buffer
 * is an IllegalStateException, a confined arena's buffer used from another thread a
 * WrongThreadException. A shared arena's buffer is read through FFM whatever the bridge asked
 * (JNI cannot hold the arena): the arena stays open for the call, and closing it meanwhile
 * throws in the thread that tries.
 *
 * <pre>{@code
 * NativeParser parser = NativeParser.forCurrentThread();
 * long a = parser.checksum(bytes);                                      // FFM, heap, in place
 * long b = parser.checksum(PaddedBuffers.copyOf(bytes), Bridge.JNI_DIRECT);  // zero copy
 * long c = parser.checksumStream(ndjson, 0, ndjson.length, Bridge.JNI_CRITICAL);
 * }</pre>
 */
public final class NativeParser implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    static {
        ParserInternals.register(new ParserInternals.Access() {
            @Override
            public boolean bindingTape(NativeParser parser, byte[] json, int offset, int length, long[] words, byte[] strings,
                    boolean stringsInInput) {
                return parser.bindingTape(json, offset, length, words, strings, stringsInInput);
            }

            @Override
            public boolean bindingTape(NativeParser parser, ByteBuffer json, long[] words, byte[] strings) {
                return parser.bindingTape(json, words, strings);
            }

            @Override
            public int bindingTapePlanned(NativeParser parser, MemorySegment plan, byte[] json, int offset, int length,
                    long[] words, byte[] strings, boolean stringsInInput) {
                return parser.bindingTapePlanned(plan, json, offset, length, words, strings, stringsInInput);
            }

            @Override
            public int bindingTapePlanned(NativeParser parser, MemorySegment plan, ByteBuffer json, long[] words, byte[] strings) {
                return parser.bindingTapePlanned(plan, json, words, strings);
            }

            @Override
            public MemorySegment newBindingPlan(byte[] spec) {
                return NativeParser.newBindingPlan(spec);
            }

            @Override
            public void freeBindingPlan(MemorySegment plan) {
                NativeParser.freeBindingPlan(plan);
            }

            @Override
            public int bindingTapeWords(NativeParser parser) {
                return parser.bindingTapeWords();
            }

            @Override
            public int bindingTapeStrings(NativeParser parser) {
                return parser.bindingTapeStrings();
            }

            @Override
            public void noopJni() {
                NativeParser.noopJni();
            }

            @Override
            public void noopFfm(boolean critical) {
                NativeParser.noopFfm(critical);
            }

            @Override
            public java.lang.invoke.MethodHandle writeJsonString() {
                return FfmBridge.WRITE_JSON_STRING;
            }

            @Override
            public JsonException error(ErrorCode code, long offset, String detail) {
                return new JsonException(code, offset, -1, detail);
            }
        });
    }
    private static final ThreadLocal<NativeParser> CURRENT = ThreadLocal.withInitial(NativeParser::new);

    /** The native handle, freed once: by close() or, if the parser is dropped, by the Cleaner. */
    private static final class Handle implements Runnable {
        volatile long address;
        /** What MsgPack's conversions keep for the next call, freed with the parser. */
        final KeptMemory kept = new KeptMemory();

        Handle(long address) {
            this.address = address;
        }

        @Override
        public void run() {
            long a = address;
            address = 0;
            if (a != 0) {
                JniBridge.parserFree0(a);
                kept.free();
            }
        }
    }

    /** Parsers given back by {@link #release()}, for {@link #acquire()}. */
    private static final SharedPool<NativeParser> POOL = SharedPool.perCore();
    /** Parsers made, and trims, in this process (tests count what a pattern of use does). */
    static final AtomicLong MADE = new AtomicLong();
    static final AtomicLong TRIMS = new AtomicLong();

    /**
     * The thread that may use the parser: the one that made it, or the one that acquired it; none
     * while it waits in the pool. Volatile, so that a thread that held a parser it gave back sees
     * that it no longer does (and gets an exception, not a parser another thread is using).
     */
    private volatile Thread owner = Thread.currentThread();
    /** Made by {@link #acquire()}: may be released to the pool. */
    private boolean pooled;
    private final Handle handle;
    private final Cleaner.Cleanable cleanable;
    private final MemorySegment parserSegment;
    /** 16 bytes: the native result {error, value}; JNI writes the value at +8, FFM both. */
    private final MemorySegment slot;
    private final long valueAddress;
    private final SegmentAllocator slotAllocator;
    /** Extraction status: {consumed, error column}; binding tape: {words, string bytes, error offset}. */
    private final MemorySegment status;
    /** Where a field of the kept document is written. */
    private MemorySegment field;
    private Bridge documentBridge;
    /** The limits the native parser enforces now. */
    private JsonLimits limits = JsonLimits.DEFAULT;

    /** A parser with the default limits ({@link JsonLimits#DEFAULT}). */
    public NativeParser() {
        this(0);
    }

    /**
     * A parser whose arrays and objects may nest {@code maxDepth} deep (0: the default, 1024),
     * with the other limits' defaults. Its memory follows the documents it reads, not the limit.
     */
    public NativeParser(int maxDepth) {
        this(maxDepth, null);
    }

    /** A parser with these limits. */
    public NativeParser(JsonLimits limits) {
        this(Objects.requireNonNull(limits, "limits").maxDepth(), limits);
    }

    private NativeParser(int maxDepth, JsonLimits limits) {
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth " + maxDepth + " < 0");
        }
        MADE.incrementAndGet();
        long address = JniBridge.parserNew0(maxDepth);
        if (address == 0) {
            throw new OutOfMemoryError("simdbridge: no memory for a native parser");
        }
        handle = new Handle(address);
        cleanable = CLEANER.register(this, handle);
        parserSegment = MemorySegment.ofAddress(address);
        Arena arena = Arena.ofAuto();
        slot = arena.allocate(FfmBridge.RESULT);
        valueAddress = slot.address() + FfmBridge.RESULT_VALUE;
        slotAllocator = (byteSize, byteAlignment) -> slot;
        status = arena.allocate(JAVA_LONG, 4);
        field = arena.allocate(256);
        this.limits = maxDepth == 0 ? JsonLimits.DEFAULT : JsonLimits.DEFAULT.withMaxDepth(maxDepth);
        if (limits != null) {
            setLimits(limits);
        }
    }

    /** The limits this parser enforces. */
    public JsonLimits limits() {
        return limits;
    }

    /**
     * Enforces these limits from the next call on (one native call where they differ from the
     * current ones, none where they are the same).
     */
    public void setLimits(JsonLimits newLimits) {
        checkUsable();
        Objects.requireNonNull(newLimits, "limits");
        if (newLimits.equals(limits)) {
            return;
        }
        documentBridge = null; // a change of depth drops a kept document
        int error;
        try {
            error = (int) FfmBridge.SET_LIMITS.invokeExact(parserSegment, newLimits.maxDepth(),
                    newLimits.maxNumberLength(), newLimits.maxStringLength(), newLimits.maxDocumentLength());
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (error != 0) {
            throw new OutOfMemoryError("simdbridge: no memory for a native parser's depth buffers");
        }
        limits = newLimits;
    }

    /**
     * A parser for the current thread, from a pool that every thread shares, for threads that
     * come and go (a virtual thread per task), where {@link #forCurrentThread()} would make, and
     * drop, a parser for each: making one (its native buffers, its Cleaner) costs far more than a
     * parse of a small document. Give it back with {@link #release()} when done, on this thread.
     *
     * <pre>{@code
     * NativeParser parser = NativeParser.acquire();
     * try {
     *     return parser.checksum(bytes);
     * } finally {
     *     parser.release();
     * }
     * }</pre>
     */
    public static NativeParser acquire() {
        NativeParser parser = POOL.take();
        if (parser == null) {
            parser = new NativeParser();
            parser.pooled = true;
        } else {
            parser.owner = Thread.currentThread();
        }
        return parser;
    }

    /**
     * Gives a parser from {@link #acquire()} back to the pool. This thread may not use it
     * afterwards: any call then is an IllegalStateException. A parser the pool has no room for is
     * closed (its native memory freed now).
     *
     * @throws IllegalStateException on a parser not from acquire(), or not this thread's
     */
    public void release() {
        checkOwner();
        if (!pooled) {
            throw new IllegalStateException("release() gives back a parser from NativeParser.acquire(), not this one");
        }
        documentBridge = null; // a kept document is not carried to the next thread
        if (handle.address != 0 && !limits.equals(JsonLimits.DEFAULT)) {
            setLimits(JsonLimits.DEFAULT); // nor its limits
        }
        owner = null;
        if (handle.address != 0 && !POOL.give(this)) { // one closed by its user is not given back
            cleanable.clean();
        }
    }

    /** This thread's parser, made on first use. On threads made per task, see {@link #acquire()}. */
    public static NativeParser forCurrentThread() {
        NativeParser parser = CURRENT.get();
        if (parser.handle.address == 0) { // closed by its user: make another
            parser = new NativeParser();
            CURRENT.set(parser);
        }
        return parser;
    }

    // ---------------------------------------------------------------------------------------
    // The checksum, validation, of one document or of a stream (documents separated by white
    // space: NDJSON, JSON Lines).

    /** The checksum of one document, read in place through FFM. */
    public long checksum(byte[] json) {
        return read(JniBridge.KIND_CHECKSUM, json, 0, json.length, Bridge.FFM_HEAP);
    }

    public long checksum(byte[] json, int offset, int length, Bridge bridge) {
        return read(JniBridge.KIND_CHECKSUM, json, offset, length, bridge);
    }

    /** The checksum of the bytes from position to limit. */
    public long checksum(ByteBuffer json, Bridge bridge) {
        return read(JniBridge.KIND_CHECKSUM, json, bridge);
    }

    public long checksumStream(byte[] json, int offset, int length, Bridge bridge) {
        return read(JniBridge.KIND_CHECKSUM_STREAM, json, offset, length, bridge);
    }

    public long checksumStream(ByteBuffer json, Bridge bridge) {
        return read(JniBridge.KIND_CHECKSUM_STREAM, json, bridge);
    }

    /** Full validation (RFC 8259, UTF-8): returns, or throws JsonException. */
    public void validate(byte[] json, int offset, int length, Bridge bridge) {
        read(JniBridge.KIND_VALIDATE, json, offset, length, bridge);
    }

    public void validate(ByteBuffer json, Bridge bridge) {
        read(JniBridge.KIND_VALIDATE, json, bridge);
    }

    /** Validates a stream; returns the number of documents. */
    public long validateStream(byte[] json, int offset, int length, Bridge bridge) {
        return read(JniBridge.KIND_VALIDATE_STREAM, json, offset, length, bridge);
    }

    public long validateStream(ByteBuffer json, Bridge bridge) {
        return read(JniBridge.KIND_VALIDATE_STREAM, json, bridge);
    }

    // ---------------------------------------------------------------------------------------
    // Batch field extraction: one crossing per batch.

    /**
     * Reads the NDJSON records from the batch's position to its limit into {@code columns} (see
     * {@link ColumnBatch}), one crossing for the whole batch, and moves the batch's position past
     * what was read. It stops early, without an error, before a record that would overflow the
     * columns' rows or string bytes: call again to go on.
     *
     * @return the number of rows written, also {@link ColumnBatch#rows()}
     */
    public int extract(ByteBuffer batch, ColumnBatch columns, Bridge bridge) {
        checkUsable();
        Objects.requireNonNull(columns, "columns");
        int position = checkDirect(batch, bridge);
        MemorySegment data = DirectMemory.live(batch);
        columns.checkLive();
        documentBridge = null;
        int length = batch.remaining();
        int capacity = batch.capacity() - position;
        int error;
        if (!DirectMemory.safeByAddress(data)) {
            error = invokeExtract(data, length, capacity, columns); // the arena held for the call
        } else if (bridge == Bridge.JNI_DIRECT) {
            error = JniBridge.extractDirect0(handle.address, batch, position, length, capacity,
                    columns.descriptors().address(), columns.columnCount(), columns.maxRows(),
                    status.address(), valueAddress);
        } else {
            error = invokeExtract(addressOf(batch), length, capacity, columns);
            Reference.reachabilityFence(batch);
        }
        Reference.reachabilityFence(columns); // its buffers were written through raw addresses
        long value = slot.get(JAVA_LONG, FfmBridge.RESULT_VALUE);
        if (error != 0) {
            columns.setRows(0);
            int column = (int) status.getAtIndex(JAVA_LONG, FfmBridge.EXTRACT_STATUS_COLUMN);
            throw columns.error(error, value, column);
        }
        columns.setRows((int) value);
        batch.position(position + (int) status.getAtIndex(JAVA_LONG, FfmBridge.EXTRACT_STATUS_CONSUMED));
        return (int) value;
    }

    private int invokeExtract(long data, int length, int capacity, ColumnBatch columns) {
        try {
            MemorySegment r = (MemorySegment) FfmBridge.EXTRACT.invokeExact(slotAllocator, parserSegment, data,
                    (long) length, (long) capacity, columns.descriptors(), (long) columns.columnCount(),
                    (long) columns.maxRows(), status);
            return r.get(JAVA_INT, FfmBridge.RESULT_ERROR);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private int invokeExtract(MemorySegment data, int length, int capacity, ColumnBatch columns) {
        try {
            MemorySegment r = (MemorySegment) FfmBridge.EXTRACT_SEGMENT.invokeExact(slotAllocator, parserSegment, data,
                    (long) length, (long) capacity, columns.descriptors(), (long) columns.columnCount(),
                    (long) columns.maxRows(), status);
            return r.get(JAVA_INT, FfmBridge.RESULT_ERROR);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---------------------------------------------------------------------------------------
    // A kept document, read field by field: one crossing per field (the other design to batch
    // extraction, which suite B compares with it).

    /**
     * Parses one document (fully validated) and keeps it in this parser for the field reads
     * below, until the next call that reads JSON. The field reads cross through the same bridge.
     *
     * <pre>{@code
     * parser.parseDocument(record, Bridge.JNI_DIRECT);
     * long year = parser.getLong(YEAR, -1);          // YEAR = JsonPointer.of("/year")
     * String make = parser.getString(MAKE);          // null where missing or null
     * }</pre>
     */
    public void parseDocument(ByteBuffer json, Bridge bridge) {
        checkUsable();
        int position = checkDirect(json, bridge);
        MemorySegment data = DirectMemory.live(json);
        int length = json.remaining();
        int capacity = json.capacity() - position;
        documentBridge = null;
        int error;
        if (!DirectMemory.safeByAddress(data)) {
            error = invokeRead(FfmBridge.DOCUMENT_PARSE_SEGMENT, data, length, capacity);
        } else if (bridge == Bridge.JNI_DIRECT) {
            error = JniBridge.documentParseDirect0(handle.address, json, position, length, capacity, valueAddress);
        } else {
            error = invokeReadAt(FfmBridge.DOCUMENT_PARSE, addressOf(json), length, capacity);
            Reference.reachabilityFence(json);
        }
        result(error);
        documentBridge = bridge;
    }

    /** The integer at {@code pointer}, or {@code missing} where it leads nowhere or to null. */
    public long getLong(JsonPointer pointer, long missing) {
        return field(pointer, ColumnType.INT64, 8) == 0 ? missing : field.get(JAVA_LONG, 0);
    }

    public double getDouble(JsonPointer pointer, double missing) {
        return field(pointer, ColumnType.FLOAT64, 8) == 0 ? missing : field.get(ValueLayout.JAVA_DOUBLE, 0);
    }

    public boolean getBoolean(JsonPointer pointer, boolean missing) {
        return field(pointer, ColumnType.BOOLEAN, 1) == 0 ? missing : field.get(ValueLayout.JAVA_BYTE, 0) != 0;
    }

    /** The string at {@code pointer}, or null where it leads nowhere or to null. */
    public String getString(JsonPointer pointer) {
        long n = field(pointer, ColumnType.STRING, field.byteSize());
        if (n == 0) {
            return null;
        }
        return new String(field.asSlice(0, n - 1).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /** Reads one field: 0 where missing or null, else 1 (+ a string's length). */
    private long field(JsonPointer pointer, ColumnType type, long capacity) {
        checkUsable();
        Objects.requireNonNull(pointer, "pointer");
        if (documentBridge == null) {
            throw new IllegalStateException("no document kept: call parseDocument first");
        }
        int error = fieldOnce(pointer, type, capacity);
        while (error == ErrorCode.OUTPUT_TOO_SMALL.ordinal() && type == ColumnType.STRING) {
            field = Arena.ofAuto().allocate(field.byteSize() * 4); // a long string (no longer than its document)
            error = fieldOnce(pointer, type, field.byteSize());
        }
        return result(error);
    }

    private int fieldOnce(JsonPointer pointer, ColumnType type, long capacity) {
        if (documentBridge == Bridge.JNI_DIRECT) {
            return JniBridge.documentField0(handle.address, pointer.utf8.address(), pointer.utf8.byteSize(),
                    type.nativeValue, field.address(), capacity, valueAddress);
        }
        try {
            MemorySegment r = (MemorySegment) FfmBridge.DOCUMENT_FIELD.invokeExact(slotAllocator, parserSegment,
                    pointer.utf8, pointer.utf8.byteSize(), type.nativeValue, field, capacity);
            return r.get(JAVA_INT, FfmBridge.RESULT_ERROR);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---------------------------------------------------------------------------------------
    // The binding tape: a whole document in two arrays, one crossing (the data binding's read).

    /**
     * Parses one document (fully validated) into a binding tape (core/include/simdbridge/binding_tape.h):
     * two words per value and per key in {@code words}, the unescaped strings in {@code strings},
     * written in place through one critical FFM downcall. The arrays' last 16 elements are never
     * written (slack for 8-byte reads). The input is copied into the parser's padded memory first,
     * whatever slack follows it, and read from there: a thread writing the bytes meanwhile gives a
     * wrong result or an exception, never corrupted memory (see the class's rule on bytes read in
     * place, which the data binding does not ask its callers to keep). The copy is small beside
     * the parse. With {@code stringsInInput}, a string value with no escape in an all-ASCII input
     * is not copied into {@code strings}: its entry gives its offset in {@code json} (from
     * {@code offset}), where the caller reads it.
     *
     * @return true, with {@link #bindingTapeWords()} and {@link #bindingTapeStrings()} set; false where an array
     *     is too small: they then give the sizes needed (plus the 16 of slack, grow and call again)
     * @throws JsonException for invalid JSON, with its byte offset
     */
    boolean bindingTape(byte[] json, int offset, int length, long[] words, byte[] strings, boolean stringsInInput) {
        checkUsable();
        documentBridge = null;
        Objects.requireNonNull(json, "json");
        Objects.checkFromIndexSize(offset, length, json.length);
        // Heap segments made per call: the critical downcall takes only their base and offset,
        // and the JIT allocates none of them (no cache: a caller's every document is a new array).
        MemorySegment data = MemorySegment.ofArray(json).asSlice(offset);
        try {
            int error = (int) FfmBridge.BINDING_TAPE.invokeExact(parserSegment, data, (long) length, (long) length, // copied
                    MemorySegment.ofArray(words), tapeCapacity(words.length), MemorySegment.ofArray(strings),
                    tapeCapacity(strings.length), stringsInInput ? FfmBridge.BINDING_TAPE_STRINGS_IN_INPUT : 0, status);
            return tapeResult(error);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The same over a direct buffer, from its position to its limit (copied natively, as above). */
    boolean bindingTape(ByteBuffer json, long[] words, byte[] strings) {
        checkUsable();
        documentBridge = null;
        Objects.requireNonNull(json, "json");
        if (!json.isDirect()) {
            throw new IllegalArgumentException("bindingTape(ByteBuffer) reads a direct buffer; pass a heap array to bindingTape(byte[], ...)");
        }
        MemorySegment data = DirectMemory.live(json);
        try {
            int error = DirectMemory.safeByAddress(data)
                    ? (int) FfmBridge.BINDING_TAPE_AT.invokeExact(parserSegment, addressOf(json), (long) json.remaining(),
                            (long) json.remaining(), MemorySegment.ofArray(words), tapeCapacity(words.length), // copied
                            MemorySegment.ofArray(strings), tapeCapacity(strings.length), 0, status)
                    : (int) FfmBridge.BINDING_TAPE.invokeExact(parserSegment, data, (long) json.remaining(), // held for the call
                            (long) json.remaining(), MemorySegment.ofArray(words), tapeCapacity(words.length),
                            MemorySegment.ofArray(strings), tapeCapacity(strings.length), 0, status);
            Reference.reachabilityFence(json);
            return tapeResult(error);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@link #bindingTape(byte[], int, int, long[], byte[], boolean)} following a binding plan
     * (core/include/simdbridge/binding_plan.h, made by {@link #newBindingPlan}): the objects that
     * match it come without their keys.
     *
     * @return -1 where an array is too small (as there: grow and call again); 1 where the tape
     *     follows the plan, 0 where the document did not match it (the tape without a plan)
     * @throws JsonException for invalid JSON, with its byte offset
     */
    int bindingTapePlanned(MemorySegment plan, byte[] json, int offset, int length, long[] words, byte[] strings,
            boolean stringsInInput) {
        checkUsable();
        documentBridge = null;
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(json, "json");
        Objects.checkFromIndexSize(offset, length, json.length);
        MemorySegment data = MemorySegment.ofArray(json).asSlice(offset);
        try {
            int error = (int) FfmBridge.BINDING_TAPE_PLANNED.invokeExact(parserSegment, plan, data, (long) length, (long) length, // copied
                    MemorySegment.ofArray(words), tapeCapacity(words.length), MemorySegment.ofArray(strings),
                    tapeCapacity(strings.length), stringsInInput ? FfmBridge.BINDING_TAPE_STRINGS_IN_INPUT : 0, status);
            return tapeResult(error) ? (int) status.getAtIndex(JAVA_LONG, FfmBridge.BINDING_TAPE_STATUS_PLANNED) : -1;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The same over a direct buffer, from its position to its limit (copied natively, as bindingTape(ByteBuffer...)). */
    int bindingTapePlanned(MemorySegment plan, ByteBuffer json, long[] words, byte[] strings) {
        checkUsable();
        documentBridge = null;
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(json, "json");
        if (!json.isDirect()) {
            throw new IllegalArgumentException("bindingTapePlanned(ByteBuffer) reads a direct buffer; pass a heap array");
        }
        MemorySegment data = DirectMemory.live(json);
        try {
            int error = DirectMemory.safeByAddress(data)
                    ? (int) FfmBridge.BINDING_TAPE_PLANNED_AT.invokeExact(parserSegment, plan, addressOf(json), (long) json.remaining(),
                            (long) json.remaining(), MemorySegment.ofArray(words), tapeCapacity(words.length), // copied
                            MemorySegment.ofArray(strings), tapeCapacity(strings.length), 0, status)
                    : (int) FfmBridge.BINDING_TAPE_PLANNED.invokeExact(parserSegment, plan, data, (long) json.remaining(),
                            (long) json.remaining(), MemorySegment.ofArray(words), tapeCapacity(words.length),
                            MemorySegment.ofArray(strings), tapeCapacity(strings.length), 0, status);
            Reference.reachabilityFence(json);
            return tapeResult(error) ? (int) status.getAtIndex(JAVA_LONG, FfmBridge.BINDING_TAPE_STATUS_PLANNED) : -1;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * A binding plan in native memory from its serialized form (binding_plan.h), to be given back
     * with {@link #freeBindingPlan} once no read uses it.
     *
     * @throws IllegalArgumentException where the form is malformed
     */
    static MemorySegment newBindingPlan(byte[] spec) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment copy = a.allocate(Math.max(1, spec.length));
            MemorySegment.copy(spec, 0, copy, JAVA_BYTE, 0, spec.length);
            MemorySegment plan = (MemorySegment) FfmBridge.BINDING_PLAN_NEW.invokeExact(copy, (long) spec.length);
            if (plan.address() == 0) {
                throw new IllegalArgumentException("simdbridge: malformed binding plan");
            }
            return plan;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Frees a plan of {@link #newBindingPlan}. */
    static void freeBindingPlan(MemorySegment plan) {
        try {
            FfmBridge.BINDING_PLAN_FREE.invokeExact(plan);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Words written by the last {@link #bindingTape} (or needed, where it returned false). */
    int bindingTapeWords() {
        return (int) Math.min(status.getAtIndex(JAVA_LONG, FfmBridge.BINDING_TAPE_STATUS_WORDS), Integer.MAX_VALUE);
    }

    /** String bytes written by the last {@link #bindingTape} (or needed). */
    int bindingTapeStrings() {
        return (int) Math.min(status.getAtIndex(JAVA_LONG, FfmBridge.BINDING_TAPE_STATUS_STRINGS), Integer.MAX_VALUE);
    }

    private static long tapeCapacity(int length) {
        return Math.max(0, length - 16);
    }

    private boolean tapeResult(int error) {
        if (error == 0) {
            return true;
        }
        if (error == ErrorCode.OUTPUT_TOO_SMALL.ordinal()) {
            return false;
        }
        throw JsonException.of(error, status.getAtIndex(JAVA_LONG, FfmBridge.BINDING_TAPE_STATUS_OFFSET));
    }

    // ---------------------------------------------------------------------------------------

    /** Frees the native memory now. Idempotent; later calls throw IllegalStateException. */
    @Override
    public void close() {
        checkOwner();
        cleanable.clean();
    }

    /**
     * Gives back the native memory the parser's buffers grew to (they grow to the largest input
     * seen, about 5 times its size allocated, about twice touched, and stay; MsgPack's
     * conversions keep their input and output, up to 64 MB each): the parser is then as small as
     * a new one, and the next call grows what it needs again. For a parser that a long-lived thread keeps after a
     * large document. A kept document ({@link #parseDocument}) is dropped.
     */
    public void trim() {
        checkUsable();
        documentBridge = null;
        TRIMS.incrementAndGet();
        handle.kept.free();
        try {
            FfmBridge.TRIM.invokeExact(parserSegment);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** One empty crossing through JNI, to price it. */
    static void noopJni() {
        JniBridge.noop0();
    }

    /** One empty FFM downcall, plain or critical, to price it. */
    static void noopFfm(boolean critical) {
        try {
            if (critical) {
                FfmBridge.NOOP_CRITICAL.invokeExact();
            } else {
                FfmBridge.NOOP.invokeExact();
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The simdbridge version, the simdjson version, and the simdjson kernel chosen at run time. */
    public static String version() {
        return JniBridge.version0(0);
    }

    public static String simdjsonVersion() {
        return JniBridge.version0(1);
    }

    public static String simdImplementation() {
        return JniBridge.version0(2);
    }

    // ---------------------------------------------------------------------------------------

    private long read(int kind, byte[] json, int offset, int length, Bridge bridge) {
        checkUsable();
        documentBridge = null;
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(bridge, "bridge");
        Objects.checkFromIndexSize(offset, length, json.length);
        if (bridge.direct()) {
            throw new IllegalArgumentException(bridge + " reads a direct ByteBuffer, not a byte[]");
        }
        // The native side may read up to the array's end: in place when the slack is there.
        int capacity = json.length - offset;
        int error = switch (bridge) {
            case JNI_COPY -> JniBridge.readArrayCopy0(handle.address, kind, json, offset, length, capacity, valueAddress);
            case JNI_CRITICAL -> JniBridge.readArrayCritical0(handle.address, kind, json, offset, length, capacity, valueAddress);
            default -> invokeRead(FfmBridge.read(kind, true), MemorySegment.ofArray(json).asSlice(offset), length, capacity);
        };
        return result(error);
    }

    /** The address of a direct buffer's position (the segment does not escape: no allocation). */
    private static long addressOf(ByteBuffer direct) {
        return MemorySegment.ofBuffer(direct).address();
    }

    private long read(int kind, ByteBuffer json, Bridge bridge) {
        checkUsable();
        Objects.requireNonNull(bridge, "bridge");
        if (!bridge.direct()) {
            Objects.requireNonNull(json, "json");
            if (!json.hasArray()) {
                throw new IllegalArgumentException(bridge + " reads a heap buffer with an accessible array; "
                        + (json.isDirect() ? "use JNI_DIRECT or FFM_DIRECT for a direct buffer" : "this one is read-only"));
            }
            return read(kind, json.array(), json.arrayOffset() + json.position(), json.remaining(), bridge);
        }
        int position = checkDirect(json, bridge);
        MemorySegment data = DirectMemory.live(json);
        documentBridge = null;
        int length = json.remaining();
        int capacity = json.capacity() - position;
        int error;
        if (!DirectMemory.safeByAddress(data)) {
            // A shared arena's buffer: through FFM whatever the bridge, the only crossing that
            // holds the arena open for the call (JNI cannot).
            error = invokeRead(FfmBridge.readSegment(kind), data, length, capacity);
        } else if (bridge == Bridge.JNI_DIRECT) {
            error = JniBridge.readDirect0(handle.address, kind, json, position, length, capacity, valueAddress);
        } else {
            error = invokeReadAt(FfmBridge.read(kind, false), addressOf(json), length, capacity);
            Reference.reachabilityFence(json); // its memory was read through a raw address
        }
        return result(error);
    }

    /** Checks a direct buffer and its padding; returns its position. */
    private static int checkDirect(ByteBuffer buffer, Bridge bridge) {
        Objects.requireNonNull(buffer, "buffer");
        Objects.requireNonNull(bridge, "bridge");
        if (!bridge.direct()) {
            throw new IllegalArgumentException(bridge + " reads a byte[]; a ByteBuffer batch needs JNI_DIRECT or FFM_DIRECT");
        }
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException(bridge + " reads a direct buffer; this one is on the heap "
                    + "(use JNI_COPY, JNI_CRITICAL or FFM_HEAP, or PaddedBuffers.copyOf)");
        }
        if (buffer.capacity() - buffer.limit() < PaddedBuffers.PADDING) {
            throw new IllegalArgumentException("a direct buffer needs " + PaddedBuffers.PADDING
                    + " bytes of padding past its limit (" + buffer.limit() + "), its capacity is "
                    + buffer.capacity() + ": allocate it with PaddedBuffers.allocateDirect");
        }
        return buffer.position();
    }

    private int invokeReadAt(MethodHandle handleToCall, long data, int length, int capacity) {
        try {
            MemorySegment r = (MemorySegment) handleToCall.invokeExact(slotAllocator, parserSegment, data,
                    (long) length, (long) capacity);
            return r.get(JAVA_INT, FfmBridge.RESULT_ERROR);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private int invokeRead(MethodHandle handleToCall, MemorySegment data, int length, int capacity) {
        try {
            MemorySegment r = (MemorySegment) handleToCall.invokeExact(slotAllocator, parserSegment, data,
                    (long) length, (long) capacity);
            return r.get(JAVA_INT, FfmBridge.RESULT_ERROR);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private long result(int error) {
        long value = slot.get(JAVA_LONG, FfmBridge.RESULT_VALUE);
        if (error != 0) {
            throw JsonException.of(error, value);
        }
        return value;
    }

    /** The native memory MsgPack's conversions keep in this parser. */
    KeptMemory keptMemory() {
        checkUsable();
        return handle.kept;
    }

    /** The native parser, for a call that reads under its limits (the caller's thread owns it). */
    MemorySegment nativeSegment() {
        checkUsable();
        return parserSegment;
    }

    private void checkUsable() {
        checkOwner();
        if (handle.address == 0) {
            throw new IllegalStateException("this NativeParser is closed");
        }
    }

    private void checkOwner() {
        Thread o = owner;
        if (Thread.currentThread() != o) {
            throw new IllegalStateException(o == null
                    ? "this NativeParser was released to the pool; acquire() another"
                    : "a NativeParser belongs to the thread that made or acquired it (" + o.getName()
                            + "); use NativeParser.forCurrentThread() or NativeParser.acquire() in each thread");
        }
    }

    /** A Throwable from a MethodHandle call as an unchecked exception (an Error thrown as is). */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
