// SPDX-License-Identifier: Apache-2.0
// What the extension's files share: Python objects looked up once, the per-thread parser, and
// the functions each file provides. The extension sees only the core's public API.
#ifndef SIMDBRIDGE_PYTHON_COMMON_H
#define SIMDBRIDGE_PYTHON_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "simdbridge/arrow.h"
#include "simdbridge/document.h"
#include "simdbridge/json_pointer.h"
#include "simdbridge/parser.h"
#include "simdbridge/stream.h"

namespace simdbridge::python {

/** Objects looked up once at import (module.cpp). */
struct module_state {
  PyObject *json_loads = nullptr;          // json.loads: the fallback and the arbiter of errors
  PyObject *json_dumps = nullptr;          // json.dumps: for cls=, and the exact text of errors
  PyObject *json_decode_error = nullptr;   // json.JSONDecodeError
  PyObject *json_decoder_decode = nullptr; // json._default_decoder.decode: deep documents
  PyObject *json_detect_encoding = nullptr; // json.detect_encoding
  PyObject *decode_error = nullptr;        // simdbridge.JSONDecodeError, its subclass
  PyObject *stream_error = nullptr;        // simdbridge.StreamError, a JSONDecodeError
  PyObject *limit_error = nullptr;         // simdbridge.LimitError, a StreamError
  PyObject *msgpack_error = nullptr;       // simdbridge.MessagePackError, a ValueError
  /** The limits set_limits() chose for every parser of the package, and their version. */
  simdbridge::parser_options limits;
  uint64_t limits_version = 0;
};
extern module_state state;

/** This thread's parser: one per thread, reused, with the package's limits (call under the GIL). */
simdbridge::parser &thread_parser();

/** Bytes to parse, from bytes, bytearray, memoryview or str; released when it goes. */
class input_bytes {
public:
  /** False (no exception set) where the object is not one of those, or a str that has no UTF-8 form. */
  /**
   * Takes str (as UTF-8), bytes, bytearray or memoryview. False for another type (no exception
   * set), or for a str with lone surrogates, which has no UTF-8 form (UnicodeEncodeError set).
   */
  bool acquire(PyObject *obj);
  ~input_bytes();
  std::string_view view() const { return {data_, size_}; }
  /**
   * The bytes for the parser: read in place where the padding simdjson reads past them lies in
   * the same memory page as their last byte (so the read cannot fault; its content does not
   * matter but for the byte right after, which is the NUL that bytes and a str's UTF-8 end in),
   * copied once otherwise: most inputs are read with no copy at all.
   */
  simdbridge::input as_input() const;
  bool is_str() const { return is_str_; }

private:
  Py_buffer buffer_{};
  bool has_buffer_ = false;
  bool is_str_ = false;
  const char *data_ = nullptr;
  size_t size_ = 0;
};

// builder.cpp: tape to Python objects.
/** The value at tape index i as new Python objects (the key cache makes dict keys cheap). */
PyObject *build_value(const tape_view &tape, size_t i);
/** A key of an object on a tape as a str, from the key cache build_value uses (call under the GIL). */
PyObject *object_key(std::string_view key);
/**
 * The index of the value at a JSON Pointer from index i, or SIZE_MAX where there is none; the
 * pointer as its tokens (simdbridge::parse_json_pointer).
 */
size_t find_pointer(const tape_view &tape, size_t i, const std::vector<std::string> &tokens);

/** A new reference, released at the end of the scope. */
struct owned {
  PyObject *p;
  explicit owned(PyObject *o) : p(o) {}
  ~owned() { Py_XDECREF(p); }
  owned(const owned &) = delete;
  owned &operator=(const owned &) = delete;
};

// errors.cpp: the one place where core errors become Python exceptions.
/** json.loads(obj, **kwargs), its JSONDecodeError re-raised as simdbridge.JSONDecodeError. */
PyObject *json_loads_fallback(PyObject *obj, PyObject *kwargs);
/**
 * json.loads(obj) for a document nested past the parser's depth, its RecursionError at the same
 * depth, naming the same container (array or object), as json.loads called where the caller
 * called us. json.loads's own frame costs one level of the recursion limit, as does calling a
 * builtin function, except where the interpreter called a METH_FASTCALL one through its
 * specialized instruction. So json's decoder is called directly, after one level taken where a
 * `fastcall` function was entered that way.
 */
PyObject *json_loads_deep(PyObject *obj, bool fastcall);
/**
 * A StreamError for document `index` (from 1) at byte `offset` of a stream; a LimitError (a
 * StreamError that names the limit) where the error is a limit passed.
 */
struct line_column {
  uint64_t line, column;
};
/** `where`: the error's line and column where `input` is not the text (a path, a file). */
PyObject *raise_stream_error(const simdbridge::error &e, uint64_t index, PyObject *input,
                             const line_column *where = nullptr);
/** The set_limits() name of the limit `code` reports, or null where it reports none. */
const char *limit_name(error_code code);
/**
 * A StreamError (LimitError for a limit) for NDJSON that could not be read into Arrow; `placed`:
 * `input` is the file read, and e.line and e.column the error's place in it (0 where unknown).
 */
PyObject *raise_arrow_error(const simdbridge::arrow_error &e, PyObject *input, bool placed = false);
/** ValueError naming a bad JSON Pointer. */
PyObject *raise_bad_pointer(std::string_view pointer);

// encoder.cpp
PyObject *dumps(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

// dumpb.cpp
PyObject *dumpb(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
/** Adds dumpb's option flags (OPT_INDENT_2, ...: orjson's names and values) to the module. */
bool add_dumpb_options(PyObject *module);

// views.cpp
bool init_views(PyObject *module);
/** A view (Object or Array) of the value at i, keeping `owner` (a Document) alive; scalars are built. */
PyObject *make_view(PyObject *owner, const tape_view &tape, size_t i);
/** A Document that owns `doc` (moved in), as a new reference; null with an exception set on failure. */
PyObject *new_document(simdbridge::document &&doc);
/** A document to parse into: one whose views are gone (its buffers reused), or a new one. */
simdbridge::document take_document();

// arrow.cpp
bool init_arrow(PyObject *module);
PyObject *loads_arrow(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *load_arrow_fd(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *dumpb_arrow(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *dump_arrow(PyObject *self, PyObject *args, PyObject *kwargs);

/** Inputs this size or larger are parsed (and converted) with the GIL released. */
constexpr size_t release_gil_from = 4096;

/** threads=: None for one per core, else at least 1; false with an exception set. */
bool thread_count(PyObject *threads, unsigned &out);

/** dumpb_many(iterable, /, default=None, option=None): NDJSON bytes, as dumpb writes each object. */
PyObject *dumpb_many(PyObject *self, PyObject *args, PyObject *kwargs);

// msgpack.cpp
PyObject *json_to_msgpack(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *msgpack_to_json(PyObject *self, PyObject *args, PyObject *kwargs);

// streams.cpp
bool init_streams(PyObject *module);
PyObject *loads_many(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *parse_many(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *map_many(PyObject *self, PyObject *args, PyObject *kwargs);

} // namespace simdbridge::python

#endif // SIMDBRIDGE_PYTHON_COMMON_H
