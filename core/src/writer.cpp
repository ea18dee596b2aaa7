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

/** Whether byte c is escaped. */
template <bool escape_del> inline bool needs_escape(uint8_t c) {
  return c < 0x20 || c == '"' || c == '\\' || (escape_del && c == 0x7F);
}

/** A byte that needs_escape, escaped at d (room for 8 bytes); returns the end. */
template <bool escape_del> inline uint8_t *escaped(uint8_t *d, uint8_t c) {
  if (escape_del && c == 0x7F) { return d + put_unicode_escape(d, c); }
  std::memcpy(d, &ascii.word[c], 8);
  return d + ascii.length[c];
}

/** Bytes at d, one at a time. */
template <bool escape_del> inline uint8_t *bytewise(const uint8_t *s, size_t n, uint8_t *d) {
  for (size_t i = 0; i < n; i++) {
    if (needs_escape<escape_del>(s[i])) {
      d = escaped<escape_del>(d, s[i]);
    } else {
      *d++ = s[i];
    }
  }
  return d;
}

#if defined(__SSE2__)
/** The bytes of v that need an escape, a bit each: controls (below 0x20 unsigned, so that UTF-8's
 *  high bytes are not), '"', '\\', and DEL where asked. v ^ 2 is at most 0x20 for the controls
 *  and for '"' (0x22) alone: one test for both. */
template <bool escape_del> inline uint32_t escapes(__m128i v) {
  const __m128i space = _mm_set1_epi8(0x20);
  __m128i m = _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(_mm_xor_si128(v, _mm_set1_epi8(2)), space), space),
                           _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
  if (escape_del) { m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F))); }
  return uint32_t(_mm_movemask_epi8(m));
}

#if defined(__SANITIZE_ADDRESS__) // GCC's
#define SIMDBRIDGE_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) // Clang's (the fuzzers')
#define SIMDBRIDGE_ADDRESS_SANITIZER 1
#endif
#endif
/**
 * Whether the 16 bytes from p are readable because p's are: they lie in its page. Reading past a
 * string's end is then harmless (the bytes past it are masked off), but a sanitizer reports it:
 * its builds go byte by byte instead.
 */
inline bool vector_in_page([[maybe_unused]] const uint8_t *p) {
#if defined(SIMDBRIDGE_ADDRESS_SANITIZER)
  return false;
#else
  return (reinterpret_cast<uintptr_t>(p) & 4095) <= 4096 - 16;
#endif
}

/**
 * s[i, n), fewer than 16 bytes, at d: loaded as one vector and stored whole (the bytes past n are
 * written over later or lie past the result), up to the next escape; byte by byte where the
 * vector would cross a page.
 */
template <bool escape_del>
[[gnu::always_inline]] inline uint8_t *tail(const uint8_t *s, size_t i, size_t n, uint8_t *d) {
  while (i < n) {
    if (!vector_in_page(s + i)) {
      d = bytewise<escape_del>(s + i++, 1, d);
      continue;
    }
    const size_t rest = n - i;
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(d), v);
    const uint32_t found = escapes<escape_del>(v) & ((1u << rest) - 1);
    if (found == 0) { return d + rest; }
    const size_t j = size_t(__builtin_ctz(found));
    d = escaped<escape_del>(d + j, s[i + j]);
    i += j + 1;
  }
  return d;
}

/** 16 bytes at a time, each stored whole and the output going on from its first escape. */
template <bool escape_del> [[gnu::always_inline]] inline size_t blocks_of_16(const uint8_t *s, size_t n, uint8_t *&d) {
  size_t i = 0;
  while (i + 16 <= n) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(d), v);
    const uint32_t found = escapes<escape_del>(v);
    if (found == 0) {
      d += 16;
      i += 16;
      continue;
    }
    const size_t j = size_t(__builtin_ctz(found));
    d = escaped<escape_del>(d + j, s[i + j]);
    i += j + 1;
  }
  return i;
}

