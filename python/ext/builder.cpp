// SPDX-License-Identifier: Apache-2.0
// A parsed document's tape into Python objects: what json.loads would return for it (strings
// are made by utf8_to_str.h).
//
// What makes it fast: object keys come from a cache of str objects (keys up to 256 bytes,
// found by a hash of their bytes; two ways per set, so that two hot keys that share a set do
// not evict each other),
// which also carry their Python hash, so dict insertion does not hash them again; ASCII strings
// are made with one copy, others counted and decoded sixteen ASCII bytes at a time; dicts and
// lists are sized from the counts the tape holds; scalars are made inline in the containers'
// loops, without a call per value; on CPython 3.11, a dict whose key sequence was seen before
// is a copy of a template with those keys, its values written in place (see "Dicts by shape").
// Duplicate keys go
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
#include "simdbridge/stack.h"
#include "cpython_internals.h"
#include "utf8_to_str.h"

namespace simdbridge::python {

namespace {

constexpr size_t key_cache_sets = 2048; // two ways each: 4096 keys, 128 KB
constexpr size_t key_cache_max_length = 256;

/**
 * A cached key: its first 16 bytes inline (w0, w1), so that a key of up to 16 bytes is matched
 * without touching its str; longer keys compare their tail with the str's bytes.
 */
struct cached_key {
  uint64_t w0 = 0, w1 = 0;
  uint32_t length = 0;
  PyObject *str = nullptr; // owned; the key's str

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

/** A key: its hash computed, so that the dict need not (PyObject_Hash keeps it in the str). */
inline PyObject *uncached_key(const char *p, size_t n) {
  PyObject *s = make_str(p, n);
  if (s != nullptr && PyObject_Hash(s) == -1) { Py_CLEAR(s); }
  return s;
}

/** A cached key's UTF-8 bytes: an ASCII str's own, or the UTF-8 copy CPython keeps in the str. */
inline const char *utf8_of(PyObject *s) {
  return PyUnicode_IS_ASCII(s) ? reinterpret_cast<const char *>(PyUnicode_1BYTE_DATA(s)) : PyUnicode_AsUTF8(s);
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
    return k.w0 == w0 && k.w1 == w1 && k.length == n && (n <= 16 || std::memcmp(utf8_of(k.str) + 16, p + 16, n - 16) == 0);
  });
  if (cached != nullptr) { return cached; }
  PyObject *s = uncached_key(p, n);
  if (s == nullptr) { return nullptr; }
  // A non-ASCII key's UTF-8 bytes are kept in its str (CPython's own UTF-8 cache) for the tail's
  // comparison above; json shares repeated keys whatever their characters.
  if (n > 16 && !PyUnicode_IS_ASCII(s) && PyUnicode_AsUTF8(s) == nullptr) {
    Py_DECREF(s);
    return nullptr;
  }
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

PyObject *build(const tape_view &t, size_t &i, uintptr_t floor);

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
[[gnu::always_inline]] inline PyObject *build_any(const tape_view &t, size_t &i, uintptr_t floor) {
  const tape_kind kind = t.kind(i);
  if (kind == tape_kind::object || kind == tape_kind::array) { return build(t, i, floor); }
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
 * Writing the values needs the layout of CPython 3.11's dict keys, mirrored in
 * cpython_internals.h and checked on every template made: a template whose entries are not
 * where the mirror says is never used.
 */
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
PyObject *build_from_shape(const shape &s, const tape_view &t, size_t &i, uint32_t n, uintptr_t floor) {
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
    PyObject *value = build_any(t, j, floor);
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

/**
 * The container at i; i moves past it. A new reference, or null with an exception set. `floor`:
 * simdbridge::stack_floor(), below which it refuses to go deeper.
 */
PyObject *build(const tape_view &t, size_t &i, uintptr_t floor) {
  if (!simdbridge::stack_has_room(floor)) {
    // Only under a max_depth raised far past the default: json's exception for nesting.
    PyErr_SetString(PyExc_RecursionError, "maximum JSON nesting depth exceeded: the document nests deeper than this "
                                          "thread's stack holds (lower max_depth, or read on a thread with a larger stack)");
    return nullptr;
  }
  if (t.kind(i) == tape_kind::object) {
    const uint32_t n = t.count(i);
#ifdef SIMDBRIDGE_DICT_SHAPES
    shape *s = nullptr;
    if (n != 0 && n <= shape_max_members) {
      s = &shape_slot(t, i, n);
      if (s->dict != nullptr && s->matches(t, i, n)) {
        s->misses = 0;
        return build_from_shape(*s, t, i, n, floor);
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
      PyObject *value = key ? build_any(t, j, floor) : nullptr;
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
      PyObject *item = build_any(t, j, floor);
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
    PyObject *item = build_any(t, j, floor);
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

PyObject *object_key(std::string_view key) { return make_key(key); }

PyObject *build_value(const tape_view &tape, size_t i) {
  const tape_kind kind = tape.kind(i);
  if (kind != tape_kind::object && kind != tape_kind::array) { return build_scalar(tape, i, kind); }
  // The cyclic GC would scan the growing tree again and again as containers are made; a tree
  // from JSON has no cycles, so it waits until the tree is done.
  const int was_enabled = PyGC_Disable();
  PyObject *value = build_any(tape, i, simdbridge::stack_floor());
  if (was_enabled) { PyGC_Enable(); }
  return value;
}

size_t find_pointer(const tape_view &t, size_t i, const std::vector<std::string> &tokens) {
  for (const std::string &token : tokens) {
    const tape_kind kind = t.kind(i);
    if (kind == tape_kind::object) {
      size_t found = SIZE_MAX;
      for (size_t j = i + 1; t.kind(j) != tape_kind::object_end; j = t.next(j + 1)) {
        if (t.string(j) == token) { found = j + 1; } // the last of duplicate keys, as json
      }
      i = found;
    } else if (kind == tape_kind::array) {
      const int64_t index = json_pointer_index(token);
      if (index < 0) { return SIZE_MAX; }
      size_t j = i + 1;
      for (int64_t k = 0; k < index && t.kind(j) != tape_kind::array_end; k++) { j = t.next(j); }
      i = t.kind(j) == tape_kind::array_end ? SIZE_MAX : j;
    } else {
      return SIZE_MAX;
    }
    if (i == SIZE_MAX) { return i; }
  }
  return i;
}

} // namespace simdbridge::python
