// SPDX-License-Identifier: Apache-2.0
// A parsed document's tape into Python objects: what json.loads would return for it.
//
// What makes it fast: object keys come from a cache of str objects (ASCII keys up to 64 bytes,
// found by a hash of their bytes; two ways per set, so that two hot keys that share a set do
// not evict each other: update-center.json's 685 keys made 1713 str objects with one way),
// which also carry their Python hash, so dict insertion does not hash them again; ASCII strings
// are made with one copy, others counted and decoded sixteen ASCII bytes at a time; dicts and
// lists are sized from the counts the tape holds; scalars are made inline in the containers'
// loops, without a call per value; on CPython 3.11, a dict whose key sequence was seen before
// is a copy of a template with those keys, its values written in place (see "Dicts by shape":
// measured, the geometric mean of loads over the corpus 1.20x as fast). Duplicate keys go
// through PyDict_SetItem in order, as in json: the last value wins, at the first key's position.
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common.h"

namespace simdbridge::python {

namespace {

constexpr size_t key_cache_sets = 2048; // two ways each: 4096 keys, 128 KB
constexpr size_t key_cache_max_length = 64;

/**
 * A cached key: its first 16 bytes inline (w0, w1), so that a key of up to 16 bytes is matched
 * without touching its str; longer keys compare their tail with the str's bytes.
 */
struct cached_key {
  uint64_t w0 = 0, w1 = 0;
  uint32_t length = 0;
  PyObject *str = nullptr; // owned; an ASCII str whose bytes are the key's

  /** Caches s (a new reference, returned with one more for the caller) in place of the last. */
  PyObject *fill(uint64_t word0, uint64_t word1, size_t n, PyObject *s) {
    Py_XDECREF(str);
    Py_INCREF(s);
    w0 = word0;
    w1 = word1;
    length = uint32_t(n);
    str = s;
    return s;
  }
};

/** Two ways that share a cache line: the one used last first. Touched only with the GIL held. */
struct alignas(64) key_set {
  cached_key way[2];

  /** The cached str that `same` accepts (a new reference; its way becomes the first), or null. */
  template <typename Same> PyObject *find(Same &&same) {
    if (way[0].str == nullptr || !same(way[0])) {
      if (way[1].str == nullptr || !same(way[1])) { return nullptr; }
      std::swap(way[0], way[1]);
    }
    Py_INCREF(way[0].str);
    return way[0].str;
  }