/**
 * Text of up to 32 bytes with nothing to escape (most strings), stored whole: from 16 bytes as
 * two vectors, the first and the last 16 (overlapping below 32), and from 1 to 15 as one read in
 * its page. False, with nothing written, for any other text.
 */
template <bool escape_del> [[gnu::always_inline]] inline bool short_and_plain(const uint8_t *s, size_t n, uint8_t *d) {
  if (n >= 16) {
    if (n > 32) { return false; }
    const __m128i first = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s));
    const __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + n - 16));
    if ((escapes<escape_del>(first) | escapes<escape_del>(last)) != 0) { return false; }
    _mm_storeu_si128(reinterpret_cast<__m128i *>(d), first);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(d + n - 16), last);
    return true;
  }
  if (n == 0) { return true; } // s may point past a readable byte
  if (!vector_in_page(s)) { return false; }
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s));
  if ((escapes<escape_del>(v) & ((1u << n) - 1)) != 0) { return false; }
  _mm_storeu_si128(reinterpret_cast<__m128i *>(d), v);
  return true;
}
#endif

/** The inside of a JSON string (write_json_escaped_utf8) at out; returns the bytes written. */
template <bool escape_del> [[gnu::always_inline]] inline size_t escaped_utf8(const uint8_t *s, size_t n, uint8_t *out) {
#if defined(__SSE2__)
  if (short_and_plain<escape_del>(s, n, out)) { return n; }
  uint8_t *d = out;
  const size_t i = blocks_of_16<escape_del>(s, n, d);
  return size_t(tail<escape_del>(s, i, n, d) - out);
#else
  return size_t(bytewise<escape_del>(s, n, out) - out);
#endif
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
  // Whether eight units go out as they are, a byte each. Non-zero lanes of `work`: past ASCII
  // (v - 0x7F saturates to 0 below it), a control character (0x20 - v saturates to 0 from it
  // on), a quote or a backslash.
  const auto plain = [&](__m128i v) {
    const __m128i work = _mm_or_si128(
        _mm_or_si128(_mm_subs_epu16(v, ascii_max), _mm_subs_epu16(below_space, v)),
        _mm_or_si128(_mm_cmpeq_epi16(v, quote), _mm_cmpeq_epi16(v, backslash)));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(work, _mm_setzero_si128())) == 0xFFFF;
  };
  while (i + 8 <= units) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(text + i));
    if (i + 16 <= units) { // sixteen in one store where both halves are plain
      const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i *>(text + i + 8));
      if (plain(v) && plain(w)) {
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out + p), _mm_packus_epi16(v, w));
        p += 16;
        i += 16;
        continue;
      }
    }
    if (plain(v)) {
      _mm_storel_epi64(reinterpret_cast<__m128i *>(out + p), _mm_packus_epi16(v, v)); // 8 ASCII bytes
      p += 8;
      i += 8;
      continue;
    }
    // These eight one at a time (a surrogate pair may take one more).
    for (const size_t end = i + 8; i < end;) { p += put_unit(text, units, i, out + p); }
  }
  // The last units (fewer than eight): where the text's last eight are plain, as one vector,
  // stored over the bytes of the units before them, which went out a byte each as they are.
  if (units >= 8 && i < units) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(text + units - 8));
    if (plain(v)) {
      _mm_storel_epi64(reinterpret_cast<__m128i *>(out + p - (i - (units - 8))), _mm_packus_epi16(v, v));
      p += units - i;
      i = units;
    }
  }
#endif
  while (i < units) { p += put_unit(text, units, i, out + p); }
  out[p++] = '"';
  return p;
}

size_t write_json_string_utf8(const uint8_t *text, size_t bytes, uint8_t *out) noexcept {
  out[0] = '"';
  const size_t n = 1 + escaped_utf8<false>(text, bytes, out + 1);
  out[n] = '"';
  return n + 1;
}

size_t write_json_escaped_utf8(const uint8_t *text, size_t bytes, uint8_t *out, bool escape_del) noexcept {
  return escape_del ? escaped_utf8<true>(text, bytes, out) : escaped_utf8<false>(text, bytes, out);
}

} // namespace simdbridge
