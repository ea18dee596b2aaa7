// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.file.AccessMode;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * NDJSON to Apache Arrow and back, for Arrow Java: the core's columnar reader and writer (see
 * simdbridge/arrow.h), crossing into native code once per call through the Arrow C Data
 * Interface. The record batches are made in native memory and imported without a copy.
 *
 * <pre>{@code
 * try (BufferAllocator allocator = new RootAllocator();
 *      ArrowReader reader = ArrowNdjson.read(allocator, Path.of("events.ndjson"),
 *              ArrowNdjson.ReadOptions.DEFAULT.withSchema(schema).withThreads(4))) {
 *     while (reader.loadNextBatch()) {
 *         VectorSchemaRoot batch = reader.getVectorSchemaRoot();
 *         ...
 *     }
 * }
 * byte[] ndjson = ArrowNdjson.write(root, ArrowNdjson.WriteOptions.DEFAULT);
 * }</pre>
 *
 * Needs arrow-vector and arrow-c-data on the class path (optional dependencies of this library)
 * and, as Arrow Java does, {@code --add-opens=java.base/java.nio=ALL-UNNAMED}.
 */
public final class ArrowNdjson {
    private ArrowNdjson() {}

    /** What a bad record does to a read: a record that is not valid JSON, not an object, too long,
     * or holds a value of another type than its field's. The modes of Spark's JSON source. */
    public enum BadRecords {
        /** The read stops with the record's error (FAILFAST). */
        FAIL,
        /**
         * The record is a row (PERMISSIVE): every field null where it is not valid JSON or not an
         * object, else only the fields whose values could not be read (the innermost struct field
         * holding the bad value). The corrupt-record field, if named, takes its line.
         */
        KEEP,
        /** The record is left out (DROPMALFORMED). */
        DROP
    }

    /**
     * How NDJSON is read.
     *
     * @param schema the record's fields (null: inferred from the input, as pyarrow infers)
     * @param blockSize bytes of input per record batch, cut at the next line end
     * @param threads threads reading blocks at once
     * @param errorOnUnknownFields a key the schema lacks is an error (else skipped)
     * @param validateSkipped skipped values are checked to be valid JSON (else their brackets only)
     * @param limits what each record may hold (depth, number, string and record length)
     * @param badRecords what a bad record does (see {@link BadRecords})
     * @param corruptRecordField with KEEP, a top-level string field of the schema that takes each bad
     *     record's line (null for the others; no key is read into it), or null; inferring, the bad
     *     records add nothing to the schema but this field (last, where there are any)
     * @param anyValueAsString a string field takes a value of any type, a non-string as its JSON text
     * @param sparkTemporals numbers in a timestamp field count seconds, a date field takes strings only
     *     (as Spark's JSON source reads them)
     */
    public record ReadOptions(Schema schema, long blockSize, int threads, boolean errorOnUnknownFields,
                              boolean validateSkipped, JsonLimits limits, BadRecords badRecords,
                              String corruptRecordField, boolean anyValueAsString, boolean sparkTemporals) {
        /** Inferred schema, 1 MiB blocks, one thread, unknown keys skipped and validated, bad records fail. */
        public static final ReadOptions DEFAULT =
                new ReadOptions(null, 1 << 20, 1, false, true, JsonLimits.DEFAULT, BadRecords.FAIL, null, false, false);

        public ReadOptions {
            if (blockSize < 1) {
                throw new IllegalArgumentException("blockSize must be at least 1");
            }
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1");
            }
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(badRecords, "badRecords");
        }

        public ReadOptions withSchema(Schema s) {
            return new ReadOptions(s, blockSize, threads, errorOnUnknownFields, validateSkipped, limits, badRecords,
                    corruptRecordField, anyValueAsString, sparkTemporals);
        }

        public ReadOptions withBlockSize(long b) {
            return new ReadOptions(schema, b, threads, errorOnUnknownFields, validateSkipped, limits, badRecords,
                    corruptRecordField, anyValueAsString, sparkTemporals);
        }

        public ReadOptions withThreads(int t) {
            return new ReadOptions(schema, blockSize, t, errorOnUnknownFields, validateSkipped, limits, badRecords,
                    corruptRecordField, anyValueAsString, sparkTemporals);
        }

        public ReadOptions withErrorOnUnknownFields(boolean e) {
            return new ReadOptions(schema, blockSize, threads, e, validateSkipped, limits, badRecords,
                    corruptRecordField, anyValueAsString, sparkTemporals);
        }

