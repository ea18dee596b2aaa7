// SPDX-License-Identifier: Apache-2.0
#include "simdbridge/writer.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simdbridge {
namespace {

constexpr char hex_digits[] = "0123456789abcdef";

/**
 * Per ASCII byte, what is written for it, as the bytes of a little-endian word (up to 6 of them:
 * the byte itself, \n, or \u00xx), and how many: one 8-byte store and an add, with no branch.
 */
struct ascii_table {
  uint64_t word[128];
  uint8_t length[128];
  constexpr ascii_table() : word(), length() {
    for (int c = 0; c < 128; c++) {
      word[c] = uint64_t(c);
      length[c] = 1;
    }
    for (int c = 0; c < 0x20; c++) {
      const uint64_t hi = uint64_t(hex_digits[c >> 4]), lo = uint64_t(hex_digits[c & 0xF]);
      word[c] = uint64_t('\\') | uint64_t('u') << 8 | uint64_t('0') << 16 | uint64_t('0') << 24 | hi << 32 | lo << 40;
      length[c] = 6;
    }
    const char shorts[][2] = {{'\b', 'b'}, {'\t', 't'}, {'\n', 'n'}, {'\f', 'f'}, {'\r', 'r'}, {'"', '"'}, {'\\', '\\'}};
    for (const auto &e : shorts) {
      word[uint8_t(e[0])] = uint64_t('\\') | uint64_t(uint8_t(e[1])) << 8;
      length[uint8_t(e[0])] = 2;
    }
  }
};
constexpr ascii_table ascii{};

inline size_t put_unicode_escape(uint8_t *out, uint32_t c) noexcept {
  out[0] = '\\';
  out[1] = 'u';
  out[2] = uint8_t(hex_digits[(c >> 12) & 0xF]);
  out[3] = uint8_t(hex_digits[(c >> 8) & 0xF]);
  out[4] = uint8_t(hex_digits[(c >> 4) & 0xF]);
  out[5] = uint8_t(hex_digits[c & 0xF]);
  return 6;
}

/** One code unit (two for a surrogate pair) at text[i]; i moves past what was read. */
inline size_t put_unit(const char16_t *text, size_t units, size_t &i, uint8_t *out) noexcept {
  const uint32_t c = text[i++];
  if (c < 0x80) {
    std::memcpy(out, &ascii.word[c], 8); // the caller's capacity holds 8 bytes from any unit's start
    return ascii.length[c];
  }
  if (c < 0x800) {
    out[0] = uint8_t(0xC0 | (c >> 6));
    out[1] = uint8_t(0x80 | (c & 0x3F));
    return 2;
  }
  if (c - 0xD800 >= 0x800) { // not a surrogate
    out[0] = uint8_t(0xE0 | (c >> 12));
    out[1] = uint8_t(0x80 | ((c >> 6) & 0x3F));
    out[2] = uint8_t(0x80 | (c & 0x3F));
    return 3;
  }
  if (c < 0xDC00 && i < units && uint32_t(text[i]) - 0xDC00 < 0x400) {
    const uint32_t cp = 0x10000 + ((c - 0xD800) << 10) + (uint32_t(text[i++]) - 0xDC00);
    out[0] = uint8_t(0xF0 | (cp >> 18));
    out[1] = uint8_t(0x80 | ((cp >> 12) & 0x3F));
    out[2] = uint8_t(0x80 | ((cp >> 6) & 0x3F));
    out[3] = uint8_t(0x80 | (cp & 0x3F));
    return 4;
  }
  return put_unicode_escape(out, c); // a lone surrogate
}

} // namespace

