// SPDX-License-Identifier: Apache-2.0
// The CPython internals the extension relies on, in one place: what each is, why it is used,
// and the versions it was checked against. Everything else in python/ext uses the C API only.
//
// Checked against CPython 3.10, 3.11, 3.12 and 3.13 headers (the extension builds on each; the
// tests run on 3.11, the machine's Python). A new minor version must be checked here first.
//
// Private but exported functions, used where the public API would cost a copy or a hash:
//   _PyBytes_Resize            shrink the bytes object a writer filled (text_output.h, arrow.cpp)
//   _PyDict_NewPresized        a dict sized from the tape's member count (builder.cpp)
//   _PyObject_GetDictPtr       a dataclass's or object's __dict__ slot (dumpb.cpp)
//   _PyDict_SetItem_KnownHash  before 3.13, below
//   _PyType_Lookup             a view's method descriptor, from the type's method cache (views.cpp)
//   _Py_NewReference           before 3.13, below
// Layouts read directly, below: PyLongObject's digits (3.10, 3.11), PyDictKeysObject (3.11), the
// calling frame's specialized instruction (3.11); and PyCFunctionObject, public in
// cpython/methodobject.h (views.cpp makes bound methods of its own type, a subtype of
// builtin_function_or_method, from a free list).
#ifndef SIMDBRIDGE_PYTHON_CPYTHON_INTERNALS_H
#define SIMDBRIDGE_PYTHON_CPYTHON_INTERNALS_H

#include <Python.h>
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#include <opcode.h> // PRECALL_BUILTIN_FAST_WITH_KEYWORDS, not included by Python.h
#endif

#include <cstdint>

namespace simdbridge::python {

/**
 * dict[key] = value for a str key whose hash is computed already (kept in the str): inserted with
 * that hash. Python 3.13 moved _PyDict_SetItem_KnownHash to its internal headers; there the
 * public PyDict_SetItem reads the same cached hash.
 */
inline int set_str_item(PyObject *dict, PyObject *key, PyObject *value) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyDict_SetItem(dict, key, value);
#else
  return _PyDict_SetItem_KnownHash(dict, key, value, reinterpret_cast<PyASCIIObject *>(key)->hash);
#endif
}

/** An object taken from a free list made alive again: its reference count 1, and on debug builds
 *  in the list of live objects, as CPython's own free lists do. 3.13 made _Py_NewReference
 *  internal; there the count is set directly (release builds do no more). */
inline void revive(PyObject *obj) {
#if PY_VERSION_HEX >= 0x030D0000
  Py_SET_REFCNT(obj, 1);
#else
  _Py_NewReference(obj);
#endif
}

/**
 * An int's value where CPython holds it in at most two digits (|v| < 2^60 on 64-bit builds), read
 * from the object; false for any other (the caller asks CPython, which handles every int). Most
 * ints are small: PyLong_AsLongLongAndOverflow's call and checks were a third of writing one.
 */
inline bool small_int(PyObject *obj, int64_t &v) {
#if PY_VERSION_HEX >= 0x030C0000
  PyLongObject *l = reinterpret_cast<PyLongObject *>(obj);
  if (!PyUnstable_Long_IsCompact(l)) { return false; }
  v = int64_t(PyUnstable_Long_CompactValue(l));
  return true;
#else
  // 3.10 and 3.11: the sign and the count of 30-bit digits are ob_size's, least significant first.
  const Py_ssize_t size = Py_SIZE(obj);
  const digit *d = reinterpret_cast<PyLongObject *>(obj)->ob_digit;
  if (size < -2 || size > 2) { return false; }
  const int64_t magnitude = size == 0 ? 0 : (size == 1 || size == -1) ? int64_t(d[0])
                                      : int64_t(d[0]) | int64_t(d[1]) << PyLong_SHIFT;
  v = size < 0 ? -magnitude : magnitude;
  return true;
#endif
}

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(Py_LIMITED_API)
#define SIMDBRIDGE_DICT_ENTRIES 1
// CPython 3.11's dict keys (Include/internal/pycore_dict.h), for builder.cpp's dicts by shape and
// dumpb.cpp's reading of dicts.
struct dict_keys_header { // struct _dictkeysobject without its trailing arrays
  Py_ssize_t dk_refcnt;
  uint8_t dk_log2_size;
  uint8_t dk_log2_index_bytes;
  uint8_t dk_kind; // DICT_KEYS_UNICODE (1): str keys only, entries of two pointers
  uint32_t dk_version;
  Py_ssize_t dk_usable;
  Py_ssize_t dk_nentries;
};
constexpr uint8_t dict_keys_general = 0, dict_keys_unicode = 1;
struct dict_entry { // PyDictUnicodeEntry
  PyObject *key;
  PyObject *value;
};

