// SPDX-License-Identifier: Apache-2.0
// A parsed document's tape into Python objects: what json.loads would return for it.
//
// What makes it fast: object keys come from a cache of str objects (ASCII keys up to 64 bytes,
// found by a hash of their bytes), which also carry their Python hash, so dict insertion does
// not hash them again; ASCII strings are made with one copy; dicts and lists are sized from the
// counts the tape holds. Duplicate keys go through PyDict_SetItem in order, as in json: the
// last value wins, at the first key's position.
#include <cstring>
#include <string>

#include "common.h"

namespace simdbridge::python {

namespace {

constexpr size_t key_cache_size = 4096;
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

// Touched only with the GIL held.
cached_key key_cache[key_cache_size];

/** Up to 8 bytes at p (n of them), the rest zero. Reads 8 bytes: simdjson's string buffer has
 *  at least 64 bytes of slack after its last string, and a key is followed by its NUL. */
inline uint64_t word(const char *p, size_t n) noexcept {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return n >= 8 ? w : w & ((uint64_t(1) << (8 * n)) - 1);
}

inline bool is_ascii(const char *p, size_t n) noexcept {
  uint64_t bits = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    bits |= w;
  }
  for (; i < n; i++) { bits |= uint8_t(p[i]); }
  return (bits & 0x8080808080808080ULL) == 0;
}

/** Eight ASCII bytes as eight characters of `Char`. */
template <typename Char> inline void widen8(const uint8_t *s, Char *out) {
  if constexpr (sizeof(Char) == 1) {
    std::memcpy(out, s, 8);
  } else {
    for (int b = 0; b < 8; b++) { out[b] = Char(s[b]); }
  }
}

/** Writes the characters of valid UTF-8 into `out`, a run of 8 ASCII bytes at a time where it can. */
template <typename Char>
void decode_into(const uint8_t *s, size_t n, Char *out) {
  size_t i = 0;
  while (i < n) {
    uint32_t c = s[i];
    if (c < 0x80) { // ASCII: eight at a time where the next eight are
      uint64_t w;
      if (i + 8 <= n && (std::memcpy(&w, s + i, 8), (w & 0x8080808080808080ULL) == 0)) {
        widen8(s + i, out);
        out += 8;
        i += 8;
      } else {
        *out++ = Char(c);
        i += 1;
      }
      continue;
    }
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
    *out++ = Char(c);
  }
}

/** A str from valid UTF-8 (simdjson validated it): counted, then written in the narrowest kind. */
PyObject *decode_utf8(const char *p, size_t n) {
  const auto *s = reinterpret_cast<const uint8_t *>(p);
  // Characters are the bytes that are not continuations (10xxxxxx). The widest character: a
  // lead byte of 0xC4 or more leaves Latin-1, one of 0xF0 or more the Basic Multilingual Plane.
  // Eight bytes at a time: in each byte's top bit, w & ~(w << 1) marks continuations, and
  // w & (w << 1) marks bytes 11xxxxxx.
  constexpr uint64_t top = 0x8080808080808080ULL;
  size_t continuations = 0;
  uint64_t beyond_latin1 = 0, beyond_bmp = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, s + i, 8);
    // One bit per byte at most: a multiplication sums them (popcount is a library call on
    // generic x86-64, measured at 4% of loads on gsoc-2018.json).
    continuations += size_t((((w & ~(w << 1) & top) >> 7) * 0x0101010101010101ULL) >> 56);
    const uint64_t lead = w & (w << 1) & top; // 11xxxxxx
    beyond_latin1 |= lead & ((w & 0x3C3C3C3C3C3C3C3CULL) + 0x7C7C7C7C7C7C7C7CULL); // and xx1111xx != 0: >= 0xC4
    beyond_bmp |= lead & (w << 2) & (w << 3);                                        // 1111xxxx: >= 0xF0
  }
  for (; i < n; i++) {
    continuations += (s[i] & 0xC0) == 0x80;
    beyond_latin1 |= s[i] >= 0xC4;
    beyond_bmp |= s[i] >= 0xF0;
  }
  const Py_UCS4 max_char = beyond_bmp ? 0x10FFFF : beyond_latin1 ? 0xFFFF : 0xFF;
  PyObject *out = PyUnicode_New(Py_ssize_t(n - continuations), max_char);
  if (out == nullptr) { return nullptr; }
  switch (PyUnicode_KIND(out)) {
  case PyUnicode_1BYTE_KIND: decode_into(s, n, PyUnicode_1BYTE_DATA(out)); break;
  case PyUnicode_2BYTE_KIND: decode_into(s, n, PyUnicode_2BYTE_DATA(out)); break;
  default: decode_into(s, n, PyUnicode_4BYTE_DATA(out)); break;
  }
  return out;
}

/** A str from valid UTF-8. */
inline PyObject *make_str(const char *p, size_t n, bool ascii) {
  if (ascii) {
    PyObject *s = PyUnicode_New(Py_ssize_t(n), 127);
    if (s != nullptr) { std::memcpy(PyUnicode_1BYTE_DATA(s), p, n); }
    return s;
  }
  return decode_utf8(p, n);
}

