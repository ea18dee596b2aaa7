// SPDX-License-Identifier: Apache-2.0
// Writes the binding tape (simdbridge/binding_tape.h) from the parse events of either reader: the
// structural walk and the scalar parser, both of which hand over raw string tokens, unescaped here
// straight into the caller's array. Past the caller's capacity it keeps counting, so that the
// caller learns the sizes it needs.
#ifndef SIMDBRIDGE_SRC_BINDING_TAPE_SINK_H
#define SIMDBRIDGE_SRC_BINDING_TAPE_SINK_H

#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "simdbridge/binding_tape.h"

#if defined(__GNUC__)
#define SIMDBRIDGE_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define SIMDBRIDGE_ALWAYS_INLINE inline
#endif

namespace simdbridge::internal {

/** A hex digit's value, or 0xFF. */
struct hex_table {
  uint8_t value[256];
  constexpr hex_table() : value() {
    for (int c = 0; c < 256; c++) {
      value[c] = c >= '0' && c <= '9' ? uint8_t(c - '0') : c >= 'a' && c <= 'f' ? uint8_t(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? uint8_t(c - 'A' + 10) : 0xFF;
    }
  }
};
inline constexpr hex_table hex_digits{};

/** What a two-character escape stands for ("\\n": '\n'), or 0 where it is not one. */
struct escape_table {
  uint8_t value[256];
  constexpr escape_table() : value() {
    value['"'] = '"';
    value['\\'] = '\\';
    value['/'] = '/';
    value['b'] = '\b';
    value['f'] = '\f';
    value['n'] = '\n';
    value['r'] = '\r';
    value['t'] = '\t';
  }
};
inline constexpr escape_table simple_escapes{};

namespace detail {

/**
 * all_ascii's one loop; with `List`, the input's backslashes listed as well (see the second
 * all_ascii).
 */
template <bool List>
inline bool all_ascii(const uint8_t *p, size_t n, uint32_t *escapes, size_t most, bool &listed) noexcept {
  size_t i = 0, k = 0;
  listed = List;
  [[maybe_unused]] const auto list = [&](uint64_t bits, size_t at) {
    for (; bits != 0; bits &= bits - 1) {
      if (k == most) {
        listed = false;
        return;
      }
      escapes[k++] = uint32_t(at + size_t(__builtin_ctzll(bits)));
    }
  };
#if defined(__SSE2__)
  [[maybe_unused]] const __m128i slash = _mm_set1_epi8('\\');
  __m128i any = _mm_setzero_si128();
  while (i + 64 <= n) {
    const size_t stop = n - i >= 1024 ? i + 1024 : n - 63;
    for (; i < stop; i += 64) {
      const __m128i *v = reinterpret_cast<const __m128i *>(p + i);
      const __m128i a = _mm_loadu_si128(v), b = _mm_loadu_si128(v + 1), c = _mm_loadu_si128(v + 2),
                    d = _mm_loadu_si128(v + 3);
      any = _mm_or_si128(any, _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)));
      if constexpr (List) {
        const __m128i ea = _mm_cmpeq_epi8(a, slash), eb = _mm_cmpeq_epi8(b, slash), ec = _mm_cmpeq_epi8(c, slash),
                      ed = _mm_cmpeq_epi8(d, slash);
        if (listed && _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(ea, eb), _mm_or_si128(ec, ed))) != 0) {
          list(uint64_t(uint32_t(_mm_movemask_epi8(ea))) | uint64_t(uint32_t(_mm_movemask_epi8(eb))) << 16 |
                   uint64_t(uint32_t(_mm_movemask_epi8(ec))) << 32 | uint64_t(uint32_t(_mm_movemask_epi8(ed))) << 48,
               i);
        }
      }
    }
    if (_mm_movemask_epi8(any) != 0) { return false; }
  }
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + i));
    any = _mm_or_si128(any, v);
    if constexpr (List) {
      if (listed) { list(uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, slash))), i); }
    }
  }
  if (_mm_movemask_epi8(any) != 0) { return false; }
#endif
  uint8_t high = 0;
  for (; i < n; i++) {
    high |= p[i];
    if constexpr (List) {
      if (listed && p[i] == '\\') { list(1, i); }
    }
  }
  if constexpr (List) { escapes[k] = UINT32_MAX; }
  return high < 0x80;
}

} // namespace detail

/**
 * Whether the n bytes at p are all ASCII: 64 bytes a step (SSE2), with a look at what was
 * found every 1 KB (an input that is not stops early), the last bytes one at a time (the bytes
 * past n are not read: the padding is the caller's). Where the whole input is ASCII, no string
 * of it needs the top bits of its bytes tracked (basic_binding_tape_sink's `AsciiInput`).
 */