        public ReadOptions withValidateSkipped(boolean v) {
            return new ReadOptions(schema, blockSize, threads, errorOnUnknownFields, v, limits, badRecords,
                    corruptRecordField, anyValueAsString, sparkTemporals);
        }

        public ReadOptions withLimits(JsonLimits l) {
            return new ReadOptions(schema, blockSize, threads, errorOnUnknownFields, validateSkipped, l, badRecords,
                    corruptRecordField, anyValueAsString, sparkTemporals);
        }

        public ReadOptions withBadRecords(BadRecords b) {
            return new ReadOptions(schema, blockSize, threads, errorOnUnknownFields, validateSkipped, limits, b,
                    corruptRecordField, anyValueAsString, sparkTemporals);
        }

        public ReadOptions withCorruptRecordField(String name) {
            return new ReadOptions(schema, blockSize, threads, errorOnUnknownFields, validateSkipped, limits, badRecords,
                    name, anyValueAsString, sparkTemporals);
        }

        public ReadOptions withAnyValueAsString(boolean a) {
            return new ReadOptions(schema, blockSize, threads, errorOnUnknownFields, validateSkipped, limits, badRecords,
                    corruptRecordField, a, sparkTemporals);
        }

        public ReadOptions withSparkTemporals(boolean t) {
            return new ReadOptions(schema, blockSize, threads, errorOnUnknownFields, validateSkipped, limits, badRecords,
                    corruptRecordField, anyValueAsString, t);
        }
    }

    /**
     * How record batches are written.
     *
     * @param writeNulls a null field is written as null (else left out of its object)
     * @param threads threads writing row ranges at once
     */
    public record WriteOptions(boolean writeNulls, int threads) {
        public static final WriteOptions DEFAULT = new WriteOptions(true, 1);

        public WriteOptions {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1");
            }
        }

        public WriteOptions withWriteNulls(boolean w) {
            return new WriteOptions(w, threads);
        }

        public WriteOptions withThreads(int t) {
            return new WriteOptions(writeNulls, t);
        }
    }

    // ---- reading ----------------------------------------------------------------------------

    /** NDJSON bytes (copied once into native memory) as record batches, owned by the reader. */
    public static ArrowReader read(BufferAllocator allocator, byte[] ndjson, ReadOptions options) {
        try (PreparedRead prepared = prepare(allocator, options)) {
            return prepared.read(ndjson);
        }
    }

    /**
     * The bytes between a buffer's position and limit: a direct buffer read in place, a heap one
     * copied. The position does not move.
     */
    public static ArrowReader read(BufferAllocator allocator, ByteBuffer ndjson, ReadOptions options) {
        Objects.requireNonNull(ndjson, "ndjson");
        try (PreparedRead prepared = prepare(allocator, options)) {
            if (!ndjson.isDirect()) {
                byte[] bytes = new byte[ndjson.remaining()];
                ndjson.duplicate().get(bytes);
                return prepared.read(bytes);
            }
            MemorySegment whole = MemorySegment.ofBuffer(ndjson.duplicate().clear());
            MemorySegment from = whole.asSlice(ndjson.position());
            return prepared.read(from, ndjson.remaining(), from.byteSize());
        }
    }

    /** The bytes of a native segment, read in place (the segment's arena held for the call). */
    public static ArrowReader read(BufferAllocator allocator, MemorySegment ndjson, ReadOptions options) {
        try (PreparedRead prepared = prepare(allocator, options)) {
            return prepared.read(ndjson);
        }
    }

    /**
     * A file, read a block at a time by the core into buffers each of its threads reuses (never
     * into the heap, never whole).
     */
    public static ArrowReader read(BufferAllocator allocator, Path file, ReadOptions options) throws IOException {
        try (PreparedRead prepared = prepare(allocator, options)) {
            return prepared.read(file);
        }
    }

    /** The bytes in native memory with the core's padding after them (read in place). */
    private static MemorySegment padded(Arena arena, byte[] bytes) {
        MemorySegment copy = arena.allocate(bytes.length + 64L, 64);
        MemorySegment.copy(bytes, 0, copy, JAVA_BYTE, 0, bytes.length);
        return copy;
    }

    /** The schema {@link #read} would infer from these bytes. */
    public static Schema inferSchema(BufferAllocator allocator, byte[] ndjson, ReadOptions options) {
        Objects.requireNonNull(allocator, "allocator");
        try (Arena arena = Arena.ofConfined();
             NativeParser limits = new NativeParser(options.limits());
             ArrowSchema out = ArrowSchema.allocateNew(allocator)) {
            MemorySegment copy = padded(arena, ndjson);
            MemorySegment error = arena.allocate(FfmBridge.ARROW_ERROR);
            int code = (int) FfmBridge.ARROW_INFER_SCHEMA.invokeExact(limits.nativeSegment(), copy,
                    (long) ndjson.length, copy.byteSize(), options.blockSize(), options.threads(), out.memoryAddress(),
                    error);
            check(code, error);
            return Data.importSchema(allocator, out, null);
        } catch (Throwable t) {
            throw NativeParser.rethrow(t);
        }
    }

    /** The native read of bytes in memory. */
    private static NativeRead inMemory(MemorySegment data, long length, long capacity, ReadOptions options) {
        // The data as a segment: the linker holds its arena (a shared one too) for the call.
        return (limits, schema, flags, corrupt, stream, error, arena) ->
                (int) FfmBridge.NDJSON_TO_ARROW.invokeExact(limits, data, length, capacity, schema,
                        options.blockSize(), options.threads(), flags, corrupt, stream, error);
    }

    /**
     * The read of {@link #read(BufferAllocator, MemorySegment, ReadOptions)} left in the C Data
     * Interface: its record batches in {@code stream}, which the caller allocates and releases
     * ({@code stream.release()}), for a consumer that reads the arrays' buffers itself rather than
     * through Arrow's Java vectors (the Spark source). The allocator serves the schema's export.
     * For many reads with the same options, {@link #prepare} exports the schema once.
     */
    public static void readInto(BufferAllocator allocator, MemorySegment ndjson, ReadOptions options,
                                ArrowArrayStream stream) {
        try (PreparedRead prepared = prepare(allocator, options)) {
            prepared.readInto(ndjson, stream);
        }
    }

    /**
     * Read options made ready for many reads (chunks, messages, files): the schema exported to C
     * once, not once a read (exporting a schema of hundreds of fields costs about as much as
     * reading half a megabyte). Reads may run on several threads at once; closing it while one
     * runs is an IllegalStateException.
     *
     * <pre>{@code
     * try (ArrowNdjson.PreparedRead prepared = ArrowNdjson.prepare(allocator, options)) {
     *     for (MemorySegment chunk : chunks) {
     *         try (ArrowReader reader = prepared.read(chunk)) { ... }
     *     }
     * }
     * }</pre>
     */
    public static PreparedRead prepare(BufferAllocator allocator, ReadOptions options) {
        return new PreparedRead(Objects.requireNonNull(allocator, "allocator"),
                Objects.requireNonNull(options, "options"));
    }

    /** Read options with their schema exported: see {@link #prepare}. */
    public static final class PreparedRead implements AutoCloseable {
        private final BufferAllocator allocator;
        private final ReadOptions options;
        private final ArrowSchema schema; // (null: inferred by each read)
        private final int flags;
        // Reads running (-1: closed). The exported schema is freed only when none is.
        private final AtomicInteger reads = new AtomicInteger();

        private PreparedRead(BufferAllocator allocator, ReadOptions options) {
            this.allocator = allocator;
            this.options = options;
            this.flags = (options.errorOnUnknownFields() ? 1 : 0) | (options.validateSkipped() ? 0 : 2)
                    | switch (options.badRecords()) {
                        case FAIL -> 0;
                        case KEEP -> 4;
                        case DROP -> 8;
                    } | (options.anyValueAsString() ? 16 : 0) | (options.sparkTemporals() ? 32 : 0);
            ArrowSchema s = null;
            if (options.schema() != null) {
                s = ArrowSchema.allocateNew(allocator);
                try {
                    Data.exportSchema(allocator, options.schema(), null, s);
                } catch (RuntimeException | Error e) {
                    s.close();
                    throw e;
                }
            }
            this.schema = s;
        }

        /** The options these reads use. */
        public ReadOptions options() {
            return options;
        }

        /** As {@link ArrowNdjson#read(BufferAllocator, MemorySegment, ReadOptions)}, with these options. */
        public ArrowReader read(MemorySegment ndjson) {
            Objects.requireNonNull(ndjson, "ndjson");
            if (!ndjson.isNative()) {
                return read(ndjson.toArray(JAVA_BYTE));
            }
            return read(ndjson, ndjson.byteSize(), ndjson.byteSize());
        }

        /** As {@link ArrowNdjson#read(BufferAllocator, byte[], ReadOptions)}, with these options. */
        public ArrowReader read(byte[] ndjson) {
            Objects.requireNonNull(ndjson, "ndjson");
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment copy = padded(arena, ndjson);
                return read(copy, ndjson.length, copy.byteSize());
            }
        }

        /** As {@link ArrowNdjson#read(BufferAllocator, Path, ReadOptions)}, with these options. */
        public ArrowReader read(Path file) throws IOException {
            // A missing or unreadable file is the usual IOException (checked without opening it,
            // which would end a named pipe's writer's stream).
            file.getFileSystem().provider().checkAccess(file, AccessMode.READ);
            return importRead(this, (limits, schema, flags, corrupt, stream, error, arena) ->
                    (int) FfmBridge.NDJSON_FILE_TO_ARROW.invokeExact(limits, arena.allocateFrom(file.toString()),
                            schema, options.blockSize(), options.threads(), flags, corrupt, stream, error));
        }

        /** The read of length bytes of native data, capacity of which may be read past them. */
        private ArrowReader read(MemorySegment data, long length, long capacity) {
            try {
                return importRead(this, inMemory(data, length, capacity, options));
            } catch (IOException e) {
                throw new UncheckedIOException(e); // (bytes in memory are never a failed read)
            }
        }

        /** As {@link ArrowNdjson#readInto}, with these options. */
        public void readInto(MemorySegment ndjson, ArrowArrayStream stream) {
            Objects.requireNonNull(ndjson, "ndjson");
            Objects.requireNonNull(stream, "stream");
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment data = ndjson.isNative() ? ndjson : padded(arena, ndjson.toArray(JAVA_BYTE));
                nativeRead(this, inMemory(data, ndjson.byteSize(), data.byteSize(), options), stream);
            } catch (IOException e) {
                throw new UncheckedIOException(e); // (bytes in memory are never a failed read)
            }
        }

        /** Releases the exported schema; an IllegalStateException while a read runs. Idempotent. */
        @Override
        public void close() {
            int r = reads.get();
            if (r < 0) {
                return;
            }
            if (r > 0 || !reads.compareAndSet(0, -1)) {
                throw new IllegalStateException("a read with these options is running");
            }
            if (schema != null) {
                schema.release();
                schema.close();
            }
        }

        private void enter() {
            for (int r = reads.get(); ; r = reads.get()) {
                if (r < 0) {
                    throw new IllegalStateException("this PreparedRead is closed");
                }
                if (reads.compareAndSet(r, r + 1)) {
                    return;
                }
            }
        }
    }

    /**
     * A native read: (limits parser, schema address or 0, flags, corrupt-record field or NULL, stream
     * address, error, arena) -> code.
     */
    private interface NativeRead {
        int call(MemorySegment limits, long schema, int flags, MemorySegment corrupt, long stream, MemorySegment error,
                 Arena arena) throws Throwable;
    }

    /** Runs a native read into a new stream and imports it: the one crossing of every read. */
    private static ArrowReader importRead(PreparedRead prepared, NativeRead read) throws IOException {
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(prepared.allocator);
        try {
            nativeRead(prepared, read, stream);
            ArrowReader reader = Data.importArrayStream(prepared.allocator, stream);
            stream.close(); // (the struct only: its contents moved into the reader)
            stream = null;
            return reader;
        } finally {
            if (stream != null) {
                stream.close();
            }
        }
    }

    /** Runs a native read into stream. */
    private static void nativeRead(PreparedRead prepared, NativeRead read, ArrowArrayStream stream)
            throws IOException {
        prepared.enter();
        ReadOptions options = prepared.options;
        try (Arena arena = Arena.ofConfined(); NativeParser limits = new NativeParser(options.limits())) {
            MemorySegment corrupt = options.corruptRecordField() == null
                    ? MemorySegment.NULL : arena.allocateFrom(options.corruptRecordField());
            MemorySegment error = arena.allocate(FfmBridge.ARROW_ERROR);
            long schema = prepared.schema == null ? 0 : prepared.schema.memoryAddress();
            int code = read.call(limits.nativeSegment(), schema, prepared.flags, corrupt, stream.memoryAddress(), error,
                    arena);
            if (code == ErrorCode.READ_FAILED.ordinal()) {
                throw new IOException(error.getString(16 + 256));
            }
            check(code, error);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw NativeParser.rethrow(t);
        } finally {
            prepared.reads.decrementAndGet();
        }
    }

    // ---- writing ----------------------------------------------------------------------------

    /** Every row of the root as one JSON object per line, into a byte array. */
    public static byte[] write(VectorSchemaRoot root, WriteOptions options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(root, out, options);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // (a ByteArrayOutputStream throws none)
        }
        return out.toByteArray();
    }

    /**
     * Every row of the root as one JSON object per line (numbers and strings as dumpb writes
     * them), into `out` a few hundred KB at a time.
     */
    public static void write(VectorSchemaRoot root, OutputStream out, WriteOptions options) throws IOException {
        Objects.requireNonNull(root, "root");
        BufferAllocator allocator = root.getFieldVectors().isEmpty()
                ? null : root.getFieldVectors().get(0).getAllocator();
        if (allocator == null) {
            try (BufferAllocator own = new org.apache.arrow.memory.RootAllocator()) {
                writeRoot(own, root, out, options);
            }
            return;
        }
        writeRoot(allocator, root, out, options);
    }

    /**
     * Every batch of the reader as NDJSON into `out`. The reader is exported to native code and
     * closed once written.
     */
    public static void write(BufferAllocator allocator, ArrowReader reader, OutputStream out, WriteOptions options)
            throws IOException {
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, reader, stream);
            try {
                writeThrough(out, options, (sink, error) -> (int) FfmBridge.ARROW_TO_NDJSON.invokeExact(
                        stream.memoryAddress(), options.writeNulls() ? 1 : 0, options.threads(), sink,
                        MemorySegment.NULL, error));
            } finally {
                stream.release();
            }
        }
    }

    private static void writeRoot(BufferAllocator allocator, VectorSchemaRoot root, OutputStream out,
                                  WriteOptions options) throws IOException {
        try (ArrowArray array = ArrowArray.allocateNew(allocator); ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
            Data.exportVectorSchemaRoot(allocator, root, null, array, schema);
            try {
                writeThrough(out, options, (sink, error) -> (int) FfmBridge.ARROW_BATCH_TO_NDJSON.invokeExact(
                        schema.memoryAddress(), array.memoryAddress(), options.writeNulls() ? 1 : 0, options.threads(),
                        sink, MemorySegment.NULL, error));
            } finally {
                array.release();
                schema.release();
            }
        }
    }

    /** A native write: (sink stub, error) -> code. */
    private interface NativeWrite {
        int call(MemorySegment sink, MemorySegment error) throws Throwable;
    }

    /** Where the sink of the native writer on this thread puts its bytes (the writer calls it on this thread). */
    private static final class Destination {
        final OutputStream out;
        byte[] chunk = new byte[1 << 18];
        Throwable failure;

        Destination(OutputStream out) {
            this.out = out;
        }
    }

    private static final ThreadLocal<Destination> DESTINATION = new ThreadLocal<>();
    private static final MemorySegment SINK;

    static {
        try {
            MethodHandle target = MethodHandles.lookup().findStatic(ArrowNdjson.class, "sink",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, long.class));
            SINK = Linker.nativeLinker().upcallStub(target, FfmBridge.NDJSON_SINK, Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The upcall: copies a piece of output into the stream. Never throws (that would end the JVM). */
    private static int sink(MemorySegment context, MemorySegment data, long length) {
        Destination d = DESTINATION.get();
        try {
            MemorySegment bytes = data.reinterpret(length);
            for (long at = 0; at < length; ) {
                int n = (int) Math.min(d.chunk.length, length - at);
                MemorySegment.copy(bytes, JAVA_BYTE, at, d.chunk, 0, n);
                d.out.write(d.chunk, 0, n);
                at += n;
            }
            return 1;
        } catch (Throwable t) {
            d.failure = t;
            return 0;
        }
    }

    private static void writeThrough(OutputStream out, WriteOptions options, NativeWrite write) throws IOException {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(options, "options");
        Destination previous = DESTINATION.get();
        Destination d = new Destination(out);
        DESTINATION.set(d);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment error = arena.allocate(FfmBridge.ARROW_ERROR);
            int code = write.call(SINK, error);
            if (d.failure != null) {
                if (d.failure instanceof IOException io) {
                    throw io;
                }
                throw NativeParser.rethrow(d.failure);
            }
            check(code, error);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw NativeParser.rethrow(t);
        } finally {
            DESTINATION.set(previous);
        }
    }

    // ---- errors -----------------------------------------------------------------------------

    private static void check(int code, MemorySegment error) {
        if (code == 0) {
            return;
        }
        ErrorCode c = ErrorCode.of(code);
        String message = error.getString(16 + 256);
        switch (c) {
            case OUT_OF_MEMORY -> throw new OutOfMemoryError("simdbridge: " + message);
            case INVALID_ARGUMENT -> throw new IllegalArgumentException(message);
            default -> throw new JsonException(c, error.get(JAVA_LONG, 0), error.get(JAVA_LONG, 8),
                    error.getString(16), message);
        }
    }
}
