// SPDX-License-Identifier: Apache-2.0
// What simdjson's parse_many (3.0.1) yields, checked against the bytes. It is fast but not to be
// trusted on its own: it reports a first-stage error at the start of the batch that holds it,
// drops an unfinished last document without an error, may cut a scalar at the root in two
// ("123456" read as "123" and "456"), may stop early, silently, where a large document starts
// near a batch's end, and copies the rest of its batch for each number at the root. Its readers
// (parser.cpp's checksum of a stream, stream.cpp's batched reader) account for every byte with
// these helpers and give what they cannot account for to a parser that reads one document at a
// time.
#ifndef SIMDBRIDGE_SRC_STREAM_PARSE_MANY_CHECKS_H
#define SIMDBRIDGE_SRC_STREAM_PARSE_MANY_CHECKS_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include <simdjson.h>

#include "../scalar_parser.h"

namespace simdbridge::internal {

/** Whether parse_many's document at `start` is an object or an array (it has its own end). */
inline bool is_container_start(uint8_t first) noexcept { return first == '{' || first == '['; }

/**
 * Whether a document starting with `first` is a number. simdjson 3.0.1's parse_many copies the
 * rest of its batch to parse a number at the root (its tape builder's copy of the input, padded
 * with spaces, made for each one), so a batch of N small numbers costs N copies of up to a batch,
 * time that grows with the square of the batch. parser.cpp's read_stream leaves parse_many at a
 * root number (stream.cpp's reader, at any root scalar), at most once a batch, and the scalar
 * parser reads on from there.
 */
inline bool is_number_start(uint8_t first) noexcept { return first == '-' || is_digit(first); }

/**
 * One past the last byte of the document that parse_many just yielded at `start`: the closing
 * bracket's position for an object or an array (from simdjson's structural index), our own scan
 * for a scalar (simdjson's source() is not exact there).
 */
inline size_t document_end(const simdjson::dom::document_stream::iterator &it, const uint8_t *data, size_t start,
                           size_t size) noexcept {
  const uint8_t first = data[start];
  if (is_container_start(first)) { return start + it.source().size(); }
  size_t p = start + 1;
  if (first == '"') {
    while (p < size && data[p] != '"') { p += data[p] == '\\' ? 2 : 1; }
    return p < size ? p + 1 : size;
  }
  while (p < size && continues_token(data[p])) { p++; }
  return p;
}

/**
 * Whether a scalar at the root (a number, a string, a literal) that parse_many yielded at
 * [start, end) is one, and may be followed by what follows it. parse_many cuts its batches
 * where a batch's structural characters end, and a scalar at the root has none: it may see
 * only the part of the token inside the batch and call it valid ("0.000" of "0.000A0006", the
 * bytes past the cut never read), or accept a number running into the next batch's string. So
 * each root scalar's whole extent, as document_end() found it, is read again by the scalar
 * parser, which must find one value there, followed by white space, a structural or the end
 * (its rule for streams). Containers need none of this: parse_many cuts batches at their ends,
 * and stage 2 reads each whole. The tape still holds what parse_many read: a reader that keeps
 * it must also see that the next document does not start inside this one.
 */
inline bool root_scalar_holds(std::vector<uint8_t> &scopes, const parser_options &options, const uint8_t *data,
                              size_t start, size_t end, size_t size) {
  const uint8_t first = data[start];
  if (is_container_start(first)) { return true; }
  if (first != '"' && end < size && !ends_stream_token(data[end])) { return false; }
  validation_sink sink;
  scalar_parser<validation_sink> slow(data + start, end - start, options, sink, scopes);
  return slow.parse_document().ok();
}

/** The first byte in [from, to) that is not white space, or `to`. */
inline size_t first_non_whitespace(const uint8_t *data, size_t from, size_t to) noexcept {
  while (from < to && is_json_whitespace(data[from])) { from++; }
  return from;
}

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_SRC_STREAM_PARSE_MANY_CHECKS_H
