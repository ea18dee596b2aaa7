// SPDX-License-Identifier: Apache-2.0
// The two logarithms shortest_decimal.cpp needs, as integer multiply-and-shifts: exact for every
// binary exponent a double has (core/tests/writer/shortest_decimal_test.cpp checks them all).
#ifndef SIMDBRIDGE_SRC_DECIMAL_LOGARITHMS_H
#define SIMDBRIDGE_SRC_DECIMAL_LOGARITHMS_H

#include <cstdint>

namespace simdbridge::internal {

/** floor(q log10 2); 661971961083 / 2^41 is log10 2 to 12 digits. */
inline int floor_log10_pow2(int q) { return int((int64_t(q) * 661971961083LL) >> 41); }

/** floor(q log10 2 + log10 3/4); 274743187321 / 2^41 is -log10 3/4 to 12 digits. */
inline int floor_log10_three_quarters_pow2(int q) { return int((int64_t(q) * 661971961083LL - 274743187321LL) >> 41); }

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_SRC_DECIMAL_LOGARITHMS_H
