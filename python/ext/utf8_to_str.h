// SPDX-License-Identifier: Apache-2.0
// Valid UTF-8 (what the core's tapes hold) into Python str objects, by the narrowest kind that
// holds it: ASCII with one copy; otherwise the characters counted and the widest one's class
// found sixteen bytes at a time, then decoded into the str's UCS-1, UCS-2 or UCS-4 data
// (AVX-512 where the CPU has it, SSE2 otherwise). Used by builder.cpp (values and keys).
#ifndef SIMDBRIDGE_PYTHON_UTF8_TO_STR_H
#define SIMDBRIDGE_PYTHON_UTF8_TO_STR_H

#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simdbridge::python {
namespace {

/** One UTF-8 sequence at s[i] (valid, not ASCII) as a code point; i moves past it. */
inline uint32_t decode_sequence(const uint8_t *s, size_t &i) noexcept {
  uint32_t c = s[i];
  if (c < 0xE0) {
    c = ((c & 0x1F) << 6) | (s[i + 1] & 0x3F);
    i += 2;
  } else if (c < 0xF0) {
    c = ((c & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
    i += 3;
  } else {
    c = ((c & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12) | ((s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);
    i += 4;
  }
  return c;
}

#if defined(__SSE2__)
/** Sixteen ASCII bytes as sixteen characters of `Char` (SSE2: every x86-64 has it). */
template <typename Char> inline void widen16(__m128i v, Char *out) noexcept {
  if constexpr (sizeof(Char) == 1) {
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), v);
  } else if constexpr (sizeof(Char) == 2) {
    const __m128i zero = _mm_setzero_si128();
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), _mm_unpacklo_epi8(v, zero));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + 8), _mm_unpackhi_epi8(v, zero));
  } else {
    const __m128i zero = _mm_setzero_si128();
    const __m128i lo = _mm_unpacklo_epi8(v, zero), hi = _mm_unpackhi_epi8(v, zero);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), _mm_unpacklo_epi16(lo, zero));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + 4), _mm_unpackhi_epi16(lo, zero));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + 8), _mm_unpacklo_epi16(hi, zero));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + 12), _mm_unpackhi_epi16(hi, zero));
  }
}
#endif

/**
 * Writes the characters of valid UTF-8 into `out`: ASCII sixteen bytes at a time where the next
 * sixteen are ASCII (long runs of mostly-ASCII text), a sequence at a time otherwise (runs of
 * CJK text stay in the tight branch). Writes exactly the characters there are: `out` holds no more.
 */
template <typename Char>
void decode_into(const uint8_t *s, size_t n, Char *out) noexcept {
  size_t i = 0;
  while (i < n) {
    if (s[i] >= 0x80) {
      *out++ = Char(decode_sequence(s, i));
      continue;
    }
#if defined(__SSE2__)
    if (i + 16 <= n) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i));
      const unsigned non_ascii = unsigned(_mm_movemask_epi8(v));
      if (non_ascii == 0) {
        widen16(v, out);
        out += 16;
        i += 16;
        continue;
      }
      // The ASCII bytes before the first that is not (at least one: s[i] is ASCII).
      const unsigned ascii = unsigned(__builtin_ctz(non_ascii));
      for (unsigned k = 0; k < ascii; k++) { out[k] = Char(s[i + k]); }
      out += ascii;
      i += ascii;
      continue;
    }
#endif
    *out++ = Char(s[i++]);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define SIMDBRIDGE_AVX512_DECODE 1
/**
 * Valid UTF-8 without 4-byte sequences (every character in the BMP) into UCS-2 or Latin-1 (a
 * `Char` of 2 or 1 bytes), 32 input bytes per step with AVX-512 (BW, VL, VBMI2: Ice Lake, Zen 4).
 * Each byte position is decoded as if a character began there (from it and the two bytes after
 * it, as 16-bit lanes), and the lanes where one does begin (bytes that are not continuations)
 * are compressed to the front and stored. A character whose bytes cross into the next block is
 * whole here; its continuations there are skipped. Loads and stores are masked to the string
 * and to the characters written: nothing is read or written past either end.
 */
