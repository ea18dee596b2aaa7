// SPDX-License-Identifier: Apache-2.0
// A stream through checksum_stream and validate_stream at several batch sizes (the input's
// length chooses one more, so that batch ends fall everywhere), and through the stream reader
// in each format: every verdict, checksum and document count must be the scalar parser's; the
// reader's batches must give what it reads one document at a time; checksum_stream over a
// source, in small blocks on one thread and two, the same; and a block_reader over a source in
// the lines and json_seq formats what the stream reader reads over the whole input, an error
// at the line and column it has there.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "fuzz_support.h"
#include "simdbridge/document.h"
#include "simdbridge/parser.h"
#include "simdbridge/stream.h"

using namespace simdbridge;
using simdbridge::fuzz::outcome;

namespace {

/** Reads the whole stream; the documents read, or the error. */
outcome read_all(stream_reader &reader, bool into_documents) {
  uint64_t documents = 0;
  document doc;
  for (;;) {
    const result<bool> r = into_documents ? reader.next(doc) : reader.next();
    if (!r.ok()) { return outcome::of(r.error()); }
    if (!r.value()) { return {true, documents, error_code::success, 0}; }
    documents++;
    fuzz::expect(reader.count() == documents, "stream_reader: count() is not the documents read");
    fuzz::expect(reader.begin() <= reader.end(), "stream_reader: a document ends before it begins");
  }
}

/** Reads a block_reader to its end; the documents read, or the error. */
outcome read_blocks(block_reader &reader) {
  uint64_t documents = 0;
  for (;;) {
    const result<bool> r = reader.next();
    if (!r.ok()) { return outcome::of(r.error()); }
    if (!r.value()) { return {true, documents, error_code::success, 0}; }
    documents++;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  parser_options limited;
  limited.max_depth = 8;
  limited.max_number_length = 30;
  limited.max_document_length = 64;
  limited.max_string_length = 12;
  // Each parse_many hands its batches to a second thread, started per call: the costly part of
  // a run, so the limited options read at two batch sizes, and validation at one or two.
  const size_t varying = 33 + size % 61;
  for (const parser_options &base : {parser_options{}, limited}) {
    const bool plain = base.max_document_length == 0;
    const outcome slow = fuzz::slow_checksum_stream(data, size, base);
    const fuzz::padded_bytes in_place(data, size);
    uint64_t documents = 0;
    bool counted = false;
    static parser p; // its options set for each run (a parser per run costs more than the run)
    for (size_t batch : {varying, size_t(1) << 20, size_t(32)}) {
      if (!plain && batch == 32) { continue; }
      parser_options o = base;
      o.stream_batch_size = batch;
      fuzz::expect(p.set_options(o).ok(), "set_options");
      const outcome fast = outcome::of(p.checksum_stream(in_place.in()));
      if (!(fast == slow)) { fuzz::fail("checksum_stream against the scalar parser", fast, slow); }
      if (batch == 32 || (!plain && batch != varying)) { continue; }
      const result<uint64_t> v = p.validate_stream(input::copy_of(data, size));
      if (!outcome::of(v).same_verdict(slow)) { fuzz::fail("validate_stream against the scalar parser", outcome::of(v), slow); }
      if (v.ok()) {
        fuzz::expect(!counted || v.value() == documents, "validate_stream: the document count depends on the batch");
        documents = v.value();
        counted = true;
      }
    }
    // Over a source, in blocks (what the CLI reads files with): the same checksum and verdict.
    for (unsigned threads : {1u, 2u}) {
      fuzz::pieces source(data, size, 1 + size % 13);
      block_options blocks;
      blocks.block_size = 5 + size % 40;
      blocks.threads = threads;
      blocks.parser = base;
      const outcome folded = outcome::of(checksum_stream(source, blocks));
      // Under a document limit the blocks stop at it: a string that starts before the limit
      // and passes max_string_length only after it is an error there at its start when read
      // whole, the limit's error in blocks (not yet the same): there, a checksum, or an error.
      const bool agree = plain ? folded == slow : folded.ok == slow.ok && (!folded.ok || folded.value == slow.value);
      if (!agree) {
        fuzz::fail("checksum_stream over a source against the scalar parser", folded, slow);
      }
    }
    // The stream reader in its white-space format reads the same documents, or the same error.
    stream_reader whitespace(in_place.in(), stream_format::whitespace, base);
    const outcome read = read_all(whitespace, false);
    if (!read.same_verdict(slow)) { fuzz::fail("stream_reader (whitespace) against the scalar parser", read, slow); }
    if (read.ok && counted) { fuzz::expect(read.value == documents, "stream_reader (whitespace): another document count"); }
    stream_reader kept(input::copy_of(data, size), stream_format::whitespace, base);
    const outcome read_kept = read_all(kept, true);
    if (!read_kept.same_verdict(read)) { fuzz::fail("stream_reader into documents against next()", read_kept, read); }
    // next() takes documents from parse_many's batches, next(document&) reads one at a time:
    // with batches ending anywhere, the same documents and the same error.
    for (size_t batch : {varying, size_t(32)}) {
      parser_options o = base;
      o.stream_batch_size = batch;
      stream_reader batched(in_place.in(), stream_format::whitespace, o);
      const outcome read_batched = read_all(batched, false);
      if (!(read_batched == read_kept)) { fuzz::fail("stream_reader batches against reading alone", read_batched, read_kept); }
    }
    // The other formats: no verdict to compare with, but no crash and no read out of bounds;
    // and in lines and json_seq, with no limits, a block_reader over a source in blocks of a
    // few bytes reads the same documents, or the same error, as the stream reader over it whole.
    for (stream_format f : {stream_format::lines, stream_format::json_seq, stream_format::comma, stream_format::array}) {
      stream_reader other(in_place.in(), f, base);
      const outcome whole = read_all(other, false);
      if (!plain || (f != stream_format::lines && f != stream_format::json_seq)) { continue; }
      for (unsigned threads : {1u, 2u}) {
        fuzz::pieces source(data, size, 1 + size % 11);
        block_options blocks;
        blocks.format = f;
        blocks.block_size = 1 + size % 7;
        blocks.threads = threads;
        blocks.count_lines = true;
        block_reader reader(source, blocks);
        const outcome got = read_blocks(reader);
        if (!(got == whole)) { fuzz::fail("block_reader (lines, json_seq) against the stream reader", got, whole); }
        // An error's line and column, counted as the blocks were cut: those of the whole input.
        uint64_t line = 0, column = 0;
        if (!got.ok) {
          fuzz::expect(reader.line_and_column(got.offset, line, column), "block_reader: no line for an error");
          const uint64_t newlines = uint64_t(std::count(data, data + got.offset, uint8_t('\n')));
          const auto from_end = std::make_reverse_iterator(data + got.offset);
          const uint8_t *last = std::find(from_end, std::make_reverse_iterator(data), uint8_t('\n')).base();
          fuzz::expect(line == newlines + 1 && column == uint64_t(data + got.offset - last) + 1,
                       "block_reader: an error's line and column are not the input's");
        }
      }
    }
  }
  return 0;
}
