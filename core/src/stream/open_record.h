// SPDX-License-Identifier: Apache-2.0
// The rule by which a reader of a stream stops reading a record that has no end yet.
#ifndef SIMDBRIDGE_STREAM_OPEN_RECORD_H
#define SIMDBRIDGE_STREAM_OPEN_RECORD_H

#include <algorithm>
#include <cstddef>

#include "simdbridge/stream.h"

namespace simdbridge::internal {

/**
 * Whether a reader holding `held` bytes of a record with no end yet reads it as it is now
 * (fails_before_its_end): once it holds twice the reader's `step` and twice what it held at its
 * last such try (`tried`, 0 for none since a record ended). The tries of a record that keeps
 * growing then cost about one more read of it in all, whatever its length, and bytes that are
 * not JSON are refused within a few steps.
 */
constexpr bool due_a_try(size_t held, size_t step, size_t tried) noexcept { return held >= 2 * std::max(step, tried); }

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
