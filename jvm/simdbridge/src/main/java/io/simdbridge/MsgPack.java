// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * JSON to MessagePack and back with no object built: the core's conversions (see
 * simdbridge/msgpack.h), one crossing into native code per call.
 *
 * <pre>{@code
 * byte[] packed = MsgPack.fromJson(json);                                   // one document
 * byte[] values = MsgPack.fromJson(ndjson, MsgPack.Options.DEFAULT.withStream(true).withThreads(4));
 * byte[] text = MsgPack.toJson(packed);                                     // compact JSON
 * }</pre>
 *
 * JSON to MessagePack: integers in their smallest form, other numbers as float64, keys in order
 * (duplicates kept); the bytes msgpack-python's {@code packb(json.loads(doc))} gives. MessagePack
 * to JSON: floats as Python's repr writes them, NaN and infinities as null, bin as base64, keys
 * that are not strings as their JSON text. Invalid JSON, and MessagePack that is truncated,
 * malformed, nested past the limit or holds what JSON cannot (an ext type, by default), is a
 * {@link JsonException} with its byte offset and, in a stream, its document ({@link
 * JsonException#record()}, from 1).
 */
public final class MsgPack {
    private MsgPack() {}

    /**
     * How a conversion runs.
     *
     * @param stream fromJson: the input is NDJSON, a MessagePack value per document out; toJson:
     *     the input is a sequence of values, an NDJSON line each out
     * @param threads threads converting blocks of a stream at once
     * @param blockSize bytes of a stream per block, cut at a document boundary
     * @param validateUtf8 toJson: strings must be UTF-8
     * @param binaryAsBase64 toJson: bin values as base64 strings (else an error)
     * @param extAsNull toJson: ext values (timestamps too) as null (else an error)
     * @param limits what JSON documents may hold; its depth limits MessagePack's nesting too, and its
     *     document length each MessagePack value's bytes (as Python's set_limits does)
     */
    public record Options(boolean stream, int threads, long blockSize, boolean validateUtf8, boolean binaryAsBase64,
                          boolean extAsNull, JsonLimits limits) {
        /** One document, one thread, 1 MiB blocks, UTF-8 checked, bin as base64, ext an error. */
        public static final Options DEFAULT = new Options(false, 1, 1 << 20, true, true, false, JsonLimits.DEFAULT);

        public Options {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1");
            }
            if (blockSize < 1) {
                throw new IllegalArgumentException("blockSize must be at least 1");
            }
            Objects.requireNonNull(limits, "limits");
        }

        public Options withStream(boolean s) {
            return new Options(s, threads, blockSize, validateUtf8, binaryAsBase64, extAsNull, limits);
        }

        public Options withThreads(int t) {
            return new Options(stream, t, blockSize, validateUtf8, binaryAsBase64, extAsNull, limits);
        }

        public Options withBlockSize(long b) {
            return new Options(stream, threads, b, validateUtf8, binaryAsBase64, extAsNull, limits);
        }

        public Options withValidateUtf8(boolean v) {
            return new Options(stream, threads, blockSize, v, binaryAsBase64, extAsNull, limits);
        }

        public Options withBinaryAsBase64(boolean b) {
            return new Options(stream, threads, blockSize, validateUtf8, b, extAsNull, limits);
        }

        public Options withExtAsNull(boolean e) {
            return new Options(stream, threads, blockSize, validateUtf8, binaryAsBase64, e, limits);
        }

        public Options withLimits(JsonLimits l) {
            return new Options(stream, threads, blockSize, validateUtf8, binaryAsBase64, extAsNull, l);
        }

        /** The C API's flags (SIMDBRIDGE_MSGPACK_*). */
        int flags(boolean toMsgpack) {
            return (stream ? (toMsgpack ? 1 : 2) : 0) | (validateUtf8 ? 0 : 4) | (binaryAsBase64 ? 0 : 8)
                    | (extAsNull ? 16 : 0);
        }
    }

    /** One JSON document as MessagePack. */
    public static byte[] fromJson(byte[] json) {
        return fromJson(json, Options.DEFAULT);
    }

    public static byte[] fromJson(byte[] json, Options options) {
        Objects.requireNonNull(json, "json");
        return convert(true, MemorySegment.ofArray(json), options);
    }

    /** The bytes between a buffer's position and limit (the position does not move). */
    public static byte[] fromJson(ByteBuffer json, Options options) {
        Objects.requireNonNull(json, "json");
        return convert(true, MemorySegment.ofBuffer(json.duplicate()), options);
    }

    /** One MessagePack value as compact JSON. */
    public static byte[] toJson(byte[] msgpack) {
        return toJson(msgpack, Options.DEFAULT);
    }

    public static byte[] toJson(byte[] msgpack, Options options) {
        Objects.requireNonNull(msgpack, "msgpack");
        return convert(false, MemorySegment.ofArray(msgpack), options);
    }

    /** The bytes between a buffer's position and limit (the position does not move). */
    public static byte[] toJson(ByteBuffer msgpack, Options options) {
        Objects.requireNonNull(msgpack, "msgpack");
        return convert(false, MemorySegment.ofBuffer(msgpack.duplicate()), options);
    }

    /**
     * The input copied into native memory with the core's padding after it (the conversion may
     * run on several threads, which a heap array cannot be lent to), converted into native memory
     * sized by a first guess (again, with the size the core gives, where it was too small), and
     * copied out. A pooled parser gives the limits, and keeps the core's workspace and both
     * native buffers for the next call (see KeptMemory).
     */
    private static byte[] convert(boolean toMsgpack, MemorySegment input, Options options) {
        Objects.requireNonNull(options, "options");
        long length = input.byteSize();
        NativeParser parser = NativeParser.acquire();
        try (Arena arena = Arena.ofConfined()) {
            parser.setLimits(options.limits());
            KeptMemory kept = parser.keptMemory();
            MemorySegment data = kept.atLeast(KeptMemory.INPUT, length + PaddedBuffers.PADDING, arena);
            MemorySegment.copy(input, 0, data, 0, length);
            MemorySegment status = arena.allocate(JAVA_LONG, 3);
            long room = 2 * length + 64;
            for (int attempt = 0; ; attempt++) {
                MemorySegment out = kept.atLeast(KeptMemory.OUTPUT, room, arena);
                int code = toMsgpack
                        ? (int) FfmBridge.JSON_TO_MSGPACK.invokeExact(parser.nativeSegment(), data, length,
                                data.byteSize(), options.flags(true), options.blockSize(), options.threads(), out,
                                out.byteSize(), status)
                        : (int) FfmBridge.MSGPACK_TO_JSON.invokeExact(parser.nativeSegment(), data, length,
                                options.flags(false), options.blockSize(), options.threads(), out, out.byteSize(),
                                status);
                long size = status.getAtIndex(JAVA_LONG, FfmBridge.MSGPACK_STATUS_SIZE);
                if (code == ErrorCode.OUTPUT_TOO_SMALL.ordinal() && attempt == 0) {
                    room = size;
                    continue;
                }
                if (code != 0) {
                    long offset = status.getAtIndex(JAVA_LONG, FfmBridge.MSGPACK_STATUS_OFFSET);
                    long document = status.getAtIndex(JAVA_LONG, FfmBridge.MSGPACK_STATUS_DOCUMENT);
                    ErrorCode c = ErrorCode.of(code);
                    String where = options.stream() ? "document " + document + ": " : "";
                    throw new JsonException(c, offset, document, "", where + c.message() + " at byte " + offset);
                }
                return out.asSlice(0, size).toArray(JAVA_BYTE);
            }
        } catch (Throwable t) {
            throw NativeParser.rethrow(t);
        } finally {
            parser.release();
        }
    }
}
