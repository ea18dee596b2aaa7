// SPDX-License-Identifier: Apache-2.0
// json_to_msgpack() and msgpack_to_json(): the core's conversions (simdbridge/msgpack.h), the GIL
// released while they run, their result written into a new bytes object.
#include <string>

#include "common.h"
#include "simdbridge/msgpack.h"

namespace simdbridge::python {
namespace {


/** The block_size= argument: at least 1. */
bool block_size_of(unsigned long long value, size_t &out) {
  if (value == 0) {
    PyErr_SetString(PyExc_ValueError, "block_size must be at least 1");
    return false;
  }
  out = size_t(value);
  return true;
}

/**
 * Runs a conversion (the GIL released for inputs of release_gil_from bytes or more) whose
 * result the core writes straight into a new bytes object: the one allocation, made with the
 * GIL taken back for it. The bytes, or null with `e` saying why (MemoryError set where the
 * allocation failed).
 */
template <typename Convert> PyObject *converted(size_t size, msgpack_error &e, Convert &&convert) {
  PyObject *result = nullptr;
  PyThreadState *released = nullptr;
  const msgpack_output output = [&](size_t n) -> uint8_t * {
    if (released != nullptr) { PyEval_RestoreThread(released); }
    result = PyBytes_FromStringAndSize(nullptr, Py_ssize_t(n));
    if (released != nullptr) { released = PyEval_SaveThread(); }
    return result == nullptr ? nullptr : reinterpret_cast<uint8_t *>(PyBytes_AS_STRING(result));
  };
  if (size >= release_gil_from) { released = PyEval_SaveThread(); }
  e = convert(output);
  if (released != nullptr) { PyEval_RestoreThread(released); }
  if (!e.ok()) {
    Py_CLEAR(result);
  }
  return result;
}

PyObject *raise_msgpack_error(const msgpack_error &e) {
  if (e.e.code == error_code::out_of_memory) { return PyErr_NoMemory(); }
  PyObject *exc = PyObject_CallFunction(state.msgpack_error, "sKK", e.e.message(), (unsigned long long)e.e.offset,
                                        (unsigned long long)e.document);
  if (exc != nullptr) {
    PyErr_SetObject(state.msgpack_error, exc);
    Py_DECREF(exc);
  }
  return nullptr;
}

} // namespace

/**
 * json_to_msgpack(data, *, ndjson=False, block_size=1048576, threads=None): JSON (str, bytes,
 * bytearray, memoryview) as MessagePack bytes, read under the package's limits; an invalid
 * document is a StreamError (a JSONDecodeError) naming the document and byte.
 */
PyObject *json_to_msgpack(PyObject *, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {"data", "ndjson", "block_size", "threads", nullptr};
  PyObject *data, *threads = Py_None;
  int ndjson = 0;
  unsigned long long block_size = 1 << 20;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$pKO:json_to_msgpack", const_cast<char **>(keywords), &data,
                                   &ndjson, &block_size, &threads)) {
    return nullptr;
  }
  msgpack_options o;
  o.ndjson = ndjson != 0;
  if (!block_size_of(block_size, o.block_size) || !thread_count(threads, o.threads)) { return nullptr; }
  input_bytes in;
  if (!in.acquire(data)) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError, "json_to_msgpack() takes str, bytes, bytearray or memoryview, not %.100s",
                   Py_TYPE(data)->tp_name);
    }
    return nullptr;
  }
  parser &p = thread_parser(); // with the package's limits set, while the GIL is held
  const input bytes = in.as_input();
  msgpack_error e;
  PyObject *result = converted(bytes.size, e, [&](const msgpack_output &out) {
    return simdbridge::json_to_msgpack(p, bytes, o, out);
  });
  if (result != nullptr || PyErr_Occurred()) { return result; }
  return raise_stream_error(e.e, e.document, data);
}

/**
 * msgpack_to_json(data, *, stream=False, validate_utf8=True, binary_as_base64=True,
 * ext_as_null=False, block_size=1048576, threads=None): MessagePack (bytes, bytearray,
 * memoryview) as compact JSON bytes (NDJSON where `stream`); arrays and maps nest at most the
 * package's max_depth, and each value (or the whole input) takes at most its max_document_length
 * bytes; malformed input is a MessagePackError naming the byte.
 */
PyObject *msgpack_to_json(PyObject *, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {"data", "stream", "validate_utf8", "binary_as_base64", "ext_as_null",
                                   "block_size", "threads", nullptr};
  PyObject *data, *threads = Py_None;
  int stream = 0, validate_utf8 = 1, base64 = 1, ext_as_null = 0;
  unsigned long long block_size = 1 << 20;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$ppppKO:msgpack_to_json", const_cast<char **>(keywords), &data,
                                   &stream, &validate_utf8, &base64, &ext_as_null, &block_size, &threads)) {
    return nullptr;
  }
  msgpack_options o;
  o.stream = stream != 0;
  o.validate_utf8 = validate_utf8 != 0;
  o.binary_as_base64 = base64 != 0;
  o.ext_as_null = ext_as_null != 0;
  o.max_depth = state.limits.max_depth;
  o.max_value_length = state.limits.max_document_length;
  if (!block_size_of(block_size, o.block_size) || !thread_count(threads, o.threads)) { return nullptr; }
  input_bytes in;
  if (PyUnicode_Check(data) || !in.acquire(data)) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError, "msgpack_to_json() takes bytes, bytearray or memoryview, not %.100s",
                   Py_TYPE(data)->tp_name);
    }
    return nullptr;
  }
  const std::string_view view = in.view();
  const input bytes = input::copy_of(view.data(), view.size());
  parser &p = thread_parser(); // its buffers kept for the next call (the limits are o's)
  msgpack_error e;
  PyObject *result = converted(bytes.size, e, [&](const msgpack_output &out) {
    return simdbridge::msgpack_to_json(p, bytes, o, out);
  });
  if (result != nullptr || PyErr_Occurred()) { return result; }
  return raise_msgpack_error(e);
}

} // namespace simdbridge::python
