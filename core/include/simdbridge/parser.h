// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_PARSER_H
#define SIMDBRIDGE_PARSER_H

#include <cstdint>
#include <memory>
#include <string_view>

#include "simdbridge/columns.h"
#include "simdbridge/document.h"
#include "simdbridge/error.h"
#include "simdbridge/input.h"
#include "simdbridge/result.h"
#include "simdbridge/binding_plan.h"
#include "simdbridge/binding_tape.h"

namespace simdbridge {

namespace internal {
struct parser_internals; // the core's own sources' way to a parser's state (src/parser_state.h)
} // namespace internal

struct parser_options {
  /** Arrays and objects may nest this deep; one level more is `error_code::depth_limit`. */
  uint32_t max_depth = SIMDBRIDGE_DEFAULT_MAX_DEPTH;
  /**
   * Bytes a stream is cut into for simdjson's first stage. A document longer than this is
   * still read correctly, on the slower path.
   */
  size_t stream_batch_size = size_t(1) << 20;
  /**
   * A number that simdjson does not read (an integer past 64 bits, a number past the double
   * range) may be this many characters long; a longer one is `error_code::number_too_long`.
   * 0: no limit. (Jackson's StreamReadConstraints: 1000.)
   */
  uint32_t max_number_length = SIMDBRIDGE_DEFAULT_MAX_NUMBER_LENGTH;
  /** Inputs longer than this many bytes are `error_code::document_too_long`. 0: no limit. */
  uint64_t max_document_length = 0;
  /**
   * A string or key of more than this many bytes (unescaped UTF-8) is
   * `error_code::string_too_long`, at its opening quote. 0: no limit. (Jackson: 20,000,000
   * characters.) Checked only in documents long enough to hold such a string.
   */
  uint64_t max_string_length = 0;
};

/**
 * Reads JSON text: computes the checksum of docs/checksum.md, or validates.
 *
 * A parser keeps buffers that grow to the largest input it has seen, so reuse one; it is not
 * thread-safe, so use one per thread. Nothing here throws: a parser that could not allocate
 * its state answers every call with `error_code::out_of_memory`.
 *
 * Documents go through simdjson first. A document simdjson refuses is read again by a scalar
 * parser, which either finds the error and its byte offset, or reads what the checksum
 * contract defines but simdjson refuses (integers past 64 bits, numbers past the double range,
 * lone surrogate escapes).
 *
 * Example:
 *
 *     simdbridge::parser parser;
 *     auto r = parser.checksum(simdbridge::input::copy_of(R"({"a":1})"));
 *     if (r.ok()) std::printf("%016llx\n", (unsigned long long)r.value());   // bec57e3c220bbec4
 */
class parser {
public:
  explicit parser(parser_options options = {}) noexcept;
  ~parser();
  parser(parser &&) noexcept;
  parser &operator=(parser &&) noexcept;
  parser(const parser &) = delete;
  parser &operator=(const parser &) = delete;

  /** The checksum of one JSON document. */
  result<uint64_t> checksum(input in) noexcept;

  /**
   * The checksum of a stream: JSON documents separated by white space (NDJSON, JSON Lines).
   * Blank lines are not documents; an input with no document has the checksum SEED.
   */
  result<uint64_t> checksum_stream(input in) noexcept;

  /** Full validation of one document: RFC 8259 and UTF-8. */
  error validate(input in) noexcept;

  /** Full validation of a stream; on success, the number of documents. */
  result<uint64_t> validate_stream(input in) noexcept;

  /**
   * Extracts `count` columns from a batch of NDJSON records in one pass per record (see
   * columns.h). Every record is fully validated. Stops early, without an error, before a
   * record that would overflow `max_rows` or a string column; `status.consumed` says where to
   * go on. A JSON error's offset is in `in`; a type mismatch's is the record's start.
   *
   * Example:
   *
   *     int64_t ids[4096]; uint8_t valid[512];
   *     simdbridge::column c{"/id", 3, SIMDBRIDGE_COLUMN_INT64, 0, ids, valid};
   *     simdbridge::extract_status status;
   *     simdbridge::error e = parser.extract(batch, &c, 1, 4096, status);
   */
  error extract(input in, column *columns, size_t count, uint64_t max_rows,
                extract_status &status) noexcept;

