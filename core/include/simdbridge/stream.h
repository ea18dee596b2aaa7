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

  /**
   * Starts over on `in`, keeping the parser and its buffers (formats whitespace, lines and
   * json_seq). `continuation`: `in` continues a stream cut at a document boundary, so the checks
   * that only the start of a stream gets (byte order mark, encoding) are skipped; count()
   * restarts at 0.
   */
  void reset(input in, bool continuation) noexcept;

  struct state;

private:
  result<bool> advance() noexcept;
  std::unique_ptr<state> state_;
};

/**
 * Where a block_reader's bytes come from, read on the thread that calls block_reader::next().
 */
class stream_source {
public:
  virtual ~stream_source() = default;
  /** Up to `capacity` next bytes into `into`: how many were read (0: the end), or an error. */
  virtual result<size_t> read(uint8_t *into, size_t capacity) noexcept = 0;
};

/**
 * Lines counted through a stream's bytes, in order (16 bytes a step where SSE2 is there): an
 * offset past them has a line and column, from 1. What the block reader keeps for
 * line_and_column, and what a front end that reads a stream again to place an error uses.
 */
struct line_count {
  uint64_t at = 0;         // bytes counted (the stream offset they reach)
  uint64_t newlines = 0;
  uint64_t line_start = 0; // the offset just past the last newline
  /** Counts the next `n` bytes of the stream. */
  void add(const uint8_t *bytes, size_t n) noexcept;
  uint64_t line() const noexcept { return newlines + 1; }
  uint64_t column(uint64_t offset) const noexcept { return offset - line_start + 1; }
};

/** How a block_reader cuts and parses its stream. */
struct block_options {
  /** whitespace, lines or json_seq (comma and array are one document: read them with parser). */
  stream_format format = stream_format::whitespace;
  /** Bytes read and parsed at a time; a block grows past it only to hold a longer document. */
  size_t block_size = size_t(1) << 20;
  /**
   * Threads at work: 1 parses each document when next() reaches it; n > 1 has n - 1 threads
   * parse whole blocks ahead while the caller's thread takes their documents.
   */
  unsigned threads = 1;
  parser_options parser;
  /**
   * Count the stream's lines as its blocks are cut (a pass over each block), so that
   * line_and_column() can place an error of a stream that cannot be read again (a pipe).
   */
  bool count_lines = false;
};

/**
 * A stream_reader over a stream of any length: the bytes come in blocks cut at document
 * boundaries, from memory or from a stream_source, so that memory is bounded by the block size
 * (and the longest document), not by the stream. The documents, their tapes and their errors are
 * the stream_reader's, in the same order, with offsets in the whole stream; with threads > 1
 * blocks are parsed ahead on other threads. An input in memory that can be parsed in place with
 * one thread is read as one block, with no copy.
 *
 * Blocks are cut after the last newline (json_seq: before the last RS) of each block_size bytes.
 * In the whitespace format a document may span lines: where one runs past the cut, its block
 * ends before it and it is read again at the start of the next block.
 */
class block_reader {
public:
  /** `in` must outlive the reader. */
  block_reader(input in, block_options options) noexcept;
  /** `source` must outlive the reader. */
  block_reader(stream_source &source, block_options options) noexcept;
  ~block_reader();
  block_reader(const block_reader &) = delete;
  block_reader &operator=(const block_reader &) = delete;

  /** The next document: true, false at the end, or an error with its offset in the stream. */
  result<bool> next() noexcept;
  /** The same, the document's tape going into `into`, which keeps it (see stream_reader). */
  result<bool> next(document &into) noexcept;
  /** True where next() will neither wait for another thread nor read the source. */
  bool ready() const noexcept;

  /** The current document's tape; words == nullptr where it is valid but not on a tape. */
  tape_view tape() const noexcept;
  size_t value_index() const noexcept;
  /**
   * The current document's bytes, valid until the next call, and their offsets in the stream.
   * They may leave out some of the white space a record starts with: with no length limit, a
   * lines or json_seq record of white space alone so far is held only by its last few bytes.
   */
  const uint8_t *bytes() const noexcept;
  uint64_t begin() const noexcept;
  uint64_t end() const noexcept;
  /** Documents returned so far. */
  uint64_t count() const noexcept;
  /**
   * The line and column (from 1) of `offset` in the stream, where it lies in the block read
   * last (an error next() returned lies there, but for a failed read); false elsewhere, and
   * unless options.count_lines was set (or the input is one block in memory).
   */
  bool line_and_column(uint64_t offset, uint64_t &line, uint64_t &col) const noexcept;

  struct state;

private:
  std::unique_ptr<state> state_;
};

/**
 * parser::checksum_stream over a stream of any length, read from `source` in blocks by a
 * block_reader (`options`: its format, block size, threads and limits): memory bounded by the
 * block size and the longest document, not by the stream. In the whitespace format, the same
 * checksum, and the same error at the same offset in the whole stream, as checksum_stream over
 * the stream's bytes in memory.
 */
result<uint64_t> checksum_stream(stream_source &source, const block_options &options) noexcept;

/** parser::validate_stream in the same way: on success, the number of documents. */
result<uint64_t> validate_stream(stream_source &source, const block_options &options) noexcept;

} // namespace simdbridge

#endif // SIMDBRIDGE_STREAM_H
