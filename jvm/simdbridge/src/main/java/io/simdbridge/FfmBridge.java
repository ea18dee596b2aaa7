// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * FFM downcalls onto the C API (simdbridge_c.h), in the library that {@link NativeLibrary}
 * loaded. The {@code *Critical} handles use {@code Linker.Option.critical(true)}: they may be
 * given heap segments, which the native code then reads in place.
 */
final class FfmBridge {
    /** simdbridge_result: {int32_t error; uint64_t value;}. */
    static final StructLayout RESULT = MemoryLayout.structLayout(
            JAVA_INT.withName("error"), MemoryLayout.paddingLayout(4), JAVA_LONG.withName("value"));
    static final long RESULT_ERROR = 0;
    static final long RESULT_VALUE = 8;

    /** The slots of the C API's status_out arrays (simdbridge_c.h's *_STATUS_*; TwinsTest checks them). */
    static final int EXTRACT_STATUS_CONSUMED = 0, EXTRACT_STATUS_COLUMN = 1;
    static final int BINDING_TAPE_STATUS_WORDS = 0, BINDING_TAPE_STATUS_STRINGS = 1, BINDING_TAPE_STATUS_OFFSET = 2,
            BINDING_TAPE_STATUS_PLANNED = 3;
    /** SIMDBRIDGE_BINDING_TAPE_STRINGS_IN_INPUT: string values with no escape left in the input. */
    static final int BINDING_TAPE_STRINGS_IN_INPUT = 1;
    static final int MSGPACK_STATUS_SIZE = 0, MSGPACK_STATUS_OFFSET = 1, MSGPACK_STATUS_DOCUMENT = 2;

    /** (parser, data, length, capacity) -> simdbridge_result, for the four reads over a heap segment. */
    private static final FunctionDescriptor READ = FunctionDescriptor.of(RESULT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG);
    /**
     * The same with the data's address as a 64-bit integer (a pointer and a uint64_t travel alike
     * in the C calling conventions of x86-64 and AArch64): for native memory, no segment per call
     * (a MemorySegment.ofBuffer per call escaped into the downcall: 72 bytes of heap each).
     */
    private static final FunctionDescriptor READ_AT = FunctionDescriptor.of(RESULT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG);