/** A key: its hash computed, so that the dict need not (PyObject_Hash keeps it in the str). */
inline PyObject *uncached_key(const char *p, size_t n, bool ascii) {
  PyObject *s = make_str(p, n, ascii);
  if (s != nullptr && PyObject_Hash(s) == -1) { Py_CLEAR(s); }
  return s;
}

inline PyObject *make_key(std::string_view key) {
  const char *p = key.data();
  const size_t n = key.size();
  if (n > key_cache_max_length) { return uncached_key(p, n, is_ascii(p, n)); }
  const uint64_t w0 = word(p, n);
  const uint64_t w1 = n > 8 ? word(p + 8, n - 8) : 0;
  // Independent multiplications (no long chain before the table is read); the length and, past
  // 16 bytes, the last 8 bytes are mixed in too: twitter.json's many keys that share their first
  // 16 bytes ("profile_background_...") must not all fall on one slot.
  const uint64_t tail = n > 16 ? word(p + n - 8, 8) : 0;
  const uint64_t h = (w0 * 0x9E3779B97F4A7C15ULL) ^ (w1 * 0xC2B2AE3D27D4EB4FULL) ^
                     ((tail ^ uint64_t(n)) * 0x165667B19E3779F9ULL);
  cached_key &slot = key_cache[(h >> 40) & (key_cache_size - 1)];
  if (slot.str != nullptr && slot.w0 == w0 && slot.w1 == w1 && slot.length == n &&
      (n <= 16 || std::memcmp(PyUnicode_1BYTE_DATA(slot.str) + 16, p + 16, n - 16) == 0)) {
    Py_INCREF(slot.str);
    return slot.str;
  }
  const bool ascii = is_ascii(p, n);
  PyObject *s = uncached_key(p, n, ascii);
  if (s == nullptr || !ascii) { return s; } // a non-ASCII key is not cached: its bytes are not the str's
  return slot.fill(w0, w1, n, s);
}

/**
 * Short ASCII string values (up to 16 bytes), shared: JSON repeats them (codes, enumerations),
 * and a str is immutable, so equal values may be one object (CPython shares strings itself).
 */
constexpr size_t value_cache_size = 1024;
cached_key value_cache[value_cache_size];

inline PyObject *make_value_str(std::string_view value) {
  const char *p = value.data();
  const size_t n = value.size();
  if (n > 16) { return make_str(p, n, is_ascii(p, n)); }
  const uint64_t w0 = word(p, n);
  const uint64_t w1 = n > 8 ? word(p + 8, n - 8) : 0;
  if (((w0 | w1) & 0x8080808080808080ULL) != 0) { return decode_utf8(p, n); }
  const uint64_t h = (w0 * 0x9E3779B97F4A7C15ULL) ^ ((w1 ^ uint64_t(n)) * 0xC2B2AE3D27D4EB4FULL);
  cached_key &slot = value_cache[(h >> 40) & (value_cache_size - 1)];
  if (slot.str != nullptr && slot.w0 == w0 && slot.w1 == w1 && slot.length == n) {
    Py_INCREF(slot.str);
    return slot.str;
  }
  PyObject *s = make_str(p, n, true);
  return s == nullptr ? nullptr : slot.fill(w0, w1, n, s);
}

/** The value at i; i moves past it. A new reference, or null with an exception set. */
PyObject *build(const tape_view &t, size_t &i) {
  const tape_kind kind = t.kind(i);
  switch (kind) {
  case tape_kind::object: {
    const uint32_t n = t.count(i);
    PyObject *dict = (n > 5 && n < tape_view::count_saturated) ? _PyDict_NewPresized(Py_ssize_t(n)) : PyDict_New();
    if (dict == nullptr) { return nullptr; }
    size_t j = i + 1;
    while (t.kind(j) != tape_kind::object_end) {
      PyObject *key = make_key(t.string(j));
      j++;
      PyObject *value = key ? build(t, j) : nullptr;
      // A key's hash is in the str already (a cached key's, or computed by make_str's caller).
      if (value == nullptr || _PyDict_SetItem_KnownHash(dict, key, value, reinterpret_cast<PyASCIIObject *>(key)->hash) < 0) {
        Py_XDECREF(key);
        Py_XDECREF(value);
        Py_DECREF(dict);
        return nullptr;
      }
      Py_DECREF(key);
      Py_DECREF(value);
    }
    i = j + 1;
    return dict;
  }
  case tape_kind::array: {
    const uint32_t n = t.count(i);
    size_t j = i + 1;
    if (n < tape_view::count_saturated) {
      PyObject *list = PyList_New(Py_ssize_t(n));
      if (list == nullptr) { return nullptr; }
      for (uint32_t k = 0; k < n; k++) {
        PyObject *item = build(t, j);
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
      PyObject *item = build(t, j);
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

} // namespace

PyObject *build_value(const tape_view &tape, size_t i) {
  // The cyclic GC would scan the growing tree again and again as containers are made (a third
  // of the time, measured); a tree from JSON has no cycles, so it waits until the tree is done.
  const int was_enabled = PyGC_Disable();
  PyObject *value = build(tape, i);
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