  /** Caches s (a new reference, returned with one more) in the way used less recently, made first. */
  PyObject *insert(uint64_t w0, uint64_t w1, size_t n, PyObject *s) {
    std::swap(way[0], way[1]);
    return way[0].fill(w0, w1, n, s);
  }
};
key_set key_cache[key_cache_sets];

/** Up to 8 bytes at p (n of them), the rest zero. Reads 8 bytes: simdjson's string buffer has
 *  at least 64 bytes of slack after its last string, and a key is followed by its NUL. */
inline uint64_t word(const char *p, size_t n) noexcept {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return n >= 8 ? w : w & ((uint64_t(1) << (8 * n)) - 1);
}

/** Bytes 8 to 15 of a key of n bytes as word() reads them; 0 for a key of up to 8 bytes. */
inline uint64_t second_word(const char *p, size_t n) noexcept { return n > 8 ? word(p + 8, n - 8) : 0; }

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

/** A str of n ASCII bytes: one copy. */
inline PyObject *ascii_str(const char *p, size_t n) {
  PyObject *s = PyUnicode_New(Py_ssize_t(n), 127);
  if (s != nullptr) { std::memcpy(PyUnicode_1BYTE_DATA(s), p, n); }
  return s;
}

/**
 * A str from valid UTF-8 (simdjson validated it): counted (which tells ASCII apart), then
 * copied, or decoded into the narrowest kind.
 */
PyObject *make_str(const char *p, size_t n) {
  const auto *s = reinterpret_cast<const uint8_t *>(p);
  const utf8_census c = census(s, n);
  if (c.characters == n) { return ascii_str(p, n); }
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

/** A key: its hash computed, so that the dict need not (PyObject_Hash keeps it in the str). */
inline PyObject *uncached_key(const char *p, size_t n) {
  PyObject *s = make_str(p, n);
  if (s != nullptr && PyObject_Hash(s) == -1) { Py_CLEAR(s); }
  return s;
}

inline PyObject *make_key(std::string_view key) {
  const char *p = key.data();
  const size_t n = key.size();
  if (n > key_cache_max_length) { return uncached_key(p, n); }
  const uint64_t w0 = word(p, n);
  const uint64_t w1 = second_word(p, n);
  // Independent multiplications (no long chain before the table is read); the length and, past
  // 16 bytes, the last 8 bytes are mixed in too: twitter.json's many keys that share their first
  // 16 bytes ("profile_background_...") must not all fall on one slot.
  const uint64_t tail = n > 16 ? word(p + n - 8, 8) : 0;
  const uint64_t h = (w0 * 0x9E3779B97F4A7C15ULL) ^ (w1 * 0xC2B2AE3D27D4EB4FULL) ^
                     ((tail ^ uint64_t(n)) * 0x165667B19E3779F9ULL);
  key_set &set = key_cache[(h >> 40) & (key_cache_sets - 1)];
  PyObject *cached = set.find([&](const cached_key &k) {
    return k.w0 == w0 && k.w1 == w1 && k.length == n &&
           (n <= 16 || std::memcmp(PyUnicode_1BYTE_DATA(k.str) + 16, p + 16, n - 16) == 0);
  });
  if (cached != nullptr) { return cached; }
  PyObject *s = uncached_key(p, n);
  if (s == nullptr || !PyUnicode_IS_ASCII(s)) { return s; } // a non-ASCII key is not cached: its bytes are not the str's
  return set.insert(w0, w1, n, s);
}

/**
 * Short ASCII string values (up to 16 bytes), shared: JSON repeats them (codes, enumerations),
 * and a str is immutable, so equal values may be one object (CPython shares strings itself).
 */
constexpr size_t value_cache_sets = 512; // two ways each, as the keys'
key_set value_cache[value_cache_sets];

inline PyObject *make_value_str(std::string_view value) {
  const char *p = value.data();
  const size_t n = value.size();
  if (n > 16) { return make_str(p, n); }
  const uint64_t w0 = word(p, n);
  const uint64_t w1 = second_word(p, n);
  if (((w0 | w1) & 0x8080808080808080ULL) != 0) { return make_str(p, n); }
  const uint64_t h = (w0 * 0x9E3779B97F4A7C15ULL) ^ ((w1 ^ uint64_t(n)) * 0xC2B2AE3D27D4EB4FULL);
  key_set &set = value_cache[(h >> 40) & (value_cache_sets - 1)];
  PyObject *cached = set.find([&](const cached_key &k) { return k.w0 == w0 && k.w1 == w1 && k.length == n; });
  if (cached != nullptr) { return cached; }
  PyObject *s = ascii_str(p, n);
  return s == nullptr ? nullptr : set.insert(w0, w1, n, s);
}

PyObject *build(const tape_view &t, size_t &i);

/**
 * The value at i when it is not a container; i moves past it. Inlined into the containers'
 * loops: most values are scalars, and a call per value (the recursive build's frame) cost more
 * than making a small int or a cached string.
 */
[[gnu::always_inline]] inline PyObject *build_scalar(const tape_view &t, size_t &i, tape_kind kind) {
  switch (kind) {
  case tape_kind::string: {
    const std::string_view s = t.string(i);
    i++;
    return make_value_str(s);
  }
  case tape_kind::int64: {
    const int64_t v = t.int64(i);
    i += 2;
    return PyLong_FromLongLong(v);
  }
  case tape_kind::uint64: {
    const uint64_t v = t.uint64(i);
    i += 2;
    return PyLong_FromUnsignedLongLong(v);
  }
  case tape_kind::float64: {
    const double v = t.float64(i);
    i += 2;
    return PyFloat_FromDouble(v);
  }
  case tape_kind::true_value: i++; Py_RETURN_TRUE;
  case tape_kind::false_value: i++; Py_RETURN_FALSE;
  case tape_kind::null_value: i++; Py_RETURN_NONE;
  default:
    PyErr_SetString(PyExc_SystemError, "simdbridge: unexpected tape word");
    return nullptr;
  }
}

/** The value at i, a container or not; i moves past it. */
[[gnu::always_inline]] inline PyObject *build_any(const tape_view &t, size_t &i) {
  const tape_kind kind = t.kind(i);
  if (kind == tape_kind::object || kind == tape_kind::array) { return build(t, i); }
  return build_scalar(t, i, kind);
}

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(Py_LIMITED_API)
#define SIMDBRIDGE_DICT_SHAPES 1
/**
 * Dicts by shape (CPython 3.11 only). JSON repeats its objects' key sequences; a dict with a
 * key sequence seen before is a copy of a template dict that holds those keys (PyDict_Copy
 * copies its hash table in one block, hashes and order included), its values then written in
 * place: no hash probe and no insertion per key. The dict is the one json.loads makes, in every
 * way Python can observe (keys, order, values, tracking by the cyclic GC).
 *
 * Writing the values needs the layout of CPython 3.11's dict keys (Include/internal/
 * pycore_dict.h), mirrored here and checked on every template made: a template whose entries
 * are not where the mirror says is never used.
 */
struct dict_keys_header { // struct _dictkeysobject without its trailing arrays
  Py_ssize_t dk_refcnt;
  uint8_t dk_log2_size;
  uint8_t dk_log2_index_bytes;
  uint8_t dk_kind; // DICT_KEYS_UNICODE (1): str keys only, entries of two pointers
  uint32_t dk_version;
  Py_ssize_t dk_usable;
  Py_ssize_t dk_nentries;
};
constexpr uint8_t dict_keys_unicode = 1;
struct dict_entry { // PyDictUnicodeEntry
  PyObject *key;
  PyObject *value;
};

/** The entries of a combined dict of str keys, in insertion order (null for any other dict). */
inline dict_entry *unicode_entries(PyObject *dict) noexcept {
  auto *d = reinterpret_cast<PyDictObject *>(dict);
  if (d->ma_values != nullptr) { return nullptr; }
  auto *keys = reinterpret_cast<dict_keys_header *>(d->ma_keys);
  if (keys->dk_kind != dict_keys_unicode || keys->dk_nentries != d->ma_used) { return nullptr; }
  char *indices = reinterpret_cast<char *>(keys) + sizeof(dict_keys_header);
  return reinterpret_cast<dict_entry *>(indices + (size_t(1) << keys->dk_log2_index_bytes));
}

constexpr uint32_t shape_max_members = 64;
constexpr size_t shape_slots = 512;
/** Misses in a row after which a slot's template gives way to the shape that missed it. */
constexpr uint32_t shape_strikes = 4;
/** A slot whose shape could not be a template waits twice as long after each refusal, up to
 *  shape_strikes << this: without it, every object of that shape built its template again. */
constexpr uint32_t shape_max_refusals = 6;

/** A key of a shape: its first 16 bytes (the rest zero) and its length; longer keys compare
 *  their tail with the template's str. */
struct shape_key {
  uint64_t w0, w1;
  uint32_t length;
};

/** A template and its keys; touched only with the GIL held. */
struct shape {
  PyObject *dict = nullptr; // owned: the keys, each value None; never seen outside this file
  shape_key *keys = nullptr;
  uint32_t members = 0;
  uint32_t misses = 0;
  uint32_t refusals = 0; // templates refused in a row here (non-ASCII, long or duplicate keys)

  /** Whether the slot holds something other objects must miss first: a template, or a refusal. */
  bool occupied() const noexcept { return dict != nullptr || refusals != 0; }

  /** Misses after which the slot tries the shape that missed it. */
  uint32_t patience() const noexcept { return shape_strikes << refusals; }

  /** Empties the slot (its refusals stay: remember_shape sets them). */
  void clear() noexcept {
    Py_CLEAR(dict);
    std::free(keys);
    keys = nullptr;
    members = 0;
    misses = 0;
  }

  /** Whether the object at i (n members) has these keys in this order. */
  bool matches(const tape_view &t, size_t i, uint32_t n) const noexcept {
    if (members != n) { return false; }
    size_t j = i + 1;
    const dict_entry *e = unicode_entries(dict);
    for (uint32_t m = 0; m < n; m++) {
      const std::string_view key = t.string(j);
      const shape_key &k = keys[m];
      const size_t len = key.size();
      if (len != k.length || word(key.data(), len) != k.w0 || second_word(key.data(), len) != k.w1 ||
          (len > 16 && std::memcmp(PyUnicode_1BYTE_DATA(e[m].key) + 16, key.data() + 16, len - 16) != 0)) {
        return false;
      }
      j = t.next(j + 1);
    }
    return true;
  }
};
shape shapes[shape_slots];

inline shape &shape_slot(const tape_view &t, size_t i, uint32_t n) noexcept {
  const std::string_view first = t.string(i + 1);
  const size_t len = first.size();
  const uint64_t w0 = word(first.data(), len);
  const uint64_t w1 = second_word(first.data(), len);
  const uint64_t h = (w0 * 0x9E3779B97F4A7C15ULL) ^ ((w1 ^ (uint64_t(len) << 32) ^ n) * 0xC2B2AE3D27D4EB4FULL);
  return shapes[(h >> 40) & (shape_slots - 1)];
}

/**
 * Makes `s` the template of the object at i (n members): where its keys are n distinct ASCII
 * strs of up to 64 bytes (from the key cache) and the mirrored layout finds them. The templates
 * keep at most 512 x 64 such keys alive. Otherwise, or without memory, `s` stays empty and
 * counts one refusal more. Needs no exception set; leaves none.
 */
void remember_shape(shape &s, const tape_view &t, size_t i, uint32_t n) {
  s.clear();
  if (s.refusals < shape_max_refusals) { s.refusals++; } // until the template is made, below
  auto *keys = static_cast<shape_key *>(std::malloc(sizeof(shape_key) * n));
  PyObject *dict = PyDict_New(); // grown by insertion, so that its keys stay of the str-only kind
  bool ok = keys != nullptr && dict != nullptr;
  size_t j = i + 1;
  for (uint32_t m = 0; ok && m < n; m++) {
    const std::string_view key = t.string(j);
    PyObject *str = key.size() <= key_cache_max_length ? make_key(key) : nullptr; // no long key kept alive here
    ok = str != nullptr && PyUnicode_IS_COMPACT_ASCII(str) &&
         set_str_item(dict, str, Py_None) == 0;
    Py_XDECREF(str);
    if (ok) { keys[m] = {word(key.data(), key.size()), second_word(key.data(), key.size()), uint32_t(key.size())}; }
    j = t.next(j + 1);
  }
  // The mirror's check: entry m holds the m-th key (no duplicates), its value None.
  const dict_entry *e = ok && PyDict_GET_SIZE(dict) == Py_ssize_t(n) ? unicode_entries(dict) : nullptr;
  j = i + 1;
  for (uint32_t m = 0; e != nullptr && m < n; m++) {
    const std::string_view key = t.string(j);
    ok = ok && e[m].value == Py_None && size_t(PyUnicode_GET_LENGTH(e[m].key)) == key.size() &&
         std::memcmp(PyUnicode_1BYTE_DATA(e[m].key), key.data(), key.size()) == 0;
    j = t.next(j + 1);
  }
  if (!ok || e == nullptr || PyObject_GC_IsTracked(dict)) {
    std::free(keys);
    Py_XDECREF(dict);
    PyErr_Clear();
    return;
  }
  s.dict = dict;
  s.keys = keys;
  s.members = n;
  s.refusals = 0;
}

/**
 * The object at i (n members, the shape of `s`) as a copy of its template with the values
 * built in place; i moves past it. A new reference, or null with an exception set.
 */
PyObject *build_from_shape(const shape &s, const tape_view &t, size_t &i, uint32_t n) {
  PyObject *dict = PyDict_Copy(s.dict);
  if (dict == nullptr) { return nullptr; }
  dict_entry *e = unicode_entries(dict);
  if (e == nullptr) { // not the copy the template promised: never, but not worth a crash
    Py_DECREF(dict);
    PyErr_SetString(PyExc_SystemError, "simdbridge: unexpected dict layout");
    return nullptr;
  }
  size_t j = i + 1;
  bool containers = false;
  for (uint32_t m = 0; m < n; m++) {
    j++; // the key: the template's
    const tape_kind kind = t.kind(j);
    PyObject *value = build_any(t, j);
    if (value == nullptr) {
      Py_DECREF(dict); // entries not yet written hold None, as the template's
      return nullptr;
    }
    containers |= kind == tape_kind::object || kind == tape_kind::array;
    PyObject *none = e[m].value; // the copy's reference to the template's None
    e[m].value = value;
    Py_DECREF(none);
  }
  // As insertion would: a dict is tracked by the cyclic GC once it holds a container.
  if (containers && !PyObject_GC_IsTracked(dict)) { PyObject_GC_Track(dict); }
  i = j + 1;
  return dict;
}
#endif

/** The container at i; i moves past it. A new reference, or null with an exception set. */
PyObject *build(const tape_view &t, size_t &i) {
  if (t.kind(i) == tape_kind::object) {
    const uint32_t n = t.count(i);
#ifdef SIMDBRIDGE_DICT_SHAPES
    shape *s = nullptr;
    if (n != 0 && n <= shape_max_members) {
      s = &shape_slot(t, i, n);
      if (s->dict != nullptr && s->matches(t, i, n)) {
        s->misses = 0;
        return build_from_shape(*s, t, i, n);
      }
      if (s->occupied()) {
        s = ++s->misses >= s->patience() ? s : nullptr; // a miss: the slot stays as it is, until it has missed enough
      }
    }
    const size_t start = i;
#endif
    PyObject *dict = (n > 5 && n < tape_view::count_saturated) ? _PyDict_NewPresized(Py_ssize_t(n)) : PyDict_New();
    if (dict == nullptr) { return nullptr; }
    size_t j = i + 1;
    while (t.kind(j) != tape_kind::object_end) {
      PyObject *key = make_key(t.string(j));
      j++;
      PyObject *value = key ? build_any(t, j) : nullptr;
      // A key's hash is in the str already (a cached key's, or computed by make_str's caller).
      if (value == nullptr || set_str_item(dict, key, value) < 0) {
        Py_XDECREF(key);
        Py_XDECREF(value);
        Py_DECREF(dict);
        return nullptr;
      }
      Py_DECREF(key);
      Py_DECREF(value);
    }
    i = j + 1;
#ifdef SIMDBRIDGE_DICT_SHAPES
    if (s != nullptr) { remember_shape(*s, t, start, n); }
#endif
    return dict;
  }
  // An array.
  const uint32_t n = t.count(i);
  size_t j = i + 1;
  if (n < tape_view::count_saturated) {
    PyObject *list = PyList_New(Py_ssize_t(n));
    if (list == nullptr) { return nullptr; }
    for (uint32_t k = 0; k < n; k++) {
      PyObject *item = build_any(t, j);
      if (item == nullptr) {
        Py_DECREF(list); // the items not yet set are null: PyList's dealloc skips them
        return nullptr;
      }
      PyList_SET_ITEM(list, k, item);
    }
    i = j + 1;
    return list;
  }
  PyObject *list = PyList_New(0);
  if (list == nullptr) { return nullptr; }
  while (t.kind(j) != tape_kind::array_end) {
    PyObject *item = build_any(t, j);
    if (item == nullptr || PyList_Append(list, item) < 0) {
      Py_XDECREF(item);
      Py_DECREF(list);
      return nullptr;
    }
    Py_DECREF(item);
  }
  i = j + 1;
  return list;
}

} // namespace

PyObject *build_value(const tape_view &tape, size_t i) {
  // The cyclic GC would scan the growing tree again and again as containers are made (a third
  // of the time, measured); a tree from JSON has no cycles, so it waits until the tree is done.
  const int was_enabled = PyGC_Disable();
  PyObject *value = build_any(tape, i);
  if (was_enabled) { PyGC_Enable(); }
  return value;
}

size_t find_pointer(const tape_view &t, size_t i, std::string_view pointer, bool &bad_pointer) {
  bad_pointer = false;
  if (pointer.empty()) { return i; }
  if (pointer[0] != '/') {
    bad_pointer = true;
    return SIZE_MAX;
  }
  size_t at = 1;
  std::string token;
  while (true) {
    // The next token, RFC 6901's ~1 and ~0 undone.
    token.clear();
    while (at < pointer.size() && pointer[at] != '/') {
      if (pointer[at] == '~') {
        if (at + 1 == pointer.size() || (pointer[at + 1] != '0' && pointer[at + 1] != '1')) {
          bad_pointer = true;
          return SIZE_MAX;
        }
        token.push_back(pointer[at + 1] == '0' ? '~' : '/');
        at += 2;
      } else {
        token.push_back(pointer[at++]);
      }
    }
    const tape_kind kind = t.kind(i);
    if (kind == tape_kind::object) {
      size_t found = SIZE_MAX;
      for (size_t j = i + 1; t.kind(j) != tape_kind::object_end; j = t.next(j + 1)) {
        if (t.string(j) == token) { found = j + 1; } // the last of duplicate keys, as json
      }
      i = found;
    } else if (kind == tape_kind::array) {
      size_t index = 0;
      bool numeric = !token.empty() && token.size() < 19 && (token.size() == 1 || token[0] != '0');
      for (char c : token) { numeric = numeric && c >= '0' && c <= '9'; }
      if (!numeric) { return SIZE_MAX; }
      for (char c : token) { index = index * 10 + size_t(c - '0'); }
      size_t j = i + 1;
      for (size_t k = 0; k < index && t.kind(j) != tape_kind::array_end; k++) { j = t.next(j); }
      i = t.kind(j) == tape_kind::array_end ? SIZE_MAX : j;
    } else {
      return SIZE_MAX;
    }
    if (i == SIZE_MAX || at >= pointer.size()) { return i; }
    at++; // past the '/'
  }
}

} // namespace simdbridge::python