    /** The four reads over native memory, its address a long. */
    static final MethodHandle CHECKSUM;
    static final MethodHandle CHECKSUM_STREAM;
    static final MethodHandle VALIDATE;
    static final MethodHandle VALIDATE_STREAM;
    /** The four reads over a heap segment, read in place. */
    static final MethodHandle CHECKSUM_CRITICAL;
    static final MethodHandle CHECKSUM_STREAM_CRITICAL;
    static final MethodHandle VALIDATE_CRITICAL;
    static final MethodHandle VALIDATE_STREAM_CRITICAL;
    /**
     * The four reads over a native segment (a shared arena's buffer): the linker holds the
     * segment's arena for the call, so that no thread can free it meanwhile (see DirectMemory).
     */
    static final MethodHandle CHECKSUM_SEGMENT;
    static final MethodHandle CHECKSUM_STREAM_SEGMENT;
    static final MethodHandle VALIDATE_SEGMENT;
    static final MethodHandle VALIDATE_STREAM_SEGMENT;
    /** (parser, data address, length, capacity, columns, count, max_rows, status) -> simdbridge_result. */
    static final MethodHandle EXTRACT;
    /** The same over a native segment, held for the call. */
    static final MethodHandle EXTRACT_SEGMENT;
    /** The same over a native segment, held for the call. */
    static final MethodHandle DOCUMENT_PARSE_SEGMENT;
    /** (parser, max_depth, max_number_length, max_string_length, max_document_length) -> error code. */
    static final MethodHandle SET_LIMITS;
    /** (parser, data address, length, capacity) -> simdbridge_result. */
    static final MethodHandle DOCUMENT_PARSE;
    /** (parser, pointer, pointer_length, type, out, out_capacity) -> simdbridge_result. */
    static final MethodHandle DOCUMENT_FIELD;
    static final MethodHandle NOOP;
    /** (parser): gives back the memory its buffers grew to. Not critical: it may unmap memory. */
    static final MethodHandle TRIM;
    static final MethodHandle NOOP_CRITICAL;
    /**
     * (parser, data, length, capacity, words, word_capacity, strings, string_capacity, options,
     * status) -> error code, critical: the data a heap segment, words and strings heap arrays.
     */
    static final MethodHandle BINDING_TAPE;
    /** The same with the data's address as a long (native memory). */
    static final MethodHandle BINDING_TAPE_AT;
    /** simdbridge_binding_tape_planned over heap segments (critical), and its plan's making and freeing. */
    static final MethodHandle BINDING_TAPE_PLANNED;
    /** The same with the input's address as a 64-bit integer (native memory), as BINDING_TAPE_AT. */
    static final MethodHandle BINDING_TAPE_PLANNED_AT;
    static final MethodHandle BINDING_PLAN_NEW;
    static final MethodHandle BINDING_PLAN_FREE;
    /** (chars, length, out) -> bytes written, critical: both heap arrays (see NativeWriter). */
    static final MethodHandle WRITE_JSON_STRING;
    /**
     * (limits parser, data, length, capacity, schema address, block size, threads, flags,
     * corrupt-record field, stream address, error) -> error code: simdbridge_ndjson_to_arrow. Not critical: it runs
     * for as long as the input takes, on several threads.
     */
    static final MethodHandle NDJSON_TO_ARROW;
    /**
     * (limits parser, path, schema address, block size, threads, flags, corrupt-record field, stream
     * address, error) -> error code.
     */
    static final MethodHandle NDJSON_FILE_TO_ARROW;
    /** (limits parser, data, length, capacity, block size, threads, schema address, error) -> error code. */
    static final MethodHandle ARROW_INFER_SCHEMA;
    /** (stream address, write nulls, threads, sink, context, error) -> error code. */
    static final MethodHandle ARROW_TO_NDJSON;
    /** (schema address, array address, write nulls, threads, sink, context, error) -> error code. */
    static final MethodHandle ARROW_BATCH_TO_NDJSON;
    /** simdbridge_arrow_error: {uint64 offset; uint64 record; char path[256]; char message[1024]}. */
    static final StructLayout ARROW_ERROR = MemoryLayout.structLayout(JAVA_LONG.withName("offset"),
            JAVA_LONG.withName("record"), MemoryLayout.sequenceLayout(256, JAVA_BYTE).withName("path"),
            MemoryLayout.sequenceLayout(1024, JAVA_BYTE).withName("message"));
    /**
     * (parser, data, length, capacity, flags, block size, threads, out, out capacity, status) ->
     * error code: simdbridge_json_to_msgpack. Not critical: it may run on several threads.
     */
    static final MethodHandle JSON_TO_MSGPACK;
    /** (max depth, data, length, flags, block size, threads, out, out capacity, status) -> error code. */
    static final MethodHandle MSGPACK_TO_JSON;
    /** simdbridge_ndjson_sink: (context, data, length) -> nonzero to go on. */
    static final FunctionDescriptor NDJSON_SINK = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG);

    static {
        NativeLibrary.ensureLoaded();
        Linker linker = Linker.nativeLinker();
        SymbolLookup lookup = SymbolLookup.loaderLookup();
        Linker.Option critical = Linker.Option.critical(true);
        CHECKSUM = linker.downcallHandle(lookup.findOrThrow("simdbridge_checksum"), READ_AT);
        CHECKSUM_STREAM = linker.downcallHandle(lookup.findOrThrow("simdbridge_checksum_stream"), READ_AT);
        VALIDATE = linker.downcallHandle(lookup.findOrThrow("simdbridge_validate"), READ_AT);
        VALIDATE_STREAM = linker.downcallHandle(lookup.findOrThrow("simdbridge_validate_stream"), READ_AT);
        CHECKSUM_CRITICAL = linker.downcallHandle(lookup.findOrThrow("simdbridge_checksum"), READ, critical);
        CHECKSUM_STREAM_CRITICAL = linker.downcallHandle(lookup.findOrThrow("simdbridge_checksum_stream"), READ, critical);
        VALIDATE_CRITICAL = linker.downcallHandle(lookup.findOrThrow("simdbridge_validate"), READ, critical);
        VALIDATE_STREAM_CRITICAL = linker.downcallHandle(lookup.findOrThrow("simdbridge_validate_stream"), READ, critical);
        CHECKSUM_SEGMENT = linker.downcallHandle(lookup.findOrThrow("simdbridge_checksum"), READ);
        CHECKSUM_STREAM_SEGMENT = linker.downcallHandle(lookup.findOrThrow("simdbridge_checksum_stream"), READ);
        VALIDATE_SEGMENT = linker.downcallHandle(lookup.findOrThrow("simdbridge_validate"), READ);
        VALIDATE_STREAM_SEGMENT = linker.downcallHandle(lookup.findOrThrow("simdbridge_validate_stream"), READ);
        EXTRACT = linker.downcallHandle(lookup.findOrThrow("simdbridge_extract"),
                FunctionDescriptor.of(RESULT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
        EXTRACT_SEGMENT = linker.downcallHandle(lookup.findOrThrow("simdbridge_extract"),
                FunctionDescriptor.of(RESULT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
        DOCUMENT_PARSE_SEGMENT = linker.downcallHandle(lookup.findOrThrow("simdbridge_document_parse"), READ);
        SET_LIMITS = linker.downcallHandle(lookup.findOrThrow("simdbridge_parser_set_limits"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
        DOCUMENT_PARSE = linker.downcallHandle(lookup.findOrThrow("simdbridge_document_parse"), READ_AT);
        DOCUMENT_FIELD = linker.downcallHandle(lookup.findOrThrow("simdbridge_document_field"),
                FunctionDescriptor.of(RESULT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
        BINDING_TAPE = linker.downcallHandle(lookup.findOrThrow("simdbridge_binding_tape"), FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS), critical);
        BINDING_TAPE_AT = linker.downcallHandle(lookup.findOrThrow("simdbridge_binding_tape"), FunctionDescriptor.of(JAVA_INT,
                ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS), critical);
        BINDING_TAPE_PLANNED = linker.downcallHandle(lookup.findOrThrow("simdbridge_binding_tape_planned"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
                        JAVA_LONG, JAVA_INT, ADDRESS), critical);
        BINDING_TAPE_PLANNED_AT = linker.downcallHandle(lookup.findOrThrow("simdbridge_binding_tape_planned"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
                        JAVA_LONG, JAVA_INT, ADDRESS), critical);
        BINDING_PLAN_NEW = linker.downcallHandle(lookup.findOrThrow("simdbridge_binding_plan_new"),
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG));
        BINDING_PLAN_FREE = linker.downcallHandle(lookup.findOrThrow("simdbridge_binding_plan_free"),
                FunctionDescriptor.ofVoid(ADDRESS));
        WRITE_JSON_STRING = linker.downcallHandle(lookup.findOrThrow("simdbridge_write_json_string"),
                FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS), critical);
        NDJSON_TO_ARROW = linker.downcallHandle(lookup.findOrThrow("simdbridge_ndjson_to_arrow"), FunctionDescriptor.of(
                JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS,
                JAVA_LONG, ADDRESS));
        NDJSON_FILE_TO_ARROW = linker.downcallHandle(lookup.findOrThrow("simdbridge_ndjson_file_to_arrow"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG,
                        ADDRESS));
        ARROW_INFER_SCHEMA = linker.downcallHandle(lookup.findOrThrow("simdbridge_arrow_infer_schema"), FunctionDescriptor.of(
                JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, ADDRESS));
        ARROW_TO_NDJSON = linker.downcallHandle(lookup.findOrThrow("simdbridge_arrow_to_ndjson"), FunctionDescriptor.of(
                JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        ARROW_BATCH_TO_NDJSON = linker.downcallHandle(lookup.findOrThrow("simdbridge_arrow_batch_to_ndjson"),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        JSON_TO_MSGPACK = linker.downcallHandle(lookup.findOrThrow("simdbridge_json_to_msgpack"), FunctionDescriptor.of(
                JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
        MSGPACK_TO_JSON = linker.downcallHandle(lookup.findOrThrow("simdbridge_msgpack_to_json"), FunctionDescriptor.of(
                JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
        NOOP = linker.downcallHandle(lookup.findOrThrow("simdbridge_noop"), FunctionDescriptor.ofVoid());
        TRIM = linker.downcallHandle(lookup.findOrThrow("simdbridge_parser_trim"), FunctionDescriptor.ofVoid(ADDRESS));
        NOOP_CRITICAL = linker.downcallHandle(lookup.findOrThrow("simdbridge_noop"), FunctionDescriptor.ofVoid(), critical);
    }

    private FfmBridge() {}

    /** The read of this kind over a native segment held for the call. */
    static MethodHandle readSegment(int kind) {
        return switch (kind) {
            case JniBridge.KIND_CHECKSUM -> CHECKSUM_SEGMENT;
            case JniBridge.KIND_CHECKSUM_STREAM -> CHECKSUM_STREAM_SEGMENT;
            case JniBridge.KIND_VALIDATE -> VALIDATE_SEGMENT;
            default -> VALIDATE_STREAM_SEGMENT;
        };
    }

    static MethodHandle read(int kind, boolean critical) {
        return switch (kind) {
            case JniBridge.KIND_CHECKSUM -> critical ? CHECKSUM_CRITICAL : CHECKSUM;
            case JniBridge.KIND_CHECKSUM_STREAM -> critical ? CHECKSUM_STREAM_CRITICAL : CHECKSUM_STREAM;
            case JniBridge.KIND_VALIDATE -> critical ? VALIDATE_CRITICAL : VALIDATE;
            default -> critical ? VALIDATE_STREAM_CRITICAL : VALIDATE_STREAM;
        };
    }
}
