// SPDX-License-Identifier: Apache-2.0
// Counting line ends: the stream readers' line numbers and the Arrow block walk's check that
// every line end of a block lies between its records.
#ifndef SIMDBRIDGE_STREAM_NEWLINES_H
#define SIMDBRIDGE_STREAM_NEWLINES_H

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simdbridge::internal {

/**
 * The newlines in [p, p + n): 16 bytes a step where SSE2 is there (every x86-64), each lane's
 * matches summed in a byte for up to 255 steps, then across lanes. std::count, vectorized by
 * the compiler, widens each match to 64 bits and ran at about 3 GB/s, a third of the time to
 * read the blocks.
 */
inline uint64_t count_newlines(const uint8_t *p, size_t n) noexcept {
  uint64_t total = 0;
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  while (i + 16 <= n) {
    __m128i lanes = _mm_setzero_si128();
    for (int k = 0; k < 255 && i + 16 <= n; k++, i += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + i));
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(bytes, newline)); // a match is -1
    }
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128()); // two 16-bit sums
    total += uint64_t(_mm_extract_epi16(sums, 0)) + uint64_t(_mm_extract_epi16(sums, 4));
  }
#endif
  for (; i < n; i++) { total += p[i] == '\n'; }
  return total;
}

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_STREAM_NEWLINES_H