template <typename Char>
[[gnu::target("avx512f,avx512bw,avx512vl,avx512vbmi2,bmi2,popcnt")]] void decode_bmp_avx512(const uint8_t *s, size_t n, Char *out) noexcept {
  const __m512i low6 = _mm512_set1_epi16(0x3F), low5 = _mm512_set1_epi16(0x1F);
  const __m256i top2 = _mm256_set1_epi8(char(0xC0)), continuation = _mm256_set1_epi8(char(0x80));
  for (size_t i = 0; i < n; i += 32) {
    const size_t left = n - i;
    const auto within = [left](size_t from) -> __mmask32 {
      return left <= from ? 0 : left - from >= 32 ? ~__mmask32(0) : __mmask32((1u << (left - from)) - 1);
    };
    const __mmask32 m0 = within(0);
    const __m256i bytes = _mm256_maskz_loadu_epi8(m0, s + i);
    const __m512i b0 = _mm512_cvtepu8_epi16(bytes);
    const __m512i b1 = _mm512_and_si512(_mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(within(1), s + i + 1)), low6);
    const __m512i b2 = _mm512_and_si512(_mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(within(2), s + i + 2)), low6);
    // b0 < 0x80: b0; b0 < 0xE0: 5 + 6 bits; otherwise 4 + 6 + 6 bits (the lead's top bits fall off 16).
    const __m512i two = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(b0, low5), 6), b1);
    const __m512i three = _mm512_or_si512(_mm512_or_si512(_mm512_slli_epi16(b0, 12), _mm512_slli_epi16(b1, 6)), b2);
    __m512i value = _mm512_mask_blend_epi16(_mm512_cmpge_epu16_mask(b0, _mm512_set1_epi16(0xE0)), two, three);
    value = _mm512_mask_blend_epi16(_mm512_cmplt_epu16_mask(b0, _mm512_set1_epi16(0x80)), value, b0);
    const __mmask32 starts = m0 & ~_mm256_cmpeq_epi8_mask(_mm256_and_si256(bytes, top2), continuation);
    const __m512i packed = _mm512_maskz_compress_epi16(starts, value);
    const unsigned count = unsigned(_mm_popcnt_u32(starts));
    const __mmask32 written = __mmask32(_bzhi_u32(~0u, count));
    if constexpr (sizeof(Char) == 2) {
      _mm512_mask_storeu_epi16(out, written, packed);
    } else {
      _mm256_mask_storeu_epi8(out, written, _mm512_cvtepi16_epi8(packed));
    }
    out += count;
  }
}

/**
 * Whether decode_bmp_avx512 is used: where this CPU (and its OS) runs it, unless the environment
 * variable SIMDBRIDGE_NO_AVX512 is set (the tests run the portable decoder that way). Looked up
 * once, when the module is loaded.
 */
const bool has_avx512_decode = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi2") &&
                               __builtin_cpu_supports("bmi2") && std::getenv("SIMDBRIDGE_NO_AVX512") == nullptr;
#endif

/** Characters in valid UTF-8 (bytes that are not continuations), and the widest one's class. */
struct utf8_census {
  size_t characters = 0;
  bool beyond_latin1 = false; // a lead byte 0xC4 or more: some character past U+00FF
  bool beyond_bmp = false;    // a lead byte 0xF0 or more: some character past U+FFFF
};

inline utf8_census census(const uint8_t *s, size_t n) noexcept {
  size_t continuations = 0;
  utf8_census c;
#if defined(__SSE2__)
  // Sixteen bytes at a time, the last block too: a tape's strings are followed by their NUL and
  // simdjson's padding, so reading up to 15 bytes past the end stays in the buffer, and the bytes
  // past the end are masked to zero (ASCII, which counts for nothing). As signed bytes:
  // continuations (0x80-0xBF) are below -64; leads from 0xC4 are -60 to -1, from 0xF0 -16 to -1.
  // Counts add up per byte lane (a compare gives -1) and are summed every 255 rounds.
  __m128i wide = _mm_setzero_si128(), past_bmp = _mm_setzero_si128();
  const __m128i below_c4 = _mm_set1_epi8(-61), below_f0 = _mm_set1_epi8(-17), continuation_max = _mm_set1_epi8(-64);
  const __m128i zero = _mm_setzero_si128();
  const __m128i lane = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  size_t i = 0;
  while (i < n) {
    __m128i counts = _mm_setzero_si128();
    for (int round = 0; round < 255 && i < n; round++, i += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i));
      if (n - i < 16) { v = _mm_and_si128(v, _mm_cmpgt_epi8(_mm_set1_epi8(char(n - i)), lane)); }
      if (_mm_movemask_epi8(v) == 0) { continue; } // ASCII: nothing to count
      counts = _mm_sub_epi8(counts, _mm_cmpgt_epi8(continuation_max, v) /* v < -64 */);
      const __m128i negative = _mm_cmplt_epi8(v, zero);
      wide = _mm_or_si128(wide, _mm_and_si128(negative, _mm_cmpgt_epi8(v, below_c4)));
      past_bmp = _mm_or_si128(past_bmp, _mm_and_si128(negative, _mm_cmpgt_epi8(v, below_f0)));
    }
    const __m128i sums = _mm_sad_epu8(counts, zero);
    continuations += size_t(_mm_cvtsi128_si64(sums)) + size_t(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
  c.beyond_latin1 = _mm_movemask_epi8(wide) != 0;
  c.beyond_bmp = _mm_movemask_epi8(past_bmp) != 0;
#else
  for (size_t i = 0; i < n; i++) {
    continuations += (s[i] & 0xC0) == 0x80;
    c.beyond_latin1 |= s[i] >= 0xC4;
    c.beyond_bmp |= s[i] >= 0xF0;
  }
#endif
  c.characters = n - continuations;
  return c;
}

