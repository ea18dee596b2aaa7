/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plain C interface of simdbridge: what the JVM's FFM downcalls, the JNI forwarders and any
 * other FFI bind to. Every function is a thin wrapper of the C++ API (simdbridge/parser.h).
 *
 * Conventions:
 * - Nothing here throws, aborts or reads past what it is given. Errors are values.
 * - A function that reads JSON takes (data, length, capacity). When capacity >= length +
 *   SIMDBRIDGE_PADDING, the bytes are parsed in place: the caller promises that the padding
 *   bytes are readable (their content does not matter). Otherwise they are copied once into the
 *   parser's reusable padded buffer.
 * - A parser is not thread-safe: use one per thread. Results stay valid until the next call on
 *   the same parser.
 *
 * Example:
 *
 *     simdbridge_parser *p = simdbridge_parser_new(0);
 *     simdbridge_result r = simdbridge_checksum(p, (const uint8_t *)"[1]", 3, 3);
 *     if (r.error) printf("%s at byte %llu\n", simdbridge_error_message(r.error), r.value);
 *     else printf("%016llx\n", r.value);
 *     simdbridge_parser_free(p);
 */
#ifndef SIMDBRIDGE_C_H
#define SIMDBRIDGE_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Readable bytes that must follow the input for it to be parsed in place. */
#define SIMDBRIDGE_PADDING 64

/** The default nesting limit of arrays and objects. */
#define SIMDBRIDGE_DEFAULT_MAX_DEPTH 1024

/**
 * The default length limit, in characters, of a number that simdjson does not read (an integer
 * past 64 bits, a number past the double range): such numbers are kept as text, which
 * arbitrary-precision conversions (BigInteger, int()) read in more than linear time.
 */
#define SIMDBRIDGE_DEFAULT_MAX_NUMBER_LENGTH 1000

/** Error codes. The same values as simdbridge::error_code; see error.h for each one's meaning. */
typedef enum simdbridge_error {
  SIMDBRIDGE_SUCCESS = 0,
  SIMDBRIDGE_EMPTY_INPUT = 1,
  SIMDBRIDGE_UNEXPECTED_END = 2,
  SIMDBRIDGE_EXPECTED_VALUE = 3,
  SIMDBRIDGE_EXPECTED_KEY = 4,
  SIMDBRIDGE_EXPECTED_COLON = 5,
  SIMDBRIDGE_EXPECTED_COMMA_OR_BRACKET = 6,
  SIMDBRIDGE_EXPECTED_COMMA_OR_BRACE = 7,
  SIMDBRIDGE_TRAILING_CONTENT = 8,
  SIMDBRIDGE_INVALID_NUMBER = 9,
  SIMDBRIDGE_INVALID_LITERAL = 10,
  SIMDBRIDGE_INVALID_ESCAPE = 11,
  SIMDBRIDGE_INVALID_UNICODE_ESCAPE = 12,
  SIMDBRIDGE_CONTROL_CHARACTER = 13,
  SIMDBRIDGE_INVALID_UTF8 = 14,
  SIMDBRIDGE_BYTE_ORDER_MARK = 15,
  SIMDBRIDGE_WRONG_ENCODING = 16,
  SIMDBRIDGE_DEPTH_LIMIT = 17,
  SIMDBRIDGE_OUT_OF_MEMORY = 18,
  SIMDBRIDGE_INVALID_ARGUMENT = 19,
  SIMDBRIDGE_INVALID_POINTER = 20,
  SIMDBRIDGE_OUTPUT_TOO_SMALL = 21,
  SIMDBRIDGE_TYPE_MISMATCH = 22,
  SIMDBRIDGE_UNSUPPORTED_VALUE = 23,
  SIMDBRIDGE_NUMBER_TOO_LONG = 24,
  SIMDBRIDGE_DOCUMENT_TOO_LONG = 25,
  SIMDBRIDGE_EXPECTED_ARRAY = 26,
  SIMDBRIDGE_STRING_TOO_LONG = 27,
  SIMDBRIDGE_WRITE_FAILED = 28,
  SIMDBRIDGE_READ_FAILED = 29,
  SIMDBRIDGE_MSGPACK_TRUNCATED = 30,
  SIMDBRIDGE_MSGPACK_INVALID = 31,
  SIMDBRIDGE_MSGPACK_UNSUPPORTED = 32
} simdbridge_error;

