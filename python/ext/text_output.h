// SPDX-License-Identifier: Apache-2.0
// What both writers share (encoder.cpp: json.dumps's text; dumpb.cpp: orjson.dumps's bytes): a
// growable UTF-8 buffer, the shortest round-trip digits of a double, and JSON string escaping.
#ifndef SIMDBRIDGE_PYTHON_TEXT_OUTPUT_H
#define SIMDBRIDGE_PYTHON_TEXT_OUTPUT_H

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "common.h"
#include "simdbridge/writer.h"

namespace simdbridge::python {

/**
 * The output: a growable byte buffer. reserve() once per value, then unchecked writes (a
 * std::string's append costs a call and a check per piece: 30% of dumps, measured).
 */
class output {
public:
  output() : data_(static_cast<char *>(std::malloc(capacity_))) {
    if (data_ == nullptr) { throw std::bad_alloc(); }
  }
  ~output() { std::free(data_); }
  output(const output &) = delete;
  output &operator=(const output &) = delete;

  void reserve(size_t more) {
    if (capacity_ - size_ >= more) { return; }
    size_t wanted = capacity_ * 2;
    while (wanted - size_ < more) { wanted *= 2; }
    char *grown = static_cast<char *>(std::realloc(data_, wanted));
    if (grown == nullptr) { throw std::bad_alloc(); }
    data_ = grown;
    capacity_ = wanted;
  }
  /** Unchecked: after reserve(). */
  void put(char c) { data_[size_++] = c; }
  void put(const char *p, size_t n) {
    std::memcpy(data_ + size_, p, n);
    size_ += n;
  }
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
  char *data_;
};

/** A finite double's shortest round-trip decimal digits: the value is 0.d1d2...dn x 10^point. */
struct decimal_digits {
  bool negative = false;
  char digits[24];
  int count = 0;
  int point = 0; // digits before the decimal point (negative: zeros after it first)
};

inline decimal_digits shortest_digits(double d) {
  decimal_digits out;
  out.negative = std::signbit(d);
  const decimal v = shortest_decimal(d); // the core's (Schubfach); to_chars took 2.6 times as long
  if (v.significand == 0) {
    out.digits[0] = '0';
    out.count = 1;
    out.point = 1;
    return out;
  }
  const auto r = std::to_chars(out.digits, out.digits + sizeof out.digits, v.significand);
  out.count = int(r.ptr - out.digits);
  out.point = out.count + v.exponent;
  return out;
}

/**
 * The digits in positional form ("0.001", "120.0", "1.5"); unchecked: the caller reserves
 * count + |point| + 3 bytes.
 */
inline void put_positional(output &out, const decimal_digits &v) {
  const int n = v.count, point = v.point;
  if (point <= 0) {
    out.put("0.", 2);
    for (int z = 0; z < -point; z++) { out.put('0'); }
    out.put(v.digits, size_t(n));
  } else if (point >= n) {
    out.put(v.digits, size_t(n));
    for (int z = 0; z < point - n; z++) { out.put('0'); }
    out.put(".0", 2);
  } else {
    out.put(v.digits, size_t(point));
    out.put('.');
    out.put(v.digits + point, size_t(n - point));
  }
}

/** The digits as d[.ddd] and an 'e' (unchecked), for the caller to write the exponent. */
inline void put_mantissa(output &out, const decimal_digits &v) {
  out.put(v.digits[0]);
  if (v.count > 1) {
    out.put('.');
    out.put(v.digits + 1, size_t(v.count - 1));
  }
  out.put('e');
}

inline char hex_digit(unsigned v) { return "0123456789abcdef"[v & 15]; }

/** Unchecked: after reserving 6 bytes. */
inline void put_u_escape(output &out, uint32_t unit) {
  const char e[6] = {'\\', 'u', hex_digit(unit >> 12), hex_digit(unit >> 8), hex_digit(unit >> 4), hex_digit(unit)};
  out.put(e, 6);
}

/** An ASCII character that needs escaping, escaped (unchecked: 6 bytes reserved). */
inline void put_escaped_ascii(output &out, uint32_t c) {
  switch (c) {
  case '"': out.put("\\\"", 2); break;
  case '\\': out.put("\\\\", 2); break;
  case '\n': out.put("\\n", 2); break;
  case '\r': out.put("\\r", 2); break;
  case '\t': out.put("\\t", 2); break;
  case '\b': out.put("\\b", 2); break;
  case '\f': out.put("\\f", 2); break;
  default: put_u_escape(out, c); break; // the other controls, and DEL where ensure_ascii
  }
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

private:
  bool needs_escape(uint32_t c) const { return c < 0x20 || c == '"' || c == '\\' || (c == 0x7f && ensure_ascii_); }

  /**
   * The bytes of 8 ASCII characters that need an escape, as a mask of each byte's top bit:
   * controls (< 0x20), '"', '\\', and DEL (0x7f) where ensure_ascii.
   */
  uint64_t escapes_in(uint64_t w) const {
    constexpr uint64_t ones = 0x0101010101010101ULL, top = 0x8080808080808080ULL;
    auto zero_bytes = [](uint64_t v) { return (v - ones) & ~v & top; };
    uint64_t m = ((w - ones * 0x20) & ~w & top) | zero_bytes(w ^ (ones * '"')) | zero_bytes(w ^ (ones * '\\'));
    if (ensure_ascii_) { m |= zero_bytes(w ^ (ones * 0x7f)); }
    return m;
  }

  /** Runs with no character to escape go in with one copy; 8 bytes are checked at a time. A
   *  byte past ASCII never counts as one to escape (UTF-8 passes through). */
  void write_ascii(output &out, const char *chars, size_t n) const {
    out.reserve(n * 6 + 2);
    out.put('"');
    size_t run = 0, i = 0;
    while (i < n) {
      if (i + 8 <= n) {
        uint64_t w;
        std::memcpy(&w, chars + i, 8);
        if (escapes_in(w) == 0) {
          i += 8;
          continue;
        }
      }
      const uint32_t c = static_cast<unsigned char>(chars[i]);
      if (needs_escape(c)) {
        out.put(chars + run, i - run);
        put_escaped_ascii(out, c);
        run = i + 1;
      }
      i++;
    }
    out.put(chars + run, n - run);
    out.put('"');
  }

  /** A str that is not ASCII: escaped to \uXXXX (ensure_ascii) or written as UTF-8. */
  template <typename Char> bool write_wide(output &out, const Char *chars, size_t n, bool surrogates) const {
    out.reserve(n * 12 + 2); // at most two \uXXXX per character
    out.put('"');
    for (size_t i = 0; i < n; i++) {
      const uint32_t c = chars[i];
      if (c < 0x80) {
        if (needs_escape(c)) {
          put_escaped_ascii(out, c);
        } else {
          out.put(char(c));
        }
      } else if (ensure_ascii_) {
        if (c >= 0x10000) {
          const uint32_t v = c - 0x10000;
          put_u_escape(out, 0xD800 | (v >> 10));
          put_u_escape(out, 0xDC00 | (v & 0x3FF));
        } else {
          put_u_escape(out, c);
        }
      } else if (c < 0x800) {
        out.put(char(0xC0 | (c >> 6)));
        out.put(char(0x80 | (c & 0x3F)));
      } else if (c < 0x10000) {
        // A lone surrogate in its generalized form (decoded back with surrogatepass), or refused.
        if (!surrogates && c >= 0xD800 && c <= 0xDFFF) { return false; }
        out.put(char(0xE0 | (c >> 12)));
        out.put(char(0x80 | ((c >> 6) & 0x3F)));
        out.put(char(0x80 | (c & 0x3F)));
      } else {
        out.put(char(0xF0 | (c >> 18)));
        out.put(char(0x80 | ((c >> 12) & 0x3F)));
        out.put(char(0x80 | ((c >> 6) & 0x3F)));
        out.put(char(0x80 | (c & 0x3F)));
      }
    }
    out.put('"');
    return true;
  }

  bool ensure_ascii_;
};

} // namespace simdbridge::python

#endif // SIMDBRIDGE_PYTHON_TEXT_OUTPUT_H
