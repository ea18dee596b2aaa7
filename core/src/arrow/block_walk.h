// SPDX-License-Identifier: Apache-2.0
// The NDJSON reader's fast path: simdjson's stage 1 over a whole block of lines, then one pass
// over its structural index that checks the grammar and appends each value straight into its
// Arrow column, with no DOM built. Keys are matched to the schema's fields by their raw bytes
// (in the schema's order first, as records usually come); the values of keys the schema lacks
// are skipped over the index, still validated unless the caller turns that off.
//
// It refuses (returns false) on anything it does not take: an error of any kind, a value of the
// wrong type, a number past 64 bits, a record nested near the depth limit. The caller then reads
// the block again with the record-at-a-time reader, the arbiter, which names the error or reads
// what this pass declined. Both give the same columns for every block both read.
#ifndef SIMDBRIDGE_SRC_ARROW_BLOCK_WALK_H
#define SIMDBRIDGE_SRC_ARROW_BLOCK_WALK_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include <simdjson.h>

#include "builder.h"
#include "simdbridge/arrow.h"

namespace simdbridge::arrow {

/**
 * Reads the records of `size` bytes of whole lines at `bytes` into `batch` (a struct column of
 * the record's fields), counting them in `records`. The bytes must be followed by at least
 * 128 readable bytes (the input's next block, or padding). `dom` must take `size` bytes;
 * `scratch` is working memory. False where it refuses (see above): `batch` is then half
 * written and must be thrown away. With `bad` (one record at a time, where bad records are kept
 * or dropped), a value of the wrong type is not a refusal: the innermost struct field holding
 * it is null, `*bad` is set, and the walk goes on (a value that is not valid JSON still
 * refuses). Throws std::bad_alloc.
 */
bool read_block(simdjson::dom::parser &dom, const uint8_t *bytes, size_t size, const arrow_read_options &options,
                column &batch, uint64_t &records, std::vector<uint8_t> &scratch, bool *bad = nullptr);

} // namespace simdbridge::arrow

#endif // SIMDBRIDGE_SRC_ARROW_BLOCK_WALK_H
