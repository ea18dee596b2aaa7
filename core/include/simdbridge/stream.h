// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_STREAM_H
#define SIMDBRIDGE_STREAM_H

#include <cstdint>
#include <memory>

#include "simdbridge/document.h"
#include "simdbridge/input.h"
#include "simdbridge/parser.h"
#include "simdbridge/result.h"

namespace simdbridge {

/** How the documents of a stream are laid out. */
enum class stream_format {
  /** Documents separated by white space: NDJSON, JSON Lines, concatenated documents. */
  whitespace,
  /** One document per line (JSON Lines); blank lines are not documents. */
  lines,
  /** RFC 7464 JSON text sequences: each document after an RS byte (0x1E). */
  json_seq,
  /** Documents separated by commas, as in an array without its brackets. */
  comma,
  /** The elements of one top-level array. */
  array,
};

/**
 * Reads the documents of a stream one at a time, each fully validated, each on a tape (see
 * document.h) valid until the next call. The reader owns its parser: parsing elsewhere on the
 * same thread does not disturb it. The input must outlive the reader.
 *
 * A document that is valid JSON but that simdjson cannot put on a tape (an integer past 64 bits,
 * a number past the double range, a lone surrogate escape) comes with an empty tape: its bytes,
 * [begin(), end()), are for the caller to read another way. In the comma and array formats the
 * whole input is read at once, and such a value is the error unsupported_value.
 *
 * Example:
 *
 *     simdbridge::stream_reader reader(simdbridge::input::copy_of(ndjson), simdbridge::stream_format::lines);
 *     for (auto r = reader.next(); r.ok() && r.value(); r = reader.next()) {
 *       simdbridge::tape_view t = reader.tape();   // t.kind(reader.value_index()) ...
 *     }
 */
class stream_reader {
public:
  stream_reader(input in, stream_format format, parser_options options = {}) noexcept;
  ~stream_reader();
  stream_reader(stream_reader &&) noexcept;
  stream_reader &operator=(stream_reader &&) noexcept;
  stream_reader(const stream_reader &) = delete;
  stream_reader &operator=(const stream_reader &) = delete;

  /**
   * Moves to the next document: true if there is one, false at the end, or an error with its
   * byte offset in the whole input (after which the reader stays at its end).
   */
  result<bool> next() noexcept;

  /**
   * The same, the next document's tape going into `into`, which keeps it after the reader moves
   * on (whitespace, lines and json_seq formats; for comma and array, parse the input as one
   * document with parser::parse). tape() and value_index() then describe `into`.
   */
  result<bool> next(document &into) noexcept;

  /** The current document's tape; words == nullptr where it is valid but not on a tape. */
  tape_view tape() const noexcept;
  /** Where the current document's value starts on the tape. */
  size_t value_index() const noexcept;
  /** The current document's bytes in the input: [begin, end). */
  size_t begin() const noexcept;
  size_t end() const noexcept;
  /** Documents returned so far (the current one's number, counting from 1). */
  uint64_t count() const noexcept;

  struct state;

private:
  result<bool> advance() noexcept;
  std::unique_ptr<state> state_;
};

} // namespace simdbridge

#endif // SIMDBRIDGE_STREAM_H
