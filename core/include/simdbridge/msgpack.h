// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_MSGPACK_H
#define SIMDBRIDGE_MSGPACK_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "simdbridge/error.h"
#include "simdbridge/input.h"
#include "simdbridge/parser.h"

namespace simdbridge {

/**
 * How a conversion between JSON and MessagePack is cut up and run. A stream (NDJSON in, or a
 * sequence of MessagePack values in) is cut into blocks of about `block_size` bytes at document
 * boundaries, and the blocks are converted on `threads` threads, each into its own buffer; the
 * output is their concatenation in order, the same bytes for every thread count.
 */
struct msgpack_options {
  /** msgpack_to_json: arrays and maps nest at most this deep (json_to_msgpack: the parser's limits apply). */
  uint32_t max_depth = SIMDBRIDGE_DEFAULT_MAX_DEPTH;
  size_t block_size = size_t(1) << 20;
  unsigned threads = 1;
  /** json_to_msgpack: the input is NDJSON (documents separated by white space), one value per document out. */
  bool ndjson = false;
  /** msgpack_to_json: the input is a sequence of values, written as NDJSON (a line each). */
  bool stream = false;
  /** msgpack_to_json: strings and keys must be UTF-8 (else error_code::invalid_utf8). */
  bool validate_utf8 = true;
  /** msgpack_to_json: bin values (and keys) as base64 strings; false: error_code::msgpack_unsupported. */
  bool binary_as_base64 = true;
  /** msgpack_to_json: ext values (timestamps included) as null; false: error_code::msgpack_unsupported. */
  bool ext_as_null = false;
  /**
   * msgpack_to_json: bytes of the input (stream: of each value) at most this many; 0: no limit.
   * Past it, error_code::document_too_long at the value's start plus the limit, unless the value
   * went wrong within those bytes (that error, then), as a JSON document past the parser's
   * max_document_length. A stream read from a source then holds no more of a value than that.
   */
  uint64_t max_value_length = 0;
};

/**
 * Where a conversion's result goes: called once, with the result's size in bytes, from the
 * thread that called the conversion; returns where to write that many bytes (they are written
 * before the conversion returns), or nullptr for error_code::out_of_memory. It lets the caller
 * hand over its own memory (a Python bytes object) so that the result is not copied again.
 */
using msgpack_output = std::function<uint8_t *(size_t size)>;

/**
 * Where a stream conversion's output goes, in order, a block's worth at a time, from the thread
 * that called the conversion: false stops it (error_code::write_failed).
 */
using msgpack_sink = std::function<bool(const uint8_t *data, size_t size)>;

class stream_source;

/** Where a conversion failed: the error (its offset in the whole input), and in which document (from 1). */
struct msgpack_error {
  error e;
  uint64_t document = 0;
  bool ok() const noexcept { return e.ok(); }
};

/**
 * JSON to MessagePack, with no object built: the document's structural walk writes the most
 * compact encoding as it meets each value (a document it leaves, such as one with an error, goes
 * onto a binding tape, binding_tape.h, and is written from there). Integers in the smallest integer
 * form (positive ones unsigned, as msgpack-python packs them); integers past 64 bits and
 * numbers past the double range as float64 (the nearest double, or infinity); every other
 * number as float64; strings, arrays and maps with the smallest header for their size; keys in
 * document order, duplicates kept. For a document without duplicate keys the bytes are those of
 * msgpack.packb(json.loads(doc)). A string with a lone surrogate escape, which has no UTF-8, is
 * error_code::unsupported_value. `out` is replaced by the result. `p` reads the documents on the
 * calling thread, under its limits; other threads read theirs with parsers of the same options.
 *
 * Example:
 *
 *     simdbridge::parser p;
 *     std::vector<uint8_t> packed;
 *     simdbridge::msgpack_error e = simdbridge::json_to_msgpack(p, simdbridge::input::copy_of(R"({"a":[1,2.5]})"), {}, packed);
 *     // packed: 81 a1 61 92 01 cb 40 04 00 00 00 00 00 00
 */
msgpack_error json_to_msgpack(parser &p, input in, const msgpack_options &options, std::vector<uint8_t> &out) noexcept;
/** json_to_msgpack into the memory `output` gives (nothing is asked for where the input fails). */
msgpack_error json_to_msgpack(parser &p, input in, const msgpack_options &options, const msgpack_output &output) noexcept;

/**
 * json_to_msgpack of NDJSON (options.ndjson is implied) read from `source` a step at a time
 * (block_size bytes for each of `threads`), each step's MessagePack handed to `write` once
 * converted: memory is bounded by a step and the longest line, not by the stream. The bytes,
 * and the error (its offset in the whole stream, its document counted from 1), are those of
 * json_to_msgpack over the whole stream at once; on an error, every document before it has
 * been handed to `write`. A line with no end is refused once it goes wrong or passes the
 * document limit, not read on to an end that may never come.
 */
msgpack_error json_to_msgpack(parser &p, stream_source &source, const msgpack_options &options,
                              const msgpack_sink &write) noexcept;

/**
 * MessagePack to compact JSON (UTF-8, no white space): integers as decimals, floats in the
 * shortest form that reads back (as Python's repr: 1.0, 1e-05), NaN and infinities as null,
 * strings escaped as json.dumps(ensure_ascii=False) escapes them, bin as base64 strings, map
 * keys that are not strings as strings (their JSON text: "1", "true", "null", "1.5"; bin as
 * base64; an array or map as a key is error_code::msgpack_unsupported). Every length is checked
 * against what the input holds before it is read or used: a truncated value is
 * error_code::msgpack_truncated, the reserved byte 0xc1 error_code::msgpack_invalid, nesting past
 * max_depth error_code::depth_limit, bytes after the value (not a stream)
 * error_code::trailing_content; the output grows with what was read, never with a length the
 * input claims. `out` is replaced by the result.
 */
msgpack_error msgpack_to_json(input in, const msgpack_options &options, std::vector<uint8_t> &out) noexcept;
/** msgpack_to_json into the memory `output` gives (nothing is asked for where the input fails). */
msgpack_error msgpack_to_json(input in, const msgpack_options &options, const msgpack_output &output) noexcept;
/**
 * The same, with the buffers the conversion writes into kept in `p` for its next call (up to 64
 * MB; parser::trim frees them): a call then does not fault fresh memory in. Only `options`'
 * limits apply, not the parser's. One call at a time per parser, as for its other calls.
 */
msgpack_error msgpack_to_json(parser &p, input in, const msgpack_options &options,
                              const msgpack_output &output) noexcept;

/**
 * msgpack_to_json of a sequence of values (options.stream is implied) read from `source` a step
 * at a time (block_size bytes for each of `threads`), each step's JSON lines handed to `write`
 * once converted: memory is bounded by a step and the longest value, not by the stream. The
 * text, and the error, are those of msgpack_to_json over the whole stream at once; on an error,
 * every value before it has been handed to `write`. A value cut short is read on only while
 * nothing in it is wrong: past the depth limit, at a bad byte or past max_value_length it is
 * refused then. (With no max_value_length, one whose arrays or maps claim more entries than have
 * come is read on until they come or the stream ends, as read whole.)
 */
msgpack_error msgpack_to_json(stream_source &source, const msgpack_options &options,
                              const msgpack_sink &write) noexcept;

} // namespace simdbridge

#endif // SIMDBRIDGE_MSGPACK_H
