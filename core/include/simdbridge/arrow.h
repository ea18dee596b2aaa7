// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_ARROW_H
#define SIMDBRIDGE_ARROW_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "simdbridge/arrow_c_data.h"
#include "simdbridge/error.h"
#include "simdbridge/input.h"
#include "simdbridge/parser.h"

namespace simdbridge {

/** What a bad record does to a read (see arrow_read_options::on_bad_record). */
enum class bad_records : uint8_t {
  /** The read stops with the record's error (Spark's FAILFAST). */
  fail,
  /** The record is a row: a record that is not valid JSON or not an object has every field
   *  null; otherwise each field whose value could not be read is null (the innermost struct
   *  field holding the bad value) and the others keep their values (Spark's PERMISSIVE). */
  keep,
  /** The record is left out (Spark's DROPMALFORMED). */
  drop,
};

/** How NDJSON is read into Arrow record batches. */
struct arrow_read_options {
  /** Bytes of input per record batch; the input is cut at the first line end past each. */
  size_t block_size = size_t(1) << 20;
  /** Threads reading blocks at once (0 or 1: the calling thread alone). */
  unsigned threads = 1;
  /** A key the schema does not name is an error (else it is skipped, still validated). */
  bool error_on_unknown_fields = false;
  /** The values of keys the schema lacks are checked to be valid JSON (else only their
   *  brackets are matched: faster, and an invalid skipped value may then pass). */
  bool validate_skipped = true;
  /** Every record through simdjson's DOM, one at a time (slower): the reference that tests
   *  compare the block reader with. */
  bool reference_reader = false;
  /** The limits each record is read under (depth, number, string and record length). */
  parser_options limits;
  /** What a bad record (one that is not valid JSON, not an object, too long, or holds a value
   *  of another type than its field's) does to the read; the modes of Spark's JSON source.
   *  Keeping or dropping with no schema, inference leaves bad records out (a record whose types
   *  conflict with the records before it is one), and adds the corrupt-record field (a string,
   *  last) where it met any and keeps them. */
  bad_records on_bad_record = bad_records::fail;
  /** With bad_records::keep, the name of a top-level utf8 field of the schema that takes each
   *  bad record's line as it is in the input (without its line end), null for the others; no
   *  key of a record is read into it (Spark's columnNameOfCorruptRecord). "" for none. */
  std::string corrupt_record_field;
  /** A utf8 field takes a value of any type: a number, boolean, object or array as its JSON
   *  text, its bytes as they are in the input (Spark's JSON source reads such values so; minified
   *  in the rare record only simdjson's DOM reads: nested near the depth limit, or holding a
   *  number past 64 bits); else they are type errors. */
  bool any_value_as_string = false;
  /** Numbers in a timestamp field count seconds since the epoch (whatever its unit), and a date
   *  field takes strings only, as Spark's JSON source reads them; else a number is in the
   *  timestamp's unit, or a day count. */
  bool spark_temporals = false;
};

/**
 * Why NDJSON could not be read into Arrow: the error, the record (counting from 1, 0 where the
 * error is not a record's), the path of the field within it (RFC 6901, "" for the record
 * itself), and a message that says all of it with the byte offset.
 */
struct arrow_error {
  error_code code = error_code::success;
  uint64_t offset = 0;
  uint64_t record = 0;
  std::string path;
  /** What was wrong ("expected int64, found a string"), without the record, path or offset. */
  std::string detail;
  /** All of it: "record 3, field /a: expected int64, found a string at byte 57". */
  std::string message;
  /**
   * The line and column (from 1) of `offset`, for the errors of a file's records
   * (ndjson_file_to_arrow, infer_arrow_schema_file). 0 elsewhere.
   */
  uint64_t line = 0, column = 0;
  bool ok() const noexcept { return code == error_code::success; }
};

/**
 * Reads NDJSON (one JSON object per line; blank lines skipped, CRLF accepted) into Arrow record
 * batches, handed over as an ArrowArrayStream that the caller owns (call its release). With a
 * schema (an ArrowSchema of format "+s", borrowed), each record's keys are matched to its
 * fields: a field the record lacks is null, a key the schema lacks is skipped (validated) or an
 * error, and a value of another type is an error naming the record, the path and the byte
 * offset. Without one (nullptr), the schema is inferred from the whole input first, as
 * pyarrow's JSON reader infers it: null, bool, int64, double where integers and other numbers
 * mix, utf8, struct (the union of the keys in the order they first appear), list; a mix of
 * other types is an error naming the two types and where the second appeared.
 *
 * Types: null, bool, int8 to int64, uint8 to uint64, float32, float64, utf8, large_utf8, struct,
 * list and large_list of any of these, timestamp (from ISO 8601 strings or numbers since the
 * epoch in its unit; with a time zone or without), date32 (from "YYYY-MM-DD" or days),
 * decimal128 (from a number, or a string holding one, rounded half up to its scale) and map
 * with string keys (from an object, its members in order).
 * The batches, their rows and any error are the same whatever the block size's cut and the
 * number of threads.
 *
 *     ArrowArrayStream stream;
 *     simdbridge::arrow_error e = simdbridge::ndjson_to_arrow(in, &schema, {}, &stream);
 *     if (!e.ok()) std::fprintf(stderr, "%s\n", e.message.c_str());
 */
arrow_error ndjson_to_arrow(input in, const ArrowSchema *schema, const arrow_read_options &options,
                            ArrowArrayStream *out) noexcept;

/**
 * ndjson_to_arrow over an open file (`fd`, not closed; a regular file read from its start with
 * pread, anything else, such as a pipe, from where it is to its end): the file
 * is read block by block into a buffer each thread reuses (never mapped or held whole: the
 * input costs a block a thread), the same batches as over its bytes. Without a schema, the
 * schema inferred from the first block is checked record by record as the file is read; where
 * a record does not fit, the file is memory-mapped (or read whole) and read as bytes, inferred
 * whole. What is not a regular file is inferred a block at a time as it is read, on the threads
 * asked for (an error stops the read at its block), its bytes kept for the read that follows.
 * A failed read is error_code::read_failed. With no length limit, a line with no end yet is
 * read as it is each time its block doubles: bytes that are not JSON (a device of zeros) are an
 * error within a few blocks. An error in the records comes with its line and column (a regular
 * file is read again up to it to count them).
 */
arrow_error ndjson_file_to_arrow(int fd, const ArrowSchema *schema, const arrow_read_options &options,
                                 ArrowArrayStream *out) noexcept;

/** How Arrow record batches are written as NDJSON. */
struct arrow_write_options {
  /** A null field is written as null (else it is left out of its object). */
  bool write_nulls = true;
  /** Threads writing row ranges of each batch at once (0 or 1: the calling thread alone). */
  unsigned threads = 1;
};

/**
 * Writes every row of the record batches of `stream` (borrowed: read to its end, not released)
 * as one JSON object per line, each ending in a newline, appended to `out`; numbers and strings
 * as dumpb (orjson) writes them (NaN and infinities as null), date32 as "YYYY-MM-DD", timestamps
 * in ISO 8601 ("Z" where the type has a time zone: the values are UTC). Types: those
 * ndjson_to_arrow reads. Writing and reading back with the same schema gives an equal table.
 * The bytes are the same for every thread count.
 */
arrow_error arrow_to_ndjson(ArrowArrayStream *stream, const arrow_write_options &options, std::string &out) noexcept;

/** The same for one record batch (a struct array and its schema), both borrowed. */
arrow_error arrow_batch_to_ndjson(const ArrowSchema &schema, const ArrowArray &batch,
                                  const arrow_write_options &options, std::string &out) noexcept;

/**
 * Takes the NDJSON as it is written: pieces of whole lines, in order, a few hundred KB each,
 * always from the thread that called the writer. Returning false stops the writing, which then
 * fails with error_code::write_failed (a full disk, a closed file).
 */
using ndjson_sink = std::function<bool(const char *data, size_t size)>;

/** arrow_to_ndjson into a sink: the output is never held whole (a file written as it comes). */
arrow_error arrow_to_ndjson(ArrowArrayStream *stream, const arrow_write_options &options, const ndjson_sink &sink) noexcept;

/** arrow_batch_to_ndjson into a sink. */
arrow_error arrow_batch_to_ndjson(const ArrowSchema &schema, const ArrowArray &batch,
                                  const arrow_write_options &options, const ndjson_sink &sink) noexcept;

/** The schema ndjson_to_arrow would infer for `in`, into `out` (the caller releases it). */
arrow_error infer_arrow_schema(input in, const arrow_read_options &options, ArrowSchema *out) noexcept;
/**
 * infer_arrow_schema over an open file (`fd`, not closed; read as ndjson_file_to_arrow reads
 * it, a block at a time, a pipe included): the same schema or error, the file never held whole.
 */
arrow_error infer_arrow_schema_file(int fd, const arrow_read_options &options, ArrowSchema *out) noexcept;

/** An ArrowSchema as its type, for messages and the CLI: "struct<a: int64, b: list<utf8>>". */
std::string describe_arrow_schema(const ArrowSchema &schema);

} // namespace simdbridge

#endif // SIMDBRIDGE_ARROW_H
