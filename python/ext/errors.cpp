// SPDX-License-Identifier: Apache-2.0
// The one place where errors become Python exceptions. loads() leaves everything it does not
// read itself to json.loads, whose JSONDecodeError (message, line, column, position) is raised
// again as simdbridge.JSONDecodeError; a stream's error names its document and byte offset.
#include <string>

#include "common.h"
#include "cpython_internals.h"

namespace simdbridge::python {

namespace {

/** The error json raised, a JSONDecodeError raised again as simdbridge.JSONDecodeError. */
PyObject *reraise_as_ours() {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  PyObject *msg = PyObject_GetAttrString(value, "msg");
  PyObject *doc = PyObject_GetAttrString(value, "doc");
  PyObject *pos = PyObject_GetAttrString(value, "pos");
  if (msg != nullptr && doc != nullptr && pos != nullptr) {
    PyObject *ours = PyObject_CallFunctionObjArgs(state.decode_error, msg, doc, pos, nullptr);
    if (ours != nullptr) {
      PyErr_SetObject(state.decode_error, ours);
      Py_DECREF(ours);
    }
  } else {
    PyErr_Restore(type, value, traceback);
    type = value = traceback = nullptr;
  }
  Py_XDECREF(msg);
  Py_XDECREF(doc);
  Py_XDECREF(pos);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  return nullptr;
}

/** A JSONDecodeError from json, raised as ours; anything else (or a value) as it came. */
PyObject *from_json(PyObject *result) {
  if (result != nullptr || !PyErr_ExceptionMatches(state.json_decode_error)) { return result; }
  return reraise_as_ours();
}

} // namespace

PyObject *json_loads_fallback(PyObject *obj, PyObject *kwargs) {
  // json.loads takes str, bytes and bytearray; a memoryview's bytes read the same.
  PyObject *arg = PyMemoryView_Check(obj) ? PyBytes_FromObject(obj) : (Py_INCREF(obj), obj);
  if (arg == nullptr) { return nullptr; }
  PyObject *args = PyTuple_Pack(1, arg);
  Py_DECREF(arg);
  if (args == nullptr) { return nullptr; }
  PyObject *result = PyObject_Call(state.json_loads, args, kwargs);
  Py_DECREF(args);
  return from_json(result);
}

PyObject *json_loads_deep(PyObject *obj, bool fastcall) {
  if (fastcall && called_without_recursion_check()) {
    if (Py_EnterRecursiveCall("")) { return nullptr; }
    PyObject *result = json_loads_deep(obj, false);
    Py_LeaveRecursiveCall();
    return result;
  }
  if (PyUnicode_Check(obj)) {
    // json.loads rejects a leading byte order mark before it decodes anything.
    if (PyUnicode_GET_LENGTH(obj) > 0 && PyUnicode_READ_CHAR(obj, 0) == 0xFEFF) {
      return json_loads_fallback(obj, nullptr);
    }
    return from_json(PyObject_CallOneArg(state.json_decoder_decode, obj));
  }
  // What json.loads does to bytes: s.decode(detect_encoding(s), 'surrogatepass').
  owned bytes(PyBytes_Check(obj) ? Py_NewRef(obj) : PyBytes_FromObject(obj));
  if (bytes.p == nullptr) { return nullptr; }
  owned encoding(PyObject_CallOneArg(state.json_detect_encoding, bytes.p));
  if (encoding.p == nullptr) { return nullptr; }
  const char *name = PyUnicode_AsUTF8(encoding.p);
  if (name == nullptr) { return nullptr; }
  owned text(PyUnicode_FromEncodedObject(bytes.p, name, "surrogatepass"));
  if (text.p == nullptr) { return nullptr; }
  return from_json(PyObject_CallOneArg(state.json_decoder_decode, text.p));
}

const char *limit_name(error_code code) {
  switch (code) {
  case error_code::depth_limit: return "max_depth";
  case error_code::number_too_long: return "max_number_length";
  case error_code::document_too_long: return "max_document_length";
  case error_code::string_too_long: return "max_string_length";
  default: return nullptr;
  }
}

PyObject *raise_stream_error(const simdbridge::error &e, uint64_t index, PyObject *input, const line_column *where) {
  if (e.code == error_code::out_of_memory) { return PyErr_NoMemory(); }
  const std::string message = std::string(e.message()) + " at byte " + std::to_string(e.offset);
  const char *limit = limit_name(e.code);
  PyObject *type = limit != nullptr ? state.limit_error : state.stream_error;
  owned args(limit != nullptr ? Py_BuildValue("(sOKKs)", message.c_str(), input, (unsigned long long)e.offset,
                                              (unsigned long long)index, limit)
                              : Py_BuildValue("(sOKK)", message.c_str(), input, (unsigned long long)e.offset,
                                              (unsigned long long)index));
  if (args.p == nullptr) { return nullptr; }
  owned kwargs(where != nullptr ? Py_BuildValue("{s(KK)}", "where", (unsigned long long)where->line,
                                                (unsigned long long)where->column)
                                : nullptr);
  if (where != nullptr && kwargs.p == nullptr) { return nullptr; }
  PyObject *exc = PyObject_Call(type, args.p, kwargs.p);
  if (exc != nullptr) {
    PyErr_SetObject(type, exc);
    Py_DECREF(exc);
  }
  return nullptr;
}

PyObject *raise_arrow_error(const simdbridge::arrow_error &e, PyObject *input, bool placed) {
  if (e.code == error_code::out_of_memory) { return PyErr_NoMemory(); }
  std::string message = e.path.empty() ? "" : "field " + e.path + ": ";
  message += e.detail + " at byte " + std::to_string(e.offset);
  const char *limit = limit_name(e.code);
  PyObject *type = limit != nullptr ? state.limit_error : state.stream_error;
  const unsigned long long record = e.record;
  const unsigned long long offset = e.offset, line = e.line, column = e.column;
  owned args(limit != nullptr ? Py_BuildValue("(sOKKs)", message.c_str(), input, offset, record, limit)
                               : Py_BuildValue("(sOKK)", message.c_str(), input, offset, record));
  if (args.p == nullptr) { return nullptr; }
  // The line and column the core counted in a file (0 where it could not).
  owned where(placed ? Py_BuildValue("{s(KK)}", "where", line, column) : nullptr);
  if (placed && where.p == nullptr) { return nullptr; }
  PyObject *exc = PyObject_Call(type, args.p, where.p);
  if (exc != nullptr) {
    PyErr_SetObject(type, exc);
    Py_DECREF(exc);
  }
  return nullptr;
}

PyObject *raise_bad_pointer(std::string_view pointer) {
  PyErr_Format(PyExc_ValueError, "invalid JSON Pointer (RFC 6901): %.200s", std::string(pointer).c_str());
  return nullptr;
}

} // namespace simdbridge::python
