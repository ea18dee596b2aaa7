// SPDX-License-Identifier: Apache-2.0
// The rule by which a reader of a stream stops reading a record that has no end yet.
#ifndef SIMDBRIDGE_STREAM_OPEN_RECORD_H
#define SIMDBRIDGE_STREAM_OPEN_RECORD_H

#include "simdbridge/stream.h"

namespace simdbridge::internal {

/**
 * Whether a record or line with no end yet (`in`), read as it is by `probe` (in its format; a
 * `continuation` of the stream, or its start), goes wrong before its bytes end. An error there
 * is its error wherever it ends (an end too soon at its last byte is what any record cut short
 * gives), so the readers of a stream (block_reader, the Arrow file reader) refuse it then,
 * rather than read on to an end that may never come.
 */
inline bool fails_before_its_end(stream_reader &probe, input in, bool continuation) noexcept {
  probe.reset(in, continuation);
  const result<bool> r = probe.next();
  return !r.ok() && r.error().offset < in.size;
}

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_STREAM_OPEN_RECORD_H
