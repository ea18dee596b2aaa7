// SPDX-License-Identifier: Apache-2.0
// What both writers share (encoder.cpp: json.dumps's text; dumpb.cpp: orjson.dumps's bytes): a
// growable UTF-8 buffer, the shortest round-trip digits of a double, and JSON string escaping.
#ifndef SIMDBRIDGE_PYTHON_TEXT_OUTPUT_H
#define SIMDBRIDGE_PYTHON_TEXT_OUTPUT_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common.h"
#include "cpython_internals.h"
#include "simdbridge/writer.h"

namespace simdbridge::python {

/** n bytes at d, up to 16 inline in two overlapping moves (a call to memcpy cost more than the
 *  copy), none past p + n; returns d + n. */
inline char *copy_into(char *d, const char *p, size_t n) {
  const auto move = [](char *to, const char *from, auto word) {
    std::memcpy(&word, from, sizeof word);
    std::memcpy(to, &word, sizeof word);
  };
  if (n >= 8) {
    if (n > 16) {
      std::memcpy(d, p, n);
    } else {
      move(d, p, uint64_t());
      move(d + n - 8, p + n - 8, uint64_t());
    }
  } else if (n >= 4) {
    move(d, p, uint32_t());
    move(d + n - 4, p + n - 4, uint32_t());
  } else if (n > 0) {
    d[0] = p[0];
    d[n / 2] = p[n / 2];
    d[n - 1] = p[n - 1];
  }
  return d + n;
}

/**
 * The capacity a growing buffer of `capacity` bytes takes to hold `needed`: doubled up to 1 MB,
 * then a quarter more at a time. Doubling took a result of 16 to 32 MB to a request just past
 * 32 MiB, glibc's largest mmap threshold: every call then mapped fresh pages and faulted on
 * each; a quarter keeps the buffer within a quarter of its size, reused from the heap.
 */
inline size_t grown_capacity(size_t capacity, size_t needed) noexcept {
  size_t wanted = std::max<size_t>(capacity, 1);
  while (wanted < needed) { wanted += wanted < (size_t(1) << 20) ? wanted : wanted / 4; }
  return wanted;
}

/**
 * A bytes object grown to hold `size` bytes (by grown_capacity), as the result; null with
 * MemoryError set. A small one is shrunk to its size; one of mmap's sizes (glibc maps blocks
 * from 128 KB, and from the size of the last one it unmapped) keeps its block, as orjson's
 * does: shrunk, its release would set glibc's threshold below the next call's largest block,
 * and every call would map fresh pages and fault on each. The bytes past its size are at most
 * as many as its size (a quarter past 1 MB, where grown_capacity grows by quarters).
 */
inline PyObject *finished_bytes(PyObject *b, size_t size) {
  if (size >= (size_t(1) << 17)) {
    Py_SET_SIZE(b, Py_ssize_t(size));
    PyBytes_AS_STRING(b)[size] = '\0';
    return b;
  }
  return _PyBytes_Resize(&b, Py_ssize_t(size)) == 0 ? b : nullptr;
}

/**
 * The output: a growable byte buffer. reserve() once per value, then unchecked writes (a
 * std::string's append costs a call and a check per piece). Its storage is malloc's, or, made
 * with `into_bytes`, a bytes object's, which take_bytes() hands over without a copy.
 */
class output {
public:
  struct into_bytes_t {};
  static constexpr into_bytes_t into_bytes{};

  output() : data_(static_cast<char *>(std::malloc(capacity_))) {
    if (data_ == nullptr) { throw std::bad_alloc(); }
  }
  explicit output(into_bytes_t) : bytes_(PyBytes_FromStringAndSize(nullptr, Py_ssize_t(capacity_))), in_bytes_(true) {
    if (bytes_ == nullptr) { throw std::bad_alloc(); }
    data_ = PyBytes_AS_STRING(bytes_);
  }
  ~output() {
    if (in_bytes_) {
      Py_XDECREF(bytes_);
    } else {
      std::free(data_);
    }
  }
  output(const output &) = delete;
  output &operator=(const output &) = delete;

  void reserve(size_t more) {
    if (capacity_ - size_ >= more) { return; }
    grow(more);
  }