inline bool all_ascii(const uint8_t *p, size_t n) noexcept {
  bool listed;
  return detail::all_ascii<false>(p, n, nullptr, 0, listed);
}

/**
 * all_ascii, listing besides where the input's backslashes are: their offsets into `escapes`,
 * ascending, then UINT32_MAX (room for `most` + 1). `listed` is false where there were more than
 * `most`. A string with no backslash between its quotes is its bytes as they are (see
 * basic_binding_tape_sink::input_string), and the walk, which meets the strings in order, tells
 * one from the list with a cursor instead of reading its bytes.
 */
inline bool all_ascii(const uint8_t *p, size_t n, uint32_t *escapes, size_t most, bool &listed) noexcept {
  return detail::all_ascii<true>(p, n, escapes, most, listed);
}

/** Four hex digits at p, or false. */
inline bool hex4(const uint8_t *p, uint32_t &code) noexcept {
  const uint32_t a = hex_digits.value[p[0]], b = hex_digits.value[p[1]], c = hex_digits.value[p[2]],
                 d = hex_digits.value[p[3]];
  code = (a << 12) | (b << 8) | (c << 4) | d;
  return ((a | b | c | d) & 0xF0) == 0; // 0xFF, not a digit, has high bits
}

/**
 * The \uXXXX escape at p, joined with the \uXXXX after it where the two make a surrogate
 * pair; p moves past what was read. The code point, or a lone surrogate's code (its caller
 * decides). False where the four digits are not hex.
 */
inline bool unicode_escape(const uint8_t *&p, uint32_t &code) noexcept {
  if (!hex4(p + 2, code)) { return false; }
  p += 6;
  uint32_t low;
  // p[0] and p[1] are read first: the string (quote-terminated, or padded) holds them.
  if (code - 0xD800 < 0x400 && p[0] == '\\' && p[1] == 'u' && hex4(p + 2, low) && low - 0xDC00 < 0x400) {
    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    p += 6;
  }
  return true;
}