/**
 * The outcome of a call: on success, error is SIMDBRIDGE_SUCCESS and value is the call's answer
 * (a checksum, a count); on failure, value is the byte offset of the error in the input.
 */
typedef struct simdbridge_result {
  int32_t error;
  uint64_t value;
} simdbridge_result;

/** A reusable parser: buffers that grow to the largest input seen. Opaque. */
typedef struct simdbridge_parser simdbridge_parser;

/** A new parser, or NULL when memory runs out. max_depth 0 means SIMDBRIDGE_DEFAULT_MAX_DEPTH. */
simdbridge_parser *simdbridge_parser_new(uint32_t max_depth);

/**
 * Sets a parser's limits for the calls that follow (parser::set_options): max_depth (0: the
 * default), max_number_length, max_string_length and max_document_length (0: none), in
 * characters and bytes. Returns SIMDBRIDGE_SUCCESS, or SIMDBRIDGE_OUT_OF_MEMORY (the limits are
 * then unchanged).
 */
int32_t simdbridge_parser_set_limits(simdbridge_parser *parser, uint32_t max_depth, uint32_t max_number_length,
                                     uint64_t max_string_length, uint64_t max_document_length);

/** Frees a parser. NULL is allowed. */
void simdbridge_parser_free(simdbridge_parser *parser);

/** Gives back the memory the parser's buffers grew to for large inputs (parser::trim). */
void simdbridge_parser_trim(simdbridge_parser *parser);

/** The checksum (docs/checksum.md) of one JSON document. */
simdbridge_result simdbridge_checksum(simdbridge_parser *parser, const uint8_t *data,
                                      size_t length, size_t capacity);

/** The checksum of a stream: JSON documents separated by white space (NDJSON, JSON Lines). */
simdbridge_result simdbridge_checksum_stream(simdbridge_parser *parser, const uint8_t *data,
                                             size_t length, size_t capacity);

/** Full validation of one document (RFC 8259 and UTF-8). value is 0 on success. */
simdbridge_result simdbridge_validate(simdbridge_parser *parser, const uint8_t *data,
                                      size_t length, size_t capacity);

/** Full validation of a stream. On success, value is the number of documents. */
simdbridge_result simdbridge_validate_stream(simdbridge_parser *parser, const uint8_t *data,
                                             size_t length, size_t capacity);

/** What a column of simdbridge_extract holds (see simdbridge/columns.h). */
typedef enum simdbridge_column_type {
  SIMDBRIDGE_COLUMN_INT64 = 1,
  SIMDBRIDGE_COLUMN_FLOAT64 = 2,
  SIMDBRIDGE_COLUMN_BOOLEAN = 3,
  SIMDBRIDGE_COLUMN_STRING = 4
} simdbridge_column_type;

/**
 * One column of a batch extraction: 64 bytes, every field 8-aligned, so that Java lays it out
 * in a direct buffer or a MemorySegment. See simdbridge/columns.h for the buffers' layout.
 */
typedef struct simdbridge_column {
  const char *pointer;       /* a JSON Pointer (RFC 6901), UTF-8, not necessarily terminated */
  uint64_t pointer_length;
  int32_t type;              /* simdbridge_column_type */
  int32_t reserved;          /* 0 */
  void *values;              /* rows values; rows + 1 int32 offsets for strings */
  uint8_t *validity;         /* (rows + 7) / 8 bytes */
  uint8_t *string_bytes;     /* strings: their UTF-8, one after the other */
  uint64_t string_capacity;  /* strings: the size of string_bytes */
  uint64_t string_size;      /* out, strings: bytes written */
} simdbridge_column;

/** What simdbridge_extract writes into its status_out[2]. */
#define SIMDBRIDGE_EXTRACT_STATUS_CONSUMED 0 /* the bytes consumed: where the next call starts */
#define SIMDBRIDGE_EXTRACT_STATUS_COLUMN 1   /* the column of a type mismatch or an invalid pointer, else -1 (as uint64) */