  /**
   * reserve's slow path, out of line: the writers that reserve recurse once per level of
   * nesting, and growing inlined into each of them made every level's frame larger (under ASan,
   * 3000 levels of dumps overflowed the C stack).
   */
  __attribute__((noinline)) void grow(size_t more) {
    const size_t wanted = grown_capacity(capacity_, size_ + more);
    if (in_bytes_) {
      if (_PyBytes_Resize(&bytes_, Py_ssize_t(wanted)) != 0) { // bytes_ is gone, MemoryError set
        PyErr_Clear();
        throw std::bad_alloc();
      }
      data_ = PyBytes_AS_STRING(bytes_);
    } else {
      char *grown = static_cast<char *>(std::realloc(data_, wanted));
      if (grown == nullptr) { throw std::bad_alloc(); }
      data_ = grown;
    }
    capacity_ = wanted;
  }

  /** The bytes written, as the bytes object (made `into_bytes`): finished_bytes. */
  PyObject *take_bytes() {
    PyObject *b = bytes_;
    bytes_ = nullptr;
    data_ = nullptr;
    return finished_bytes(b, size_);
  }
  /** Unchecked: after reserve(). */
  void put(char c) { data_[size_++] = c; }
  /** Up to 16 bytes inline (most keys and values): copy_into. */
  void put(const char *p, size_t n) { size_ = size_t(copy_into(data_ + size_, p, n) - data_); }
  /** Where the next byte goes, for a writer that writes in place (reserve() first), then advance(). */
  char *tail() { return data_ + size_; }
  void advance(size_t n) { size_ += n; }
  /** Where the bytes written end, from a writer that wrote in place (reserve() first). */
  void set_tail(char *end) { size_ = size_t(end - data_); }
  /** One past the room reserve() made. */
  char *limit() { return data_ + capacity_; }
  /** Checked. */
  void append(const char *p, size_t n) {
    reserve(n);
    put(p, n);
  }
  void append(const std::string &s) { append(s.data(), s.size()); }
  void append(char c) {
    reserve(1);
    put(c);
  }
  size_t size() const { return size_; }
  void resize(size_t n) { size_ = n; }
  const char *data() const { return data_; }

private:
  size_t capacity_ = 4096;
  size_t size_ = 0;
  PyObject *bytes_ = nullptr; // the storage where in_bytes_, until taken
  bool in_bytes_ = false;
  char *data_ = nullptr;
};

/**
 * The output's end and the end of its room, held in locals while a loop writes values inline
 * (the items of dumpb's and dumps's lists). To the compiler a byte stored through a char pointer
 * may change anything, the output's own size among it, so that value after value written
 * through the output stored its size and loaded it back (a store-to-load round trip of several
 * cycles on the path from one value to the next); a cursor's fields stay in registers. While a
 * cursor is open nothing else writes to its output: close() hands the end back, open() takes
 * it again.
 */
class cursor {
public:
  explicit cursor(output &out) : out_(out) { open(); }

  void open() {
    t = out_.tail();
    limit_ = out_.limit();
  }
  void close() { out_.set_tail(t); }

  /** Room for n bytes at t. */
  void reserve(size_t n) {
    if (size_t(limit_ - t) >= n) { return; }
    close();
    out_.reserve(n);
    open();
  }
  /** Unchecked: after reserve(). */
  void put(char c) { *t++ = c; }

