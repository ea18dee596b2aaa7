// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_COLUMNS_H
#define SIMDBRIDGE_COLUMNS_H

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "simdbridge/simdbridge_c.h"

namespace simdbridge {

/** What a column holds; the values of the C API's simdbridge_column_type. */
enum class column_type : int32_t {
  /** int64_t per row. Integers only: a float, or an integer past the int64 range, is an error. */
  int64 = SIMDBRIDGE_COLUMN_INT64,
  /** double per row. Integers are converted (an integer past 2^53 is rounded). */
  float64 = SIMDBRIDGE_COLUMN_FLOAT64,
  /** uint8_t per row: 1 for true, 0 for false. */
  boolean = SIMDBRIDGE_COLUMN_BOOLEAN,
  /** int32_t offsets (rows + 1) into string_bytes, which hold the unescaped UTF-8. */
  string = SIMDBRIDGE_COLUMN_STRING,
};

/**
 * One column of a batch extraction: a JSON Pointer (RFC 6901) into every record, and the
 * caller's buffers the values go to. The layout is the C API's simdbridge_column.
 *
 * For `rows` rows, `values` holds rows elements (rows + 1 offsets for strings) and `validity`
 * (rows + 7) / 8 bytes: bit (row % 8) of byte (row / 8) is 1 where the record has a non-null
 * value at the pointer, 0 where the pointer leads nowhere or to null (the bitmap of Apache Arrow).
 */
using column = simdbridge_column;

/** The outcome of parser::extract besides the error. */
struct extract_status {
  /** Records written to the columns. */
  uint64_t rows = 0;
  /** Bytes of the input read: a call that stopped early (rows or string bytes full) goes on here. */
  uint64_t consumed = 0;
  /** The column of a type mismatch or an invalid pointer; -1 otherwise. */
  int32_t error_column = -1;
};

} // namespace simdbridge

#endif // SIMDBRIDGE_COLUMNS_H