/** Valid UTF-8 whose characters are all in the BMP into a str's UCS-1 or UCS-2 data. */
template <typename Char> inline void decode_bmp(const uint8_t *s, size_t n, Char *out) noexcept {
#ifdef SIMDBRIDGE_AVX512_DECODE
  if (has_avx512_decode) {
    decode_bmp_avx512(s, n, out);
    return;
  }
#endif
  decode_into(s, n, out);
}

/**
 * Whether n bytes are all ASCII: the bytes OR-ed together sixteen at a time, the last sixteen
 * overlapping the block before them, so nothing past the string is read; short strings by
 * overlapping words. Most strings in JSON are ASCII: this is the whole check for them, a third
 * of census()'s work.
 */
inline bool all_ascii(const uint8_t *s, size_t n) noexcept {
#if defined(__SSE2__)
  if (n >= 16) {
    const auto at = [s](size_t i) { return _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i)); };
    __m128i any = at(n - 16);
    size_t i = 0;
    for (; i + 32 < n; i += 32) { any = _mm_or_si128(any, _mm_or_si128(at(i), at(i + 16))); }
    if (i + 16 < n) { any = _mm_or_si128(any, at(i)); }
    return _mm_movemask_epi8(any) == 0;
  }
#endif
  uint64_t any = 0;
  if (n >= 8) {
    uint64_t first, last;
    std::memcpy(&first, s, 8);
    std::memcpy(&last, s + n - 8, 8);
    any = first | last;
    for (size_t i = 8; i + 8 < n; i += 8) { // (without SSE2: the blocks between)
      uint64_t w;
      std::memcpy(&w, s + i, 8);
      any |= w;
    }
  } else if (n >= 4) {
    uint32_t first, last;
    std::memcpy(&first, s, 4);
    std::memcpy(&last, s + n - 4, 4);
    any = first | last;
  } else {
    for (size_t i = 0; i < n; i++) { any |= s[i]; }
  }
  return (any & 0x8080808080808080ULL) == 0;
}

/** A str of n ASCII bytes: one copy. */
inline PyObject *ascii_str(const char *p, size_t n) {
  PyObject *s = PyUnicode_New(Py_ssize_t(n), 127);
  if (s != nullptr) { std::memcpy(PyUnicode_1BYTE_DATA(s), p, n); }
  return s;
}

/**
 * A str from valid UTF-8 (simdjson validated it): ASCII copied; otherwise counted, then decoded
 * into the narrowest kind.
 */
PyObject *make_str(const char *p, size_t n) {
  const auto *s = reinterpret_cast<const uint8_t *>(p);
  if (all_ascii(s, n)) { return ascii_str(p, n); }
  const utf8_census c = census(s, n);
  const Py_UCS4 max_char = c.beyond_bmp ? 0x10FFFF : c.beyond_latin1 ? 0xFFFF : 0xFF;
  PyObject *out = PyUnicode_New(Py_ssize_t(c.characters), max_char);
  if (out == nullptr) { return nullptr; }
  switch (PyUnicode_KIND(out)) {
  case PyUnicode_1BYTE_KIND: decode_bmp(s, n, PyUnicode_1BYTE_DATA(out)); break;
  case PyUnicode_2BYTE_KIND: decode_bmp(s, n, PyUnicode_2BYTE_DATA(out)); break;
  default: decode_into(s, n, PyUnicode_4BYTE_DATA(out)); break;
  }
  return out;
}

} // namespace
} // namespace simdbridge::python

#endif // SIMDBRIDGE_PYTHON_UTF8_TO_STR_H