  char *t = nullptr; // where the next byte goes

private:
  output &out_;
  char *limit_ = nullptr;
};

/** The digit pairs "00" to "99", for the integer writers below. */
inline constexpr char digit_pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                      "8081828384858687888990919293949596979899";

/** v < 10^4 as exactly four digits at t (leading zeros included), two pairs from the table;
 *  returns their end. */
[[gnu::always_inline]] inline char *four_digits(char *t, uint32_t v) {
  std::memcpy(t, digit_pairs + 2 * (v / 100), 2);
  std::memcpy(t + 2, digit_pairs + 2 * (v % 100), 2);
  return t + 4;
}

/** The digits of v < 10^4 at t (room for 4 bytes; all may be written); returns their end. */
[[gnu::always_inline]] inline char *digits_below_10k(char *t, uint32_t v) {
  if (v < 100) {
    t[0] = digit_pairs[2 * v + (v < 10)];
    t[1] = digit_pairs[2 * v + 1];
    return t + (v < 10 ? 1 : 2);
  }
  if (v < 1000) {
    t[0] = char('0' + v / 100);
    std::memcpy(t + 1, digit_pairs + 2 * (v % 100), 2);
    return t + 3;
  }
  return four_digits(t, v);
}

/** The digits of v >= 10^8 at t: 9 or 10 digits (ids, Unix timestamps) from the pair table,
 *  the rest as write_decimal_digits writes them. */
[[gnu::noinline]] inline char *digits_from_100m(char *t, uint64_t v) {
  if (v >= 10000000000) { return t + write_decimal_digits(v, t); }
  // The one or two digits before the last eight, then those as four pairs.
  const uint64_t top = v / 100000000;
  const uint32_t low = uint32_t(v - top * 100000000);
  char *d = digits_below_10k(t, uint32_t(top));
  d = four_digits(d, low / 10000);
  return four_digits(d, low % 10000);
}

/**
 * An unsigned 64-bit integer's digits at t (room for 24 bytes, see write_decimal_digits);
 * returns their end. Below 10^8 (counts, flags, ids: most integers in JSON) from a table of
 * digit pairs, the larger ones out of line: the common path needs few registers, where one
 * function for every range saved six of them on each call.
 */
[[gnu::always_inline]] inline char *uint64_into(char *t, uint64_t v) {
  if (v < 10000) { return digits_below_10k(t, uint32_t(v)); }
  if (v >= 100000000) { return digits_from_100m(t, v); }
  // 5 to 8 digits: the one to four before the last four, then those as two pairs. Table loads,
  // independent of each other: a shorter chain than eight_digit_word's arithmetic.
  return four_digits(digits_below_10k(t, uint32_t(v) / 10000), uint32_t(v) % 10000);
}

/** A signed 64-bit integer's text at t (room for 25 bytes); returns its end. */
[[gnu::always_inline]] inline char *int64_into(char *t, int64_t v) {
  if (v < 0) { *t++ = '-'; }
  return uint64_into(t, v < 0 ? 0 - uint64_t(v) : uint64_t(v));
}

/** The same into the output (unchecked: the caller reserves 24 bytes, 25 for a signed one). */
inline void put_uint64(output &out, uint64_t v) {
  char *t = out.tail();
  out.advance(size_t(uint64_into(t, v) - t));
}

inline void put_int64(output &out, int64_t v) {
  char *t = out.tail();
  out.advance(size_t(int64_into(t, v) - t));
}

/** A finite double's text into the output: the core's write_double (see writer.h for the layouts). */
inline void put_double(output &out, double d, int lowest_point, bool two_digit_exponent) {
  out.reserve(48); // the 48 bytes write_double may write over
  out.advance(write_double(d, out.tail(), lowest_point, two_digit_exponent));
}

/** Each byte's two lowercase hex digits. */
struct hex_pair_table {
  char pair[256][2];
  constexpr hex_pair_table() : pair() {
    for (int b = 0; b < 256; b++) {
      pair[b][0] = "0123456789abcdef"[b >> 4];
      pair[b][1] = "0123456789abcdef"[b & 15];
    }
  }
};
inline constexpr hex_pair_table hex_pairs{};

/** \uXXXX of a UTF-16 unit at d (room for 6 bytes); returns the end. */
inline char *u_escape_into(char *d, uint32_t unit) {
  d[0] = '\\';
  d[1] = 'u';
  std::memcpy(d + 2, hex_pairs.pair[(unit >> 8) & 0xFF], 2);
  std::memcpy(d + 4, hex_pairs.pair[unit & 0xFF], 2);
  return d + 6;
}

/** An ASCII character that needs escaping, escaped at d (room for 6 bytes); returns the end. */
inline char *escaped_into(char *d, uint32_t c) {
  const char *two = nullptr;
  switch (c) {
  case '"': two = "\\\""; break;
  case '\\': two = "\\\\"; break;
  case '\n': two = "\\n"; break;
  case '\r': two = "\\r"; break;
  case '\t': two = "\\t"; break;
  case '\b': two = "\\b"; break;
  case '\f': two = "\\f"; break;
  default: return u_escape_into(d, c); // the other controls, and DEL where ensure_ascii
  }
  d[0] = two[0];
  d[1] = two[1];
  return d + 2;
}

/** An exact str of ASCII, whose characters follow its header. */
inline bool is_compact_ascii(PyObject *s) { return Py_TYPE(s) == &PyUnicode_Type && PyUnicode_IS_COMPACT_ASCII(s); }

/** The characters of a str for which PyUnicode_IS_COMPACT_ASCII holds: right after its header. */
inline const char *compact_ascii_chars(PyObject *s) {
  return reinterpret_cast<const char *>(reinterpret_cast<PyASCIIObject *>(s) + 1);
}

/**
 * JSON strings from a str: escaped as json escapes them (controls, '"' and '\\'; with
 * ensure_ascii, DEL and every character past ASCII as \uXXXX), the rest as UTF-8.
 */
class string_writer {
public:
  explicit string_writer(bool ensure_ascii) : ensure_ascii_(ensure_ascii) {}

