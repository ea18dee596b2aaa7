// SPDX-License-Identifier: Apache-2.0
// checksum_stream and validate_stream over a stream_source (stream.h): a block_reader reads and
// validates the documents block by block, and each document's tape is folded as
// parser::checksum_stream folds it, so that memory is bounded by a block and the longest
// document, not by the stream.
#include <algorithm>
#include <new>
#include <vector>

#include "checksum_sink.h"
#include "scalar_parser.h"
#include "simdbridge/stream.h"
#include "tape_walk.h"

namespace simdbridge {

result<uint64_t> checksum_stream(stream_source &source, const block_options &options) noexcept {
  try {
    block_reader reader(source, options);
    internal::checksum_sink sink;
    std::vector<uint8_t> scopes, slow_scopes;
    for (;;) {
      const result<bool> r = reader.next();
      if (!r.ok()) { return r.error(); }
      if (!r.value()) { return sink.h; }
      const size_t size = size_t(reader.end() - reader.begin());
      const tape_view t = reader.tape();
      if (t.words != nullptr) {
        // A document of n bytes nests at most n deep (and the reader held it to max_depth).
        const size_t depth = std::min<size_t>(size, options.parser.max_depth) + 2;
        if (scopes.size() < depth) { scopes.resize(depth); }
        internal::walk_tape(t.words, t.strings, sink, scopes.data());
      } else {
        // Valid, but not on a tape (a number past 64 bits, a lone surrogate escape): its bytes
        // folded by the scalar parser, as parser::checksum_stream folds them.
        internal::scalar_parser<internal::checksum_sink> slow(reader.bytes(), size, options.parser, sink, slow_scopes);
        if (const error e = slow.parse_document(); !e.ok()) { return error{e.code, reader.begin() + e.offset}; }
      }
      sink.document_end();
    }
  } catch (const std::bad_alloc &) {
    return error{error_code::out_of_memory, 0};
  }
}

result<uint64_t> validate_stream(stream_source &source, const block_options &options) noexcept {
  block_reader reader(source, options);
  for (;;) {
    const result<bool> r = reader.next();
    if (!r.ok()) { return r.error(); }
    if (!r.value()) { return reader.count(); }
  }
}

} // namespace simdbridge