/**
 * Extracts columns from a batch of NDJSON records (one JSON document per line; blank lines are
 * not records) in one call. Every record is fully validated. Stops before the record that
 * would overflow max_rows or a string column's capacity; status_out (SIMDBRIDGE_EXTRACT_STATUS_*)
 * receives the bytes consumed and the column at fault. On success, value is the number of rows
 * written.
 */
simdbridge_result simdbridge_extract(simdbridge_parser *parser, const uint8_t *data,
                                     size_t length, size_t capacity, simdbridge_column *columns,
                                     size_t column_count, uint64_t max_rows,
                                     uint64_t *status_out);

/**
 * Parses one document (fully validated) and keeps it in the parser for
 * simdbridge_document_field, until the next call that parses on the same parser.
 */
simdbridge_result simdbridge_document_parse(simdbridge_parser *parser, const uint8_t *data,
                                            size_t length, size_t capacity);

/**
 * The value at a JSON Pointer in the kept document, read as a column of `type`: an int64 or a
 * double (8 bytes) or a boolean (1 byte) at out, or a string's UTF-8 bytes. value is 0 where
 * the pointer leads nowhere or to null; otherwise 1, or for a string 1 + its length.
 */
simdbridge_result simdbridge_document_field(simdbridge_parser *parser, const char *pointer,
                                            size_t pointer_length, int32_t type, uint8_t *out,
                                            size_t out_capacity);

/** What simdbridge_binding_tape writes into its status_out[3]. */
#define SIMDBRIDGE_BINDING_TAPE_STATUS_WORDS 0   /* the words written; with SIMDBRIDGE_OUTPUT_TOO_SMALL, the words needed */
#define SIMDBRIDGE_BINDING_TAPE_STATUS_STRINGS 1 /* the string bytes written, or needed */
#define SIMDBRIDGE_BINDING_TAPE_STATUS_OFFSET 2  /* an error's byte offset */

/** An option of simdbridge_binding_tape: string values with no escape may be left in the input
 *  (binding_tape_in_input in simdbridge/binding_tape.h), for a caller that keeps it. */
#define SIMDBRIDGE_BINDING_TAPE_STRINGS_IN_INPUT 1

/**
 * Parses one document (fully validated) into the caller's arrays as a binding tape (see
 * simdbridge/binding_tape.h): `words` receives two 64-bit words per value and per key, `strings` the
 * unescaped UTF-8 of strings and keys; `options`: 0 or SIMDBRIDGE_BINDING_TAPE_STRINGS_IN_INPUT.
 * Returns a simdbridge_error code and fills status_out
 * (SIMDBRIDGE_BINDING_TAPE_STATUS_*); with SIMDBRIDGE_OUTPUT_TOO_SMALL, grow the arrays to the sizes it
 * gives and call again. Returns a plain integer, so that an FFM downcall allocates nothing for
 * its result.
 */
int32_t simdbridge_binding_tape(simdbridge_parser *parser, const uint8_t *data, size_t length, size_t capacity,
                        uint64_t *words, size_t word_capacity, uint8_t *strings, size_t string_capacity,
                        uint32_t options, uint64_t *status_out);

/** A binding plan (simdbridge/binding_plan.h, which gives its serialized form). */
typedef struct simdbridge_binding_plan simdbridge_binding_plan;

/** A plan from its serialized form; NULL where the form is malformed or memory ran out. */
simdbridge_binding_plan *simdbridge_binding_plan_new(const uint8_t *spec, size_t length);

/** Frees a plan (NULL is ignored). No call may be using it. */
void simdbridge_binding_plan_free(simdbridge_binding_plan *plan);

/** What simdbridge_binding_tape_planned writes into status_out[3], beside the three above. */
#define SIMDBRIDGE_BINDING_TAPE_STATUS_PLANNED 3 /* 1 where the plan's objects were written without their keys */

/**
 * simdbridge_binding_tape following `plan`: the objects that match it are written without their
 * keys (status_out[SIMDBRIDGE_BINDING_TAPE_STATUS_PLANNED] is then 1); where the document does
 * not match the plan, the tape is the one simdbridge_binding_tape writes (and the status 0).
 * status_out holds 4 words.
 */
int32_t simdbridge_binding_tape_planned(simdbridge_parser *parser, const simdbridge_binding_plan *plan,
                                        const uint8_t *data, size_t length, size_t capacity, uint64_t *words,
                                        size_t word_capacity, uint8_t *strings, size_t string_capacity,
                                        uint32_t options, uint64_t *status_out);