  /**
   * Writes s, quoted. A lone surrogate is written in its generalized UTF-8 form (json's
   * surrogatepass) where `surrogates` is true; otherwise nothing of s is kept and false is
   * returned.
   */
  bool write(output &out, PyObject *s, bool surrogates = true) const {
    const Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    if (PyUnicode_IS_ASCII(s)) {
      write_ascii(out, static_cast<const char *>(PyUnicode_DATA(s)), size_t(n));
      return true;
    }
    const size_t mark = out.size();
    bool ok = true;
    switch (PyUnicode_KIND(s)) {
    case PyUnicode_1BYTE_KIND: write_wide(out, PyUnicode_1BYTE_DATA(s), size_t(n), surrogates); break;
    case PyUnicode_2BYTE_KIND: ok = write_wide(out, PyUnicode_2BYTE_DATA(s), size_t(n), surrogates); break;
    default: ok = write_wide(out, PyUnicode_4BYTE_DATA(s), size_t(n), surrogates); break;
    }
    if (!ok) { out.resize(mark); }
    return ok;
  }

  /**
   * Writes UTF-8 text (valid: a str's own UTF-8), quoted, escaping what needs it; bytes past
   * ASCII go as they are. Only without ensure_ascii.
   */
  void write_utf8(output &out, const char *utf8, size_t n) const { write_ascii(out, utf8, n); }

  /**
   * Inline, where nothing needs an escape: a string shorter than 16 bytes (most keys and values)
   * as one vector, read from its page (below) and stored whole; one of 16 to 32 bytes as two; a
   * longer one 16 bytes at a time and its last 16 again. From the first block that holds an
   * escape on, the core's write_json_escaped_utf8. A byte past ASCII never counts as one to
   * escape (UTF-8 passes through). The long strings' loop is inline too: out of line, its call
   * cost more than the copy of a list's strings.
   */
  [[gnu::always_inline]] inline void write_ascii(output &out, const char *chars, size_t n) const {
    out.reserve(json_string_capacity_utf8(n)); // room for a short string's vector as well
    out.set_tail(ascii_into(out.tail(), chars, n));
  }

  /** write_ascii of a str for which PyUnicode_IS_COMPACT_ASCII holds. */
  [[gnu::always_inline]] inline void write_compact_ascii(output &out, PyObject *s) const {
    write_ascii(out, compact_ascii_chars(s), size_t(PyUnicode_GET_LENGTH(s)));
  }

  /** A compact ASCII str's (is_compact_ascii) string at d, as ascii_into writes it; its end. */
  [[gnu::always_inline]] inline char *compact_ascii_into(char *d, PyObject *s) const {
    return ascii_into(d, compact_ascii_chars(s), size_t(PyUnicode_GET_LENGTH(s)));
  }

  /** write_ascii's string at d, where json_string_capacity_utf8(n) bytes are free; its end. */
  [[gnu::always_inline]] inline char *ascii_into(char *d, const char *chars, size_t n) const {
    const bool ascii_only = ensure_ascii_; // in a register: the stores below may alias the member
#if defined(__SSE2__) && !defined(__SANITIZE_ADDRESS__)
    // Without a branch on its length: one 16-byte load, which reads past the string but not
    // past its page (never a fault; the sanitizers' build, which would report it, takes the
    // core's path), checked in the string's lanes and stored whole, the closing quote then
    // written over the bytes past it.
    if (n < 16 && (reinterpret_cast<uintptr_t>(chars) & 4095) <= 4096 - 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(chars));
      if ((escapes(v, ascii_only) & ((1u << n) - 1)) == 0) {
        d[0] = '"';
        _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 1), v);
        d[n + 1] = '"';
        return d + n + 2;
      }
    }
#endif
    size_t from = 0; // where the core goes on: the characters before it need no escape