/**
 * A combined dict's entries in insertion order, with no deleted one: of str keys only (a key and
 * a value each), or of keys of any type (a hash first). CPython makes the second kind for str
 * keys too where a dict is sized before its keys are known (_PyDict_NewPresized: orjson.loads
 * makes its objects of more than eight keys so). False for any other dict.
 */
struct dict_items {
  PyObject **first = nullptr; // the first entry's key, its value next to it
  size_t stride = 0;          // pointers from one entry's key to the next's
  explicit operator bool() const noexcept { return first != nullptr; }
  /** The i-th entry's key, its value at [1]. */
  PyObject **at(Py_ssize_t i) const noexcept { return first + size_t(i) * stride; }
};

inline dict_items combined_items(PyObject *dict) noexcept {
  auto *d = reinterpret_cast<PyDictObject *>(dict);
  if (d->ma_values != nullptr) { return {}; }
  auto *keys = reinterpret_cast<dict_keys_header *>(d->ma_keys);
  if (keys->dk_nentries != d->ma_used) { return {}; }
  char *indices = reinterpret_cast<char *>(keys) + sizeof(dict_keys_header);
  auto *entries = reinterpret_cast<PyObject **>(indices + (size_t(1) << keys->dk_log2_index_bytes));
  if (keys->dk_kind == dict_keys_unicode) { return {entries, 2}; }
  if (keys->dk_kind == dict_keys_general) { return {entries + 1, 3}; } // PyDictKeyEntry: hash, key, value
  return {};
}

/** The entries of a combined dict of str keys, in insertion order (null for any other dict). */
inline dict_entry *unicode_entries(PyObject *dict) noexcept {
  const dict_items items = combined_items(dict);
  return items.stride == 2 ? reinterpret_cast<dict_entry *>(items.first) : nullptr;
}
#endif

/**
 * True where the Python code that called a METH_FASTCALL | METH_KEYWORDS function did it through
 * CPython 3.11's specialized instruction, which calls the function without the recursion check
 * every other route takes (one level of sys.getrecursionlimit()). Read from the calling frame's
 * adaptive bytecode at its last instruction; false from C callers and on other versions, where
 * every call takes the check.
 */
inline bool called_without_recursion_check() {
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(Py_LIMITED_API)
  PyFrameObject *frame = PyEval_GetFrame(); // borrowed
  if (frame == nullptr) { return false; }
  PyCodeObject *code = PyFrame_GetCode(frame);
  const int lasti = PyFrame_GetLasti(frame);
  const bool specialized = lasti >= 0 && lasti < _PyCode_NBYTES(code) &&
                           _Py_OPCODE(_PyCode_CODE(code)[lasti / int(sizeof(_Py_CODEUNIT))]) ==
                               PRECALL_BUILTIN_FAST_WITH_KEYWORDS;
  Py_DECREF(code);
  return specialized;
#else
  return false;
#endif
}

} // namespace simdbridge::python

#endif // SIMDBRIDGE_PYTHON_CPYTHON_INTERNALS_H
