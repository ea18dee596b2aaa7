// SPDX-License-Identifier: Apache-2.0
// json_to_msgpack() and msgpack_to_json(): the core's conversions (simdbridge/msgpack.h), the GIL
// released while they run, their result copied into a bytes object.
#include <string>
#include <vector>

#include "common.h"
#include "simdbridge/msgpack.h"

namespace simdbridge::python {
namespace {

/** Inputs this size or larger are converted with the GIL released (as loads() parses). */
constexpr size_t release_gil_from = 4096;

/** Each thread's output buffer, reused from call to call. */
thread_local std::vector<uint8_t> converted;

/** The block_size= argument: at least 1. */
bool block_size_of(unsigned long long value, size_t &out) {
  if (value == 0) {
    PyErr_SetString(PyExc_ValueError, "block_size must be at least 1");
    return false;
  }
  out = size_t(value);
  return true;
}

template <typename Convert> msgpack_error run(size_t size, Convert &&convert) {
  if (size < release_gil_from) { return convert(); }
  msgpack_error e;
  Py_BEGIN_ALLOW_THREADS e = convert();
  Py_END_ALLOW_THREADS return e;
}

PyObject *result_bytes() {
  PyObject *bytes = PyBytes_FromStringAndSize(reinterpret_cast<const char *>(converted.data()),
                                              Py_ssize_t(converted.size()));
  if (converted.capacity() > (size_t(1) << 24)) { std::vector<uint8_t>().swap(converted); } // keep no giant buffer
  return bytes;
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
  const msgpack_error e = run(bytes.size, [&] { return simdbridge::json_to_msgpack(p, bytes, o, converted); });
  if (!e.ok()) { return raise_stream_error(e.e, e.document, data); }
  return result_bytes();
}

/**
 * msgpack_to_json(data, *, stream=False, validate_utf8=True, binary_as_base64=True,
 * ext_as_null=False, block_size=1048576, threads=None): MessagePack (bytes, bytearray,
 * memoryview) as compact JSON bytes (NDJSON where `stream`); arrays and maps nest at most the
 * package's max_depth; malformed input is a MessagePackError naming the byte.
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
  const msgpack_error e = run(bytes.size, [&] { return simdbridge::msgpack_to_json(bytes, o, converted); });
  if (!e.ok()) { return raise_msgpack_error(e); }
  return result_bytes();
}

} // namespace simdbridge::python