/** A one-line English description of an error code. Never NULL. */
const char *simdbridge_error_message(int32_t error);

/** The name of an error code ("unexpected_end"). Never NULL. */
const char *simdbridge_error_name(int32_t error);

/** The simdbridge version, "MAJOR.MINOR.PATCH". */
const char *simdbridge_version(void);

/** The simdjson version the core was built against. */
const char *simdbridge_simdjson_version(void);

/** The simdjson kernel selected for this CPU at run time ("icelake", "haswell", ...). */
const char *simdbridge_simd_implementation(void);

/**
 * Writes `length` UTF-16 code units as a quoted JSON string in UTF-8 (see simdbridge/writer.h):
 * `out` must have room for 6 * length + 10 bytes. Returns the bytes written.
 */
size_t simdbridge_write_json_string(const uint16_t *text, size_t length, uint8_t *out);

/** Does nothing: prices a crossing of the native boundary. */
void simdbridge_noop(void);

/* ---- NDJSON and Apache Arrow (see simdbridge/arrow.h) ------------------------------------ */

/* The Arrow C Data Interface's structs (simdbridge/arrow_c_data.h declares them). */
struct ArrowSchema;
struct ArrowArray;
struct ArrowArrayStream;

/** Why an Arrow call failed, filled in when it returns an error (strings cut to fit). */
typedef struct simdbridge_arrow_error {
  uint64_t offset;     /* the byte offset in the input */
  uint64_t record;     /* the record, counting from 1; 0 where the error is not a record's */
  char path[256];      /* the field's path in the record (RFC 6901), NUL-terminated */
  char message[1024];  /* all of it: "record 3, field /a: expected int64, found a string at byte 57" */
} simdbridge_arrow_error;

/** simdbridge_ndjson_to_arrow's flags. */
#define SIMDBRIDGE_ARROW_ERROR_ON_UNKNOWN_FIELDS 1u /* a key the schema lacks is an error */
#define SIMDBRIDGE_ARROW_SKIP_UNVALIDATED 2u        /* keys the schema lacks: their values' brackets matched only */
#define SIMDBRIDGE_ARROW_KEEP_BAD_RECORDS 4u        /* bad_records::keep (Spark's PERMISSIVE) */
#define SIMDBRIDGE_ARROW_DROP_BAD_RECORDS 8u        /* bad_records::drop (Spark's DROPMALFORMED) */
#define SIMDBRIDGE_ARROW_ANY_VALUE_AS_STRING 16u    /* a string field takes any value, as its JSON text */
#define SIMDBRIDGE_ARROW_SPARK_TEMPORALS 32u        /* timestamp numbers in seconds, dates from strings only */

/**
 * NDJSON to Arrow record batches (ndjson_to_arrow): `schema` an ArrowSchema of format "+s"
 * (borrowed) or NULL to infer it; `limits` a parser whose limits each record is read under, or
 * NULL for the defaults; block_size 0 for 1 MiB; threads 0 or 1 for the calling thread;
 * `corrupt_record_field` the field that takes a kept bad record's line, or NULL. On success,
 * `out` (the caller's) holds the batches, to be released by the caller.
 */
int32_t simdbridge_ndjson_to_arrow(const simdbridge_parser *limits, const uint8_t *data, size_t length,
                                   size_t capacity, const struct ArrowSchema *schema, uint64_t block_size,
                                   uint32_t threads, uint32_t flags, const char *corrupt_record_field,
                                   struct ArrowArrayStream *out, simdbridge_arrow_error *error);

/**
 * simdbridge_ndjson_to_arrow over the file at `path` (ndjson_file_to_arrow: with a schema, read
 * a block at a time, never held whole). A file that cannot be opened or read is
 * SIMDBRIDGE_READ_FAILED, its reason in the message.
 */
int32_t simdbridge_ndjson_file_to_arrow(const simdbridge_parser *limits, const char *path,
                                        const struct ArrowSchema *schema, uint64_t block_size, uint32_t threads,
                                        uint32_t flags, const char *corrupt_record_field,
                                        struct ArrowArrayStream *out, simdbridge_arrow_error *error);