  /**
   * Parses one document into `doc`, which keeps its own tape (see document.h). Fully validated.
   * A valid document that simdjson cannot put on a tape (an integer past 64 bits, a number past
   * the double range, a lone surrogate escape) is error_code::unsupported_value at offset 0.
   */
  error parse(input in, document &doc) noexcept;

  /**
   * Parses one document (fully validated) into the caller's arrays as a binding tape (see
   * binding_tape.h): every value with its byte offset, strings unescaped, numbers past 64 bits or past
   * the double range as their tokens. Where the arrays are too small it returns
   * error_code::output_too_small, and `out` says the sizes needed.
   *
   * Example:
   *
   *     std::vector<uint64_t> words(1024); std::vector<uint8_t> strings(4096);
   *     simdbridge::binding_tape_buffer out{words.data(), words.size(), strings.data(), strings.size()};
   *     simdbridge::error e = parser.to_binding_tape(simdbridge::input::copy_of(R"({"a":[1,"x"]})"), out);
   *     // words[0] >> 56 == binding_tape_entry::object; out.words_used == 10
   */
  error to_binding_tape(const input &in, binding_tape_buffer &out) noexcept;

  /**
   * The same, following `plan` (binding_plan.h): the objects that match it are written without
   * their keys, and `out.planned` says whether the tape is so written. Where the document does
   * not match the plan, the tape is the one the call without a plan writes.
   */
  error to_binding_tape(const input &in, const binding_plan &plan, binding_tape_buffer &out) noexcept;

  /**
   * Gives back the memory the buffers grew to for large inputs (the padded copy, simdjson's
   * structural index and document, the On Demand parser's index, the MessagePack conversions'
   * buffers): the parser is then as small
   * as a new one, and the next call grows what it needs again. For a parser kept by a
   * long-lived thread after a large document: it would otherwise hold about 5 times that
   * document's size (about twice in pages touched) until it is freed. A kept document (document_parse) is dropped.
   */
  void trim() noexcept;

  /**
   * Parses one document and keeps it for document_field(), until the next call that parses on
   * this parser. Fully validated, like validate().
   */
  error document_parse(input in) noexcept;

  /**
   * The value at `pointer` in the kept document, read as one row of a column of `type` (see
   * columns.h): `out` receives 8 bytes (int64, float64), 1 byte (boolean) or the string's UTF-8.
   * `present` is false where the pointer leads nowhere or to null; `size` is a string's length.
   * No document kept: error_code::invalid_argument.
   */
  error document_field(std::string_view pointer, column_type type, uint8_t *out,
                       size_t out_capacity, bool &present, size_t &size) noexcept;

  const parser_options &options() const noexcept { return options_; }

  /**
   * Changes the limits (depth, number and document length; the batch size) for the calls that
   * follow: a parser shared by settings that differ (a thread's, used by several mappers) is
   * set before each use. Cheap where the depth does not change; out_of_memory where its
   * buffers could not be sized again (the parser then keeps its previous options).
   */
  error set_options(parser_options options) noexcept;

  /** The state behind the public API; defined in the core's sources only. */
  struct state;

private:
  friend struct internal::parser_internals;

  error binding_tape(const input &in, const binding_plan *plan, binding_tape_buffer &out) noexcept;

  parser_options options_;
  std::unique_ptr<state> state_;
};

/** The simdbridge version, "MAJOR.MINOR.PATCH". */
const char *version() noexcept;
/** The simdjson version the core was built against. */
const char *simdjson_version() noexcept;
/** The simdjson kernel chosen for this CPU at run time ("icelake", "haswell", ...). */
const char *simd_implementation() noexcept;

} // namespace simdbridge

#endif // SIMDBRIDGE_PARSER_H
