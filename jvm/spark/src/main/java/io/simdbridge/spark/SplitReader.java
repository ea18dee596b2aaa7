// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import io.simdbridge.ArrowNdjson;
import io.simdbridge.JsonException;

/**
 * One task's read of a split: the lines that begin in it (the first one after the first line end
 * at or past its start, the last one the line holding its last byte), read batchBytes at a time
 * into native memory and from there into Arrow batches by the core, one native call a batch.
 * Spark reads the batches' C arrays through BatchColumn, without a copy.
 */
final class SplitReader implements PartitionReader<ColumnarBatch> {
    private static final int PADDING = 64; // readable bytes the core may look at past the input
    // The C Data Interface's calls through its structs' function pointers: a stream's get_next
    // (at 8 of struct ArrowArrayStream), get_last_error (at 16) and release (at 24), an array's
    // release (at 64 of struct ArrowArray).
    private static final long STREAM_SIZE = 40;
    private static final long RELEASE_AT = 64;
    private static final MethodHandle GET_NEXT =
            Linker.nativeLinker().downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GET_LAST_ERROR =
            Linker.nativeLinker().downcallHandle(FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle RELEASE =
            Linker.nativeLinker().downcallHandle(FunctionDescriptor.ofVoid(ADDRESS));
    // records() reads eight bytes at a time and tests them for these in every byte.
    private static final ValueLayout.OfLong LITTLE_ENDIAN_LONG = JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long LOW_BITS = 0x7F7F7F7F7F7F7F7FL;
    private static final long HIGH_BITS = ~LOW_BITS;
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long SPACES = 0x2020202020202020L;
    private static final long TABS = 0x0909090909090909L;
    private static final long RETURNS = 0x0D0D0D0D0D0D0D0DL;

    private final FileSplit split;
    private final StructType schema;
    private final Configuration conf;
    private final ArrowNdjson.ReadOptions read;
    private ArrowNdjson.PreparedRead prepared; // read's schema exported once, for every chunk (at the first)
    private final BufferAllocator allocator = new RootAllocator();
    private final byte[] transfer = new byte[1 << 16];
    private final InputStream in;     // (null where a local file is read through its channel)
    private final FileChannel channel; // a local file, read straight into native memory
    private final long end; // the split's end (the whole file's: never reached)
    private final boolean linesOnly;
    private final long maxLine;

    private Arena arena = Arena.ofShared();
    private MemorySegment buf;
    private long capacity;  // bytes buf takes before its padding
    private long chunkStart; // the file offset of buf's first byte
    private long filled;    // bytes in buf
    private long consumed;  // bytes of buf read into the current batches
    private boolean eof;
    private boolean skipFirst;
    private boolean finished;
    private ArrowArrayStream stream; // the current chunk's batches (null between chunks)
    private MemorySegment streamStruct; // stream's struct ArrowArrayStream
    private final Arena structs = Arena.ofShared();
    private final MemorySegment array = structs.allocate(BatchColumn.ARRAY_SIZE, 8); // the batch handed out
    private boolean holding; // whether array holds a batch to release
    private ColumnarBatch batch;
    private boolean closed;

    SplitReader(FileSplit split, StructType schema, SourceOptions options, Configuration conf) {
        this.split = split;
        this.schema = schema;
        this.conf = conf;
        ArrowNdjson.ReadOptions r = ArrowNdjson.ReadOptions.DEFAULT.withSchema(SparkArrow.schema(schema))
                .withBadRecords(options.mode()).withAnyValueAsString(true).withSparkTemporals(true)
                .withThreads(options.threads())
                .withBlockSize(Math.max(1, options.batchBytes() / options.threads()));
        for (StructField f : schema.fields()) {
            if (f.name().equals(options.corruptColumn())) {
                if (!f.dataType().equals(DataTypes.StringType) || !f.nullable()) {
                    throw new IllegalArgumentException("simdbridge: the corrupt-record column " + f.name()
                            + " must be a nullable string");
                }
                r = r.withCorruptRecordField(f.name());
            }
        }
        this.read = r;
        // No column asked for (count()) in PERMISSIVE mode: like Spark's JSON source, the records
        // are counted and not parsed (every line is a row there, malformed or not).
        this.linesOnly = schema.fields().length == 0 && options.mode() == ArrowNdjson.BadRecords.KEEP;
        this.maxLine = options.maxLineBytes();
        try {
            Path path = new Path(split.path());
            FileSystem fs = path.getFileSystem(conf);
            CompressionCodec codec = split.whole() ? new CompressionCodecFactory(conf).getCodec(path) : null;
            // A split of plain text needs its own bytes and its last line's rest: a small file
            // or split takes a buffer its size, not batchBytes (the buffer grows for a long line).
            long wanted = codec == null ? split.length() + (1 << 16) : Long.MAX_VALUE;
            capacity = Math.min(Math.min(options.batchBytes(), maxLine), wanted);
            buf = arena.allocate(capacity + PADDING, 64);
            if (split.start() > 0) {
                chunkStart = split.start() - 1; // (a line that begins at the start is this split's)
                skipFirst = true;
            }
            end = split.whole() ? Long.MAX_VALUE : split.start() + split.length();
            if (codec == null && fs instanceof LocalFileSystem local) {
                channel = FileChannel.open(local.pathToFile(path).toPath(), StandardOpenOption.READ);
                channel.position(chunkStart);
                in = null;
            } else {
                FSDataInputStream raw = fs.open(path);
                raw.seek(chunkStart);
                in = codec != null ? codec.createInputStream(raw) : raw;
                channel = null;
            }
        } catch (IOException e) {
            close();
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public boolean next() throws IOException {
        for (;;) {
            releaseBatch();
            if (stream != null) {
                if (nextArray()) {
                    holding = true;
                    batch = new ColumnarBatch(BatchColumn.columns(schema, array),
                            Math.toIntExact(array.get(JAVA_LONG, 0)));
                    return true;
                }
                closeStream();
            }
            long n = nextChunk();
            if (n < 0) {
                return false;
            }
            if (linesOnly) { // count(): Spark counts the lines that are not blank, unparsed
                consumed = n;
                int lines = records(n);
                if (lines > 0) {
                    batch = new ColumnarBatch(new ColumnVector[0], lines);
                    return true;
                }
                continue;
            }
            if (prepared == null) {
                prepared = ArrowNdjson.prepare(allocator, read);
            }
            ArrowArrayStream next = ArrowArrayStream.allocateNew(allocator);
            try {
                prepared.readInto(buf.asSlice(0, n), next);
            } catch (JsonException e) {
                next.close(); // (a failed read leaves nothing to release)
                throw malformed(e);
            }
            stream = next;
            streamStruct = MemorySegment.ofAddress(next.memoryAddress()).reinterpret(STREAM_SIZE);
            consumed = n;
        }
    }

    /** The stream's next batch into array: false at its end. */
    private boolean nextArray() throws IOException {
        MemorySegment s = streamStruct;
        int code;
        try {
            code = (int) GET_NEXT.invokeExact(s.get(ADDRESS, 8), s, array);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (code != 0) {
            MemorySegment message;
            try {
                message = (MemorySegment) GET_LAST_ERROR.invokeExact(s.get(ADDRESS, 16), s);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            throw new IOException("simdbridge: reading a batch of " + split.path() + " failed (" + code + "): "
                    + (message.equals(MemorySegment.NULL) ? "" : message.reinterpret(4096).getString(0)));
        }
        return !array.get(ADDRESS, RELEASE_AT).equals(MemorySegment.NULL); // (a released array: the end)
    }

    @Override
    public ColumnarBatch get() {
        return batch;
    }

    /** Frees the batch handed out last: its array's release frees every column's buffers. */
    private void releaseBatch() {
        batch = null;
        if (holding) {
            holding = false;
            try {
                RELEASE.invokeExact(array.get(ADDRESS, RELEASE_AT), array);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
    }

    /** Releases the current chunk's stream (through its own release, at 24). */
    private void closeStream() {
        if (stream != null) {
            try {
                MemorySegment release = streamStruct.get(ADDRESS, 24);
                if (!release.equals(MemorySegment.NULL)) {
                    RELEASE.invokeExact(release, streamStruct);
                }
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            } finally {
                stream.close();
                stream = null;
                streamStruct = null;
            }
        }
    }

    /**
     * Fills buf and says how many of its bytes are whole lines of this split, or -1 where none
     * are left. The bytes past them (a line begun) stay for the next call.
     */
    private long nextChunk() throws IOException {
        if (consumed > 0) { // the lines read last time make room
            MemorySegment.copy(buf, consumed, buf, 0, filled - consumed);
            chunkStart += consumed;
            filled -= consumed;
            consumed = 0;
        }
        while (!finished) {
            while (!eof && filled < capacity) {
                int n;
                if (channel != null) {
                    n = channel.read(buf.asSlice(filled, Math.min(capacity - filled, 1L << 30)).asByteBuffer());
                } else {
                    n = in.read(transfer, 0, (int) Math.min(transfer.length, capacity - filled));
                    if (n > 0) {
                        MemorySegment.copy(transfer, 0, buf, JAVA_BYTE, filled, n);
                    }
                }
                if (n < 0) {
                    eof = true;
                } else {
                    filled += n;
                }
            }
            if (skipFirst) { // up to the first line end at or past the start: the split before's
                long at = indexOf(0, filled);
                if (at < 0) {
                    chunkStart += filled;
                    filled = 0;
                    finished = eof;
                    continue;
                }
                MemorySegment.copy(buf, at + 1, buf, 0, filled - at - 1);
                chunkStart += at + 1;
                filled -= at + 1;
                skipFirst = false;
                finished = chunkStart >= end;
                continue;
            }
            long limit = end - 1 - chunkStart; // where the split's last line holds its last byte
            if (limit < filled) {
                long at = indexOf(Math.max(0, limit), filled);
                if (at >= 0 || eof) {
                    finished = true;
                    return at >= 0 ? at + 1 : filled;
                }
                grow();
                continue;
            }
            if (eof) {
                finished = true;
                return filled;
            }
            long last = lastIndexOf(filled);
            if (last >= 0) {
                return last + 1;
            }
            grow(); // a line longer than the buffer
        }
        return -1;
    }

    /**
     * The lines of buf[0, n) holding more than white space. Eight bytes at a time: a word with no
     * line end only matters while the line has shown nothing but white space; a word with one
     * goes a byte at a time.
     */
    private int records(long n) {
        int lines = 0;
        boolean content = false;
        for (long i = 0; i < n;) {
            if (i + 8 <= n) {
                long word = buf.get(LITTLE_ENDIAN_LONG, i);
                if (zeroBytes(word ^ NEWLINES) == 0) {
                    content = content || (zeroBytes(word ^ SPACES) | zeroBytes(word ^ TABS)
                            | zeroBytes(word ^ RETURNS)) != HIGH_BITS;
                    i += 8;
                    continue;
                }
            }
            for (long stop = Math.min(i + 8, n); i < stop; i++) {
                byte b = buf.get(JAVA_BYTE, i);
                if (b == '\n') {
                    lines += content ? 1 : 0;
                    content = false;
                } else if (b != ' ' && b != '\t' && b != '\r') {
                    content = true;
                }
            }
        }
        return lines + (content ? 1 : 0);
    }

    /** The high bit of each byte of x that is zero, and no other bit. */
    private static long zeroBytes(long x) {
        return ~(((x & LOW_BITS) + LOW_BITS) | x | LOW_BITS);
    }

    private long indexOf(long from, long to) {
        for (long i = from; i < to; i++) {
            if (buf.get(JAVA_BYTE, i) == '\n') {
                return i;
            }
        }
        return -1;
    }

    private long lastIndexOf(long to) {
        for (long i = to - 1; i >= 0; i--) {
            if (buf.get(JAVA_BYTE, i) == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void grow() {
        if (capacity >= maxLine) { // (2 GiB at most: Spark's own line reader stops there too)
            throw new MalformedRecordException("simdbridge: a line longer than maxLineBytes (" + maxLine + ") in "
                    + split.path() + " at byte " + chunkStart, null);
        }
        Arena bigger = Arena.ofShared();
        long grownCapacity = Math.min(capacity * 2, maxLine);
        MemorySegment grown = bigger.allocate(grownCapacity + PADDING, 64);
        MemorySegment.copy(buf, 0, grown, 0, filled);
        arena.close();
        arena = bigger;
        buf = grown;
        capacity = grownCapacity;
    }

    /** A FAILFAST error, naming the file, the line and the byte offset in the file. */
    private RuntimeException malformed(JsonException e) {
        long offset = chunkStart + e.offset();
        String line;
        try {
            line = String.valueOf(lineOf(offset));
        } catch (IOException failed) {
            line = "?";
        }
        return new MalformedRecordException("simdbridge: malformed record in " + split.path() + " at line " + line
                + ", byte " + offset + ": " + e.getMessage().replaceFirst(" at byte \\d+$", "")
                        .replaceFirst("^record \\d+(: |, )", "")
                + ". Parse Mode: FAILFAST; to read malformed records as nulls, set the option mode to PERMISSIVE", e);
    }

    /** The line (from 1) holding a byte of the file: its line ends before it, counted. */
    private long lineOf(long offset) throws IOException {
        Path path = new Path(split.path());
        CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(path);
        try (InputStream raw = path.getFileSystem(conf).open(path);
             InputStream s = codec != null ? codec.createInputStream(raw) : raw) {
            long line = 1;
            long at = 0;
            byte[] b = new byte[1 << 16];
            while (at < offset) {
                int n = s.read(b, 0, (int) Math.min(b.length, offset - at));
                if (n < 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    line += b[i] == '\n' ? 1 : 0;
                }
                at += n;
            }
            return line;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return; // (Spark's and the row reader's close may both come)
        }
        closed = true;
        try {
            releaseBatch();
            closeStream();
            if (in != null) {
                in.close();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            if (prepared != null) {
                prepared.close();
            }
            allocator.close();
            arena.close();
            structs.close();
        }
    }
}