size_t write_json_string(const char16_t *text, size_t units, uint8_t *out) noexcept {
  size_t p = 0;
  out[p++] = '"';
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i below_space = _mm_set1_epi16(0x20);
  const __m128i ascii_max = _mm_set1_epi16(0x7F);
  const __m128i quote = _mm_set1_epi16('"');
  const __m128i backslash = _mm_set1_epi16('\\');
  while (i + 8 <= units) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(text + i));
    // Non-zero lanes: past ASCII (v - 0x7F saturates to 0 below it), a control character
    // (0x20 - v saturates to 0 from it on), a quote or a backslash.
    const __m128i work = _mm_or_si128(
        _mm_or_si128(_mm_subs_epu16(v, ascii_max), _mm_subs_epu16(below_space, v)),
        _mm_or_si128(_mm_cmpeq_epi16(v, quote), _mm_cmpeq_epi16(v, backslash)));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(work, _mm_setzero_si128())) == 0xFFFF) {
      _mm_storel_epi64(reinterpret_cast<__m128i *>(out + p), _mm_packus_epi16(v, v)); // 8 ASCII bytes
      p += 8;
      i += 8;
      continue;
    }
    // These eight one at a time (a surrogate pair may take one more).
    for (const size_t end = i + 8; i < end;) { p += put_unit(text, units, i, out + p); }
  }
#endif
  while (i < units) { p += put_unit(text, units, i, out + p); }
  out[p++] = '"';
  return p;
}

size_t write_json_string_utf8(const uint8_t *text, size_t bytes, uint8_t *out) noexcept {
  size_t p = 0;
  out[p++] = '"';
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  while (i + 16 <= bytes) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(text + i));
    // A control character: below 0x20 as a signed byte and not negative (UTF-8's high bytes are).
    const __m128i control = _mm_andnot_si128(_mm_cmplt_epi8(v, _mm_setzero_si128()), _mm_cmplt_epi8(v, space));
    const __m128i work = _mm_or_si128(control, _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    const int mask = _mm_movemask_epi8(work);
    if (mask == 0) {
      _mm_storeu_si128(reinterpret_cast<__m128i *>(out + p), v);
      p += 16;
      i += 16;
      continue;
    }
    const int run = __builtin_ctz(unsigned(mask)); // bytes before the first that needs escaping
    std::memcpy(out + p, text + i, size_t(run));
    p += size_t(run);
    i += size_t(run);
    const uint8_t c = text[i++];
    std::memcpy(out + p, &ascii.word[c], 8);
    p += ascii.length[c];
  }
  // The last bytes (fewer than 16; most keys and short strings are nothing else): from 4 on, as
  // two words read from the string itself, the first at its place and the second ending at its
  // last byte (overlapping where they meet), checked at once and stored the same way where none
  // needs escaping; byte by byte below where one does. (Copied first into a block on the stack,
  // the block's load waited on the copy's stores: half this function's time on twitter.json.)
  const auto needs_work = [&](__m128i v) {
    const __m128i control = _mm_andnot_si128(_mm_cmplt_epi8(v, _mm_setzero_si128()), _mm_cmplt_epi8(v, space));
    return _mm_movemask_epi8(
        _mm_or_si128(control, _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash))));
  };
  const size_t left = bytes - i;
  if (left >= 8) {
    const __m128i first = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(text + i));
    const __m128i last = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(text + bytes - 8));
    if (needs_work(_mm_unpacklo_epi64(first, last)) == 0) {
      _mm_storel_epi64(reinterpret_cast<__m128i *>(out + p), first);
      _mm_storel_epi64(reinterpret_cast<__m128i *>(out + p + left - 8), last);
      p += left;
      i = bytes;
    }
  } else if (left >= 4) {
    uint32_t first, last;
    std::memcpy(&first, text + i, 4);
    std::memcpy(&last, text + bytes - 4, 4);
    const __m128i v = _mm_unpacklo_epi32(_mm_cvtsi32_si128(int(first)), _mm_cvtsi32_si128(int(last)));
    if ((needs_work(v) & 0xFF) == 0) { // (the lanes past the two words are zero)
      std::memcpy(out + p, &first, 4);
      std::memcpy(out + p + left - 4, &last, 4);
      p += left;
      i = bytes;
    }
  }
#endif
  for (; i < bytes; i++) {
    const uint8_t c = text[i];
    if (c >= 0x80) {
      out[p++] = c;
    } else {
      std::memcpy(out + p, &ascii.word[c], 8); // 8 bytes of room from any byte's start (6 a byte, 10 more)
      p += ascii.length[c];
    }
  }
  out[p++] = '"';
  return p;
}

} // namespace simdbridge