/** UTF-8 of a code point; a surrogate (lone) in its generalized 3-byte form. */
inline size_t encode(uint32_t c, uint8_t *out) noexcept {
  if (c < 0x80) {
    out[0] = uint8_t(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = uint8_t(0xC0 | (c >> 6));
    out[1] = uint8_t(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = uint8_t(0xE0 | (c >> 12));
    out[1] = uint8_t(0x80 | ((c >> 6) & 0x3F));
    out[2] = uint8_t(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = uint8_t(0xF0 | (c >> 18));
  out[1] = uint8_t(0x80 | ((c >> 12) & 0x3F));
  out[2] = uint8_t(0x80 | ((c >> 6) & 0x3F));
  out[3] = uint8_t(0x80 | (c & 0x3F));
  return 4;
}

/**
 * Unescapes the string whose raw bytes start at `src` (just past its opening quote, in a padded
 * input) into `out` from `w` on, in one pass: sixteen bytes copied at a time up to the next '"'
 * or '\\', escapes decoded inline; `w` ends past its last byte. `high` gathers the top bits of
 * what was written (unless `AsciiInput`: see basic_binding_tape_sink). `Checked`: nothing
 * written at or past `capacity` (counted, and `overflow` set); unchecked, a 16-byte store may
 * pass the string's end by 15 bytes. False for an escape that is invalid or a lone surrogate.
 * Always inlined into the walk: a call per string would spill the sink's counters around it.
 */
template <bool Checked, bool AsciiInput>
SIMDBRIDGE_ALWAYS_INLINE bool unescape(const uint8_t *src, uint8_t *const out, const size_t capacity, size_t &w,
                                       uint32_t &high, bool &overflow) noexcept {
  const uint8_t *p = src;
  while (true) {
#if defined(__SSE2__)
    if (!Checked || w + 16 <= capacity) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
      _mm_storeu_si128(reinterpret_cast<__m128i *>(out + w), v);
      const unsigned stops = unsigned(_mm_movemask_epi8(
          _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
      const unsigned top = AsciiInput ? 0u : unsigned(_mm_movemask_epi8(v));
      if (stops == 0) {
        high |= top;
        p += 16;
        w += 16;
        continue;
      }
      const unsigned k = unsigned(__builtin_ctz(stops));
      high |= top & (stops ^ (stops - 1)); // the bytes before the stop (and the stop, ASCII)
      p += k;
      w += k;
    } else
#endif
    {
      // Near the end of the array: a byte at a time, counted past it.
      for (; *p != '"' && *p != '\\'; p++, w++) {
        high |= *p & 0x80;
        if (w < capacity) {
          out[w] = *p;
        } else {
          overflow = true;
        }
      }
    }
    if (*p == '"') { break; }
    // Escapes, back to back where they come in runs (control characters). A conditional
    // branch for \u, not a jump table: escape-dense text mixes the kinds, and an indirect
    // jump mispredicted on most of them.
    do {
      uint8_t utf8[4] = {0, 0, 0, 0};
      size_t k = 1;
      if (p[1] == 'u') {
        uint32_t code;
        if (!unicode_escape(p, code)) { return false; }
        if (code - 0xD800 < 0x800) { return false; } // a lone surrogate: the scalar parser writes it (WTF-8, flagged)
        if (code < 0x80) {
          utf8[0] = uint8_t(code);
        } else {
          k = encode(code, utf8);
        }
      } else {
        utf8[0] = simple_escapes.value[p[1]];
        if (utf8[0] == 0) { return false; }
        p += 2;
      }
      high |= utf8[0] & 0x80;
      if (!Checked || w + 4 <= capacity) {
        std::memcpy(out + w, utf8, 4); // k of them count
        w += k;
      } else {
        for (size_t j = 0; j < k; j++, w++) {
          if (w < capacity) {
            out[w] = utf8[j];
          } else {
            overflow = true;
          }
        }
      }
    } while (*p == '\\');
  }
  return true;
}

/**
 * `Checked`: every write checked against the caller's capacity (past it, counted only). The
 * structural walk runs unchecked where the arrays are known large enough for any document of
 * that input (see parser::to_binding_tape), where the checks would only cost time.
 *
 * `AsciiInput`: the input is all ASCII (all_ascii), so that a string's bytes copied as they are
 * never make it non-ASCII: only an escape can (\u00E9). The top bits of every block copied then
 * need not be tracked, a sizeable part of the walk.
 */
template <bool Checked, bool AsciiInput = false> class basic_binding_tape_sink {
public:
  /** The readers call the methods below, with offsets, instead of the checksum's events. */
  static constexpr bool records_tape = true;
  /** What the structural walk writes through this sink. */
  using output = binding_tape_buffer;

  basic_binding_tape_sink() = default;
  /** `open`: one slot per nesting level the readers allow, and one for the root (max_depth + 1). */
  basic_binding_tape_sink(binding_tape_buffer *out, uint64_t *open) noexcept : out_(out), base_(open), top_(open) {}

  /** Forgets everything written: the other reader starts again. */
  void reset() noexcept {
    words_ = 0;
    strings_ = 0;
    overflow_ = false;
    top_ = base_;
    count_ = 0;
  }

  size_t words() const noexcept { return words_; }
  size_t strings() const noexcept { return strings_; }
  /** False where something was not written for want of capacity (words() and strings() tell how much is needed). */
  bool fits() const noexcept { return !overflow_; }

  void container_begin(binding_tape_entry kind, uint64_t offset) noexcept {
    count_value();
    *++top_ = (uint64_t(words_) << 32) | count_; // the container's word, and its parent's count
    count_ = 0;
    entry(kind, offset, 0);
  }

  void container_end() noexcept {
    const uint64_t top = *top_--;
    const size_t at = size_t(top >> 32);
    if (!Checked || !overflow_) { out_->words[at + 1] = (uint64_t(words_) << 32) | count_; }
    count_ = uint32_t(top); // the parent's again
  }

  /** A string token of the scalar parser, valid JSON, quotes included: unescaped here. */
  void raw_string(const uint8_t *token, size_t length, uint64_t offset, bool is_key) noexcept {
    if (!is_key) { count_value(); }
    const size_t at = strings_;
    bool lone = false;
    uint8_t bits = 0;
    size_t n = 0;
    for (size_t i = 1; i + 1 < length;) {
      uint8_t utf8[4];
      size_t k = 1;
      const uint8_t c = token[i];
      if (c != '\\') {
        utf8[0] = c;
        i++;
      } else if (token[i + 1] != 'u') {
        utf8[0] = simple_escapes.value[token[i + 1]];
        i += 2;
      } else {
        const uint8_t *p = token + i;
        uint32_t code;
        unicode_escape(p, code); // the scalar parser checked the token
        i = size_t(p - token);
        lone |= code >= 0xD800 && code <= 0xDFFF;
        k = encode(code, utf8);
      }
      bits |= utf8[0];
      if (at + n + k <= out_->string_capacity) {
        std::memcpy(out_->strings + at + n, utf8, k);
      } else {
        overflow_ = true;
      }
      n += k;
    }
    strings_ += n;
    entry(binding_tape_entry::string, offset | (lone ? binding_tape_lone_surrogate : 0) | (bits < 0x80 ? binding_tape_ascii : 0),
          (uint64_t(at) << 32) | n);
  }

  /**
   * A string of the structural walk (`src`: just past its opening quote, in the padded input),
   * unescaped straight into the caller's array (unescape): one pass and one copy less than
   * simdjson's unescaping into its own buffer. False for an escape that is invalid or a lone
   * surrogate: the walk then refuses the document, and the scalar parser reads it (and names
   * the error).
   */
  SIMDBRIDGE_ALWAYS_INLINE bool escaped_string(const uint8_t *src, uint64_t offset, bool is_key) noexcept {
    if (!is_key) { count_value(); }
    const size_t start = strings_;
    size_t w = start;
    uint8_t *const out = out_->strings;
    const size_t capacity = out_->string_capacity;
    uint32_t high = 0; // the top bits of what was written: not ASCII where set
    if (!unescape<Checked, AsciiInput>(src, out, capacity, w, high, overflow_)) { return false; }
    strings_ = w;
    entry(binding_tape_entry::string, offset | (high == 0 ? binding_tape_ascii : 0), (uint64_t(start) << 32) | (w - start));
    return true;
  }

  /**
   * A string value left in the input (binding_tape_in_input): `at` its opening quote, `end` its
   * closing one, no backslash between them (all_ascii's list), so that its bytes are its value.
   */
  void input_string(uint32_t at, uint32_t end) noexcept {
    count_value();
    entry(binding_tape_entry::string, at | binding_tape_in_input | binding_tape_ascii, (uint64_t(at + 1) << 32) | (end - at - 1));
  }

  void int64(int64_t v, uint64_t offset) noexcept { scalar(binding_tape_entry::int64, offset, uint64_t(v)); }
  void uint64(uint64_t v, uint64_t offset) noexcept { scalar(binding_tape_entry::uint64, offset, v); }
  void float64(double d, uint64_t offset) noexcept {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    scalar(binding_tape_entry::float64, offset, bits);
  }
  /** A number of the structural walk: int64, uint64 or float64 (its bits). */
  void number(binding_tape_entry kind, uint64_t bits, uint64_t offset) noexcept { scalar(kind, offset, bits); }
  void big_number(uint64_t offset, size_t token_length) noexcept { scalar(binding_tape_entry::big_number, offset, token_length); }
  void boolean(bool b, uint64_t offset) noexcept { scalar(b ? binding_tape_entry::true_value : binding_tape_entry::false_value, offset, 0); }
  void null(uint64_t offset) noexcept { scalar(binding_tape_entry::null_value, offset, 0); }

private:
  void count_value() noexcept {
    count_++; // at the root, the root itself: counted, never read
  }

  void entry(binding_tape_entry kind, uint64_t offset, uint64_t payload) noexcept {
    if (!Checked || words_ + 2 <= out_->word_capacity) {
      out_->words[words_] = (uint64_t(kind) << 56) | offset;
      out_->words[words_ + 1] = payload;
    } else {
      overflow_ = true;
    }
    words_ += 2;
  }

  void scalar(binding_tape_entry kind, uint64_t offset, uint64_t payload) noexcept {
    count_value();
    entry(kind, offset, payload);
  }

  binding_tape_buffer *out_ = nullptr;
  // Per open container, its word index << 32 | its parent's count: base_[1] the outermost, top_
  // the innermost. The innermost's own count is count_ (a register in the walk, not memory).
  uint64_t *base_ = nullptr;
  uint64_t *top_ = nullptr;
  uint32_t count_ = 0;
  size_t words_ = 0;
  size_t strings_ = 0;
  bool overflow_ = false;
};

/** The sink of the scalar parser, and of the walk where the arrays may be too small. */
using binding_tape_sink = basic_binding_tape_sink<true>;
/** The walk's sink where the arrays hold any tape of the input (see parser::to_binding_tape). */
using unchecked_binding_tape_sink = basic_binding_tape_sink<false>;
/** The walk's sinks for an all-ASCII input. */
using ascii_binding_tape_sink = basic_binding_tape_sink<true, true>;
using unchecked_ascii_binding_tape_sink = basic_binding_tape_sink<false, true>;

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_SRC_BINDING_TAPE_SINK_H