#if defined(__SSE2__)
    if (n - 16 <= 16) {
      // From 16 to 32 bytes (URLs, dates, ids): two vectors, the first and the last 16 bytes,
      // which overlap below 32.
      const __m128i first = _mm_loadu_si128(reinterpret_cast<const __m128i *>(chars));
      const __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i *>(chars + n - 16));
      if ((escapes(first, ascii_only) | escapes(last, ascii_only)) == 0) {
        d[0] = '"';
        _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 1), first);
        _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 1 + n - 16), last);
        d[n + 1] = '"';
        return d + n + 2;
      }
    } else if (n > 32) {
      // Longer: 16 bytes at a time, each stored as it is checked, then the last 16 (which
      // overlap the block before them); the core from the first block that holds an escape.
      while (from + 16 <= n) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(chars + from));
        if (escapes(v, ascii_only) != 0) { break; }
        _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 1 + from), v);
        from += 16;
      }
      if (from + 16 > n) {
        const __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i *>(chars + n - 16));
        if (from == n || escapes(last, ascii_only) == 0) {
          d[0] = '"';
          _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 1 + n - 16), last);
          d[n + 1] = '"';
          return d + n + 2;
        }
      }
    }
#endif
    d[0] = '"';
    const size_t end = 1 + from + write_json_escaped_utf8(reinterpret_cast<const uint8_t *>(chars) + from, n - from,
                                                          reinterpret_cast<uint8_t *>(d + 1 + from), ascii_only);
    d[end] = '"';
    return d + end + 1;
  }

private:
  bool needs_escape(uint32_t c) const { return c < 0x20 || c == '"' || c == '\\' || (c == 0x7f && ensure_ascii_); }

#if defined(__SSE2__)
  /** The bytes of v that need an escape, a bit each (bit j for byte j): controls (< 0x20), '"',
   *  '\\', and DEL (0x7f) where ensure_ascii. A byte past ASCII never counts. */
  static uint32_t escapes(__m128i v, bool ascii_only) {
    // v ^ 2 is at most 0x20 for the controls and for '"' (0x22) alone: one test for both.
    const __m128i space = _mm_set1_epi8(0x20);
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(_mm_xor_si128(v, _mm_set1_epi8(2)), space), space),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    if (ascii_only) { m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))); }
    return uint32_t(_mm_movemask_epi8(m));
  }
#endif

  /** A str that is not ASCII: escaped to \uXXXX (ensure_ascii) or written as UTF-8. */
  template <typename Char> bool write_wide(output &out, const Char *chars, size_t n, bool surrogates) const {
    out.reserve(n * 12 + 2); // at most two \uXXXX per character
    // Written through a local pointer, the output's size set once at the end: through out.put
    // it was stored and reloaded around every byte (a char store may alias the member).
    char *const start = out.tail();
    char *d = start;
    *d++ = '"';
    for (size_t i = 0; i < n; i++) {
      const uint32_t c = chars[i];
      if (c < 0x80) {
        if (needs_escape(c)) {
          d = escaped_into(d, c);
        } else {
          *d++ = char(c);
        }
      } else if (ensure_ascii_) {
        if (c >= 0x10000) {
          const uint32_t v = c - 0x10000;
          d = u_escape_into(d, 0xD800 | (v >> 10));
          d = u_escape_into(d, 0xDC00 | (v & 0x3FF));
        } else {
          d = u_escape_into(d, c);
        }
      } else if (c < 0x800) {
        d[0] = char(0xC0 | (c >> 6));
        d[1] = char(0x80 | (c & 0x3F));
        d += 2;
      } else if (c < 0x10000) {
        // A lone surrogate in its generalized form (decoded back with surrogatepass), or refused.
        if (!surrogates && c >= 0xD800 && c <= 0xDFFF) { return false; }
        d[0] = char(0xE0 | (c >> 12));
        d[1] = char(0x80 | ((c >> 6) & 0x3F));
        d[2] = char(0x80 | (c & 0x3F));
        d += 3;
      } else {
        d[0] = char(0xF0 | (c >> 18));
        d[1] = char(0x80 | ((c >> 12) & 0x3F));
        d[2] = char(0x80 | ((c >> 6) & 0x3F));
        d[3] = char(0x80 | (c & 0x3F));
        d += 4;
      }
    }
    *d++ = '"';
    out.advance(size_t(d - start));
    return true;
  }

  bool ensure_ascii_;
};

} // namespace simdbridge::python

#endif // SIMDBRIDGE_PYTHON_TEXT_OUTPUT_H