/** The schema simdbridge_ndjson_to_arrow would infer, into `out` (the caller releases it). */
int32_t simdbridge_arrow_infer_schema(const simdbridge_parser *limits, const uint8_t *data, size_t length,
                                      size_t capacity, uint64_t block_size, uint32_t threads,
                                      struct ArrowSchema *out, simdbridge_arrow_error *error);

/**
 * Takes written NDJSON: whole lines, in order, from the calling thread. Returns nonzero to go
 * on, 0 to stop (the writer then returns SIMDBRIDGE_WRITE_FAILED).
 */
typedef int32_t (*simdbridge_ndjson_sink)(void *context, const uint8_t *data, size_t length);

/** Every row of every batch of `stream` (borrowed, read to its end) as NDJSON into `sink`. */
int32_t simdbridge_arrow_to_ndjson(struct ArrowArrayStream *stream, uint32_t write_nulls, uint32_t threads,
                                   simdbridge_ndjson_sink sink, void *context, simdbridge_arrow_error *error);

/** One record batch (a struct array and its schema, borrowed) as NDJSON into `sink`. */
int32_t simdbridge_arrow_batch_to_ndjson(const struct ArrowSchema *schema, const struct ArrowArray *batch,
                                         uint32_t write_nulls, uint32_t threads, simdbridge_ndjson_sink sink,
                                         void *context, simdbridge_arrow_error *error);

/** simdbridge_json_to_msgpack's and simdbridge_msgpack_to_json's flags. */
#define SIMDBRIDGE_MSGPACK_NDJSON 1u          /* JSON in: NDJSON, one MessagePack value per document out */
#define SIMDBRIDGE_MSGPACK_STREAM 2u          /* MessagePack in: a sequence of values, an NDJSON line each out */
#define SIMDBRIDGE_MSGPACK_NO_UTF8_CHECK 4u   /* MessagePack in: strings not checked for UTF-8 */
#define SIMDBRIDGE_MSGPACK_BINARY_AS_ERROR 8u /* MessagePack in: bin is an error, not a base64 string */
#define SIMDBRIDGE_MSGPACK_EXT_AS_NULL 16u    /* MessagePack in: ext values (timestamps too) as null, not an error */

/** What the MessagePack conversions write into their status_out[3]. */
#define SIMDBRIDGE_MSGPACK_STATUS_SIZE 0     /* the bytes written; with SIMDBRIDGE_OUTPUT_TOO_SMALL, the bytes needed */
#define SIMDBRIDGE_MSGPACK_STATUS_OFFSET 1   /* an error's byte offset in the input */
#define SIMDBRIDGE_MSGPACK_STATUS_DOCUMENT 2 /* an error's document (a stream's, from 1) */

/**
 * JSON to MessagePack (json_to_msgpack, msgpack.h), read under `parser`'s limits, into `out`
 * (`out_capacity` bytes); flags SIMDBRIDGE_MSGPACK_NDJSON; block_size 0 for 1 MiB; threads 0 or 1
 * for the calling thread. Where the result does not fit, SIMDBRIDGE_OUTPUT_TOO_SMALL with the size
 * needed: call again with that room.
 */
int32_t simdbridge_json_to_msgpack(simdbridge_parser *parser, const uint8_t *data, size_t length, size_t capacity,
                                   uint32_t flags, uint64_t block_size, uint32_t threads, uint8_t *out,
                                   size_t out_capacity, uint64_t *status_out);

/**
 * MessagePack to compact JSON (msgpack_to_json, msgpack.h) into `out`, as
 * simdbridge_json_to_msgpack writes, under `parser`'s max_depth and max_document_length (the
 * bytes of each MessagePack value; NULL for the defaults), the parser keeping the conversion's
 * buffers for its next call; flags SIMDBRIDGE_MSGPACK_STREAM, _NO_UTF8_CHECK, _BINARY_AS_ERROR,
 * _EXT_AS_NULL.
 */
int32_t simdbridge_msgpack_to_json(simdbridge_parser *parser, const uint8_t *data, size_t length, uint32_t flags,
                                   uint64_t block_size, uint32_t threads, uint8_t *out, size_t out_capacity,
                                   uint64_t *status_out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SIMDBRIDGE_C_H */
