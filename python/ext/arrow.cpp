// SPDX-License-Identifier: Apache-2.0
// NDJSON to Arrow for Python, through the Arrow PyCapsule interface: loads_arrow returns an
// object with __arrow_c_stream__ and __arrow_c_schema__, which pyarrow.table(), polars and
// DuckDB take without a copy. The package itself never imports pyarrow.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

#include "common.h"
#include "simdbridge/arrow.h"
#include "text_output.h"

namespace simdbridge::python {

namespace {

/** The record batches read, until __arrow_c_stream__ hands them over (once). */
struct arrow_stream_object {
  PyObject_HEAD
  ArrowArrayStream stream;
};

PyTypeObject ArrowStreamType = {PyVarObject_HEAD_INIT(nullptr, 0)};

/** A capsule's destructor: releases the Arrow struct (unless moved out) and frees it. */
template <typename T> void release_capsule(PyObject *capsule, const char *name) {
  auto *owned_struct = static_cast<T *>(PyCapsule_GetPointer(capsule, name));
  if (owned_struct == nullptr) {
    PyErr_Clear();
    return;
  }
  if (owned_struct->release != nullptr) { owned_struct->release(owned_struct); }
  delete owned_struct;
}

void stream_capsule_destructor(PyObject *capsule) { release_capsule<ArrowArrayStream>(capsule, "arrow_array_stream"); }
void schema_capsule_destructor(PyObject *capsule) { release_capsule<ArrowSchema>(capsule, "arrow_schema"); }


void stream_dealloc(PyObject *self) {
  auto *s = reinterpret_cast<arrow_stream_object *>(self);
  if (s->stream.release != nullptr) { s->stream.release(&s->stream); }
  PyObject_Free(self);
}

/** __arrow_c_stream__(requested_schema=None): the stream, moved into a capsule. */
PyObject *stream_export(PyObject *self, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {"requested_schema", nullptr};
  PyObject *requested = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", const_cast<char **>(keywords), &requested)) { return nullptr; }
  auto *s = reinterpret_cast<arrow_stream_object *>(self);
  if (s->stream.release == nullptr) {
    PyErr_SetString(PyExc_ValueError, "the record batches were handed over already (an ArrowStream is read once)");
    return nullptr;
  }
  // A requested schema other than our own would need a cast, which the consumer does itself.
  auto *moved = new (std::nothrow) ArrowArrayStream(s->stream);
  if (moved == nullptr) { return PyErr_NoMemory(); }
  PyObject *capsule = PyCapsule_New(moved, "arrow_array_stream", stream_capsule_destructor);
  if (capsule == nullptr) {
    delete moved;
    return nullptr;
  }
  s->stream.release = nullptr; // the capsule owns it now
  return capsule;
}

/** __arrow_c_schema__(): the schema of the batches. */
PyObject *stream_schema(PyObject *self, PyObject *) {
  auto *s = reinterpret_cast<arrow_stream_object *>(self);
  if (s->stream.release == nullptr) {
    PyErr_SetString(PyExc_ValueError, "the record batches were handed over already (an ArrowStream is read once)");
    return nullptr;
  }
  auto *schema = new (std::nothrow) ArrowSchema();
  if (schema == nullptr) { return PyErr_NoMemory(); }
  if (s->stream.get_schema(&s->stream, schema) != 0) {
    delete schema;
    return PyErr_NoMemory();
  }
  PyObject *capsule = PyCapsule_New(schema, "arrow_schema", schema_capsule_destructor);
  if (capsule == nullptr) {
    schema->release(schema);
    delete schema;
  }
  return capsule;
}

PyMethodDef stream_methods[] = {
    {"__arrow_c_stream__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(stream_export)),
     METH_VARARGS | METH_KEYWORDS, "The record batches as an ArrowArrayStream PyCapsule (once)."},
    {"__arrow_c_schema__", stream_schema, METH_NOARGS, "The schema as an ArrowSchema PyCapsule."},
    {nullptr, nullptr, 0, nullptr},
};

/** The ArrowSchema behind an object with __arrow_c_schema__ (a new capsule, which owns it). */
PyObject *schema_capsule_of(PyObject *schema, const ArrowSchema **out) {
  PyObject *capsule = PyObject_CallMethod(schema, "__arrow_c_schema__", nullptr);
  if (capsule == nullptr) {
    if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "schema must have __arrow_c_schema__ (a pyarrow.Schema, ...), not %.100s",
                   Py_TYPE(schema)->tp_name);
    }
    return nullptr;
  }
  *out = static_cast<const ArrowSchema *>(PyCapsule_GetPointer(capsule, "arrow_schema"));
  if (*out == nullptr) {
    Py_DECREF(capsule);
    return nullptr;
  }
  return capsule;
}

} // namespace

bool thread_count(PyObject *threads, unsigned &out) {
  if (threads == Py_None) {
    out = std::max(1u, std::thread::hardware_concurrency());
    return true;
  }
  const long n = PyLong_AsLong(threads);
  if (n == -1 && PyErr_Occurred()) { return false; }
  if (n < 1) {
    PyErr_SetString(PyExc_ValueError, "threads must be at least 1 (or None: one per core)");
    return false;
  }
  out = unsigned(n);
  return true;
}

namespace {

/** loads_arrow's arguments after the data (or file descriptor): false with an exception set. */
bool read_arguments(PyObject *args, PyObject *kwargs, const char *first, PyObject *&data, arrow_read_options &options,
                    owned &schema_capsule, const ArrowSchema *&given) {
  const char *keywords[] = {first, "schema", "block_size", "error_on_unknown_fields", "validate_skipped", "threads",
                            "bad_records", "corrupt_record_field", "any_value_as_string", "spark_temporals", nullptr};
  PyObject *schema = Py_None;
  Py_ssize_t block_size = Py_ssize_t(1) << 20;
  int unknown_is_error = 0, validate_skipped = 1, any_value_as_string = 0, spark_temporals = 0;
  PyObject *threads = Py_None;
  const char *bad_records = "fail", *corrupt_record_field = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O$nppOszpp", const_cast<char **>(keywords), &data, &schema,
                                   &block_size, &unknown_is_error, &validate_skipped, &threads, &bad_records,
                                   &corrupt_record_field, &any_value_as_string, &spark_temporals)) {
    return false;
  }
  if (block_size < 1) {
    PyErr_SetString(PyExc_ValueError, "block_size must be at least 1");
    return false;
  }
  const std::string_view mode(bad_records);
  if (mode == "fail") {
    options.on_bad_record = simdbridge::bad_records::fail;
  } else if (mode == "keep") {
    options.on_bad_record = simdbridge::bad_records::keep;
  } else if (mode == "drop") {
    options.on_bad_record = simdbridge::bad_records::drop;
  } else {
    PyErr_Format(PyExc_ValueError, "bad_records must be 'fail', 'keep' or 'drop', not '%.100s'", bad_records);
    return false;
  }
  if (corrupt_record_field != nullptr) { options.corrupt_record_field = corrupt_record_field; }
  options.any_value_as_string = any_value_as_string != 0;
  options.spark_temporals = spark_temporals != 0;
  options.block_size = size_t(block_size);
  options.error_on_unknown_fields = unknown_is_error != 0;
  options.validate_skipped = validate_skipped != 0;
  options.limits = thread_parser().options();
  if (!thread_count(threads, options.threads)) { return false; }
  given = nullptr;
  if (schema != Py_None) {
    schema_capsule.p = schema_capsule_of(schema, &given);
    if (schema_capsule.p == nullptr) { return false; }
  }
  return true;
}

/** An empty ArrowStream, for a read to fill. */
arrow_stream_object *new_stream() {
  auto *result = PyObject_New(arrow_stream_object, &ArrowStreamType);
  if (result != nullptr) { result->stream.release = nullptr; }
  return result;
}

/** The stream read, or the exception for `e` (`input` the bytes its offsets count in). */
PyObject *arrow_result(arrow_stream_object *result, const arrow_error &e, PyObject *input) {
  if (e.ok()) { return reinterpret_cast<PyObject *>(result); }
  Py_DECREF(result);
  if (e.code == error_code::invalid_argument) {
    PyErr_SetString(PyExc_ValueError, e.message.c_str());
    return nullptr;
  }
  return raise_arrow_error(e, input);
}

} // namespace

PyObject *loads_arrow(PyObject *, PyObject *args, PyObject *kwargs) {
  PyObject *data;
  arrow_read_options options;
  owned schema_capsule(nullptr);
  const ArrowSchema *given;
  if (!read_arguments(args, kwargs, "data", data, options, schema_capsule, given)) { return nullptr; }
  input_bytes in;
  if (!in.acquire(data)) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError, "the NDJSON data must be str, bytes, bytearray or memoryview, not %.100s",
                   Py_TYPE(data)->tp_name);
    }
    return nullptr;
  }
  arrow_stream_object *result = new_stream();
  if (result == nullptr) { return nullptr; }
  arrow_error e;
  const simdbridge::input bytes = in.as_input();
  Py_BEGIN_ALLOW_THREADS e = ndjson_to_arrow(bytes, given, options, &result->stream);
  Py_END_ALLOW_THREADS
  return arrow_result(result, e, data);
}

/**
 * load_arrow_fd(fd, schema=None, ...): loads_arrow over an open file, read a block at a time
 * with a schema (ndjson_file_to_arrow). An error's line and column are the core's (a regular
 * file read again up to the error, a pipe counted as it was read); its doc the file.
 */
PyObject *load_arrow_fd(PyObject *, PyObject *args, PyObject *kwargs) {
  PyObject *fd_object;
  arrow_read_options options;
  owned schema_capsule(nullptr);
  const ArrowSchema *given;
  if (!read_arguments(args, kwargs, "fd", fd_object, options, schema_capsule, given)) { return nullptr; }
  const int fd = PyObject_AsFileDescriptor(fd_object);
  if (fd < 0) { return nullptr; }
  arrow_stream_object *result = new_stream();
  if (result == nullptr) { return nullptr; }
  arrow_error e;
  Py_BEGIN_ALLOW_THREADS e = ndjson_file_to_arrow(fd, given, options, &result->stream);
  Py_END_ALLOW_THREADS
  if (e.ok() || e.code == error_code::invalid_argument || e.code == error_code::out_of_memory) {
    return arrow_result(result, e, Py_None);
  }
  if (e.code == error_code::read_failed) {
    Py_DECREF(result);
    PyErr_SetString(PyExc_OSError, e.message.c_str());
    return nullptr;
  }
  Py_DECREF(result);
  return raise_arrow_error(e, fd_object, true);
}

namespace {

/** The GIL, let go while the core works and taken back where a sink needs Python. */
struct released_gil {
  PyThreadState *state = nullptr;
  void release() { state = PyEval_SaveThread(); }
  void take() {
    PyEval_RestoreThread(state);
    state = nullptr;
  }
};

/**
 * Writes `data` (anything with __arrow_c_stream__ or __arrow_c_array__) as NDJSON into `sink`,
 * the GIL released; false with an exception set (the sink's own, where it refused).
 */
bool write_arrow(const char *function, PyObject *data, bool write_nulls, PyObject *threads_arg,
                 const ndjson_sink &sink, released_gil &gil) {
  arrow_write_options options;
  options.write_nulls = write_nulls;
  if (!thread_count(threads_arg, options.threads)) { return false; }
  arrow_error e;
  if (PyObject_HasAttrString(data, "__arrow_c_stream__")) {
    owned capsule(PyObject_CallMethod(data, "__arrow_c_stream__", nullptr));
    if (capsule.p == nullptr) { return false; }
    auto *stream = static_cast<ArrowArrayStream *>(PyCapsule_GetPointer(capsule.p, "arrow_array_stream"));
    if (stream == nullptr) { return false; }
    gil.release();
    e = arrow_to_ndjson(stream, options, sink);
    gil.take();
  } else if (PyObject_HasAttrString(data, "__arrow_c_array__")) {
    owned pair(PyObject_CallMethod(data, "__arrow_c_array__", nullptr));
    if (pair.p == nullptr) { return false; }
    if (!PyTuple_Check(pair.p) || PyTuple_GET_SIZE(pair.p) != 2) {
      PyErr_SetString(PyExc_TypeError, "__arrow_c_array__ must return (schema capsule, array capsule)");
      return false;
    }
    auto *schema = static_cast<ArrowSchema *>(PyCapsule_GetPointer(PyTuple_GET_ITEM(pair.p, 0), "arrow_schema"));
    auto *array = static_cast<ArrowArray *>(PyCapsule_GetPointer(PyTuple_GET_ITEM(pair.p, 1), "arrow_array"));
    if (schema == nullptr || array == nullptr) { return false; }
    gil.release();
    e = arrow_batch_to_ndjson(*schema, *array, options, sink);
    gil.take();
  } else {
    PyErr_Format(PyExc_TypeError,
                 "%s takes Arrow data (__arrow_c_stream__ or __arrow_c_array__: a pyarrow Table or "
                 "RecordBatch, a polars DataFrame, ...), not %.100s",
                 function, Py_TYPE(data)->tp_name);
    return false;
  }
  if (e.ok()) { return true; }
  if (e.code == error_code::write_failed && PyErr_Occurred()) { return false; } // the sink's exception
  if (e.code == error_code::out_of_memory) {
    PyErr_NoMemory();
  } else {
    PyErr_SetString(PyExc_ValueError, e.message.c_str());
  }
  return false;
}

bool parse_write_arguments(PyObject *args, PyObject *kwargs, bool with_file, PyObject *&data, PyObject *&file,
                           bool &write_nulls, PyObject *&threads) {
  static const char *bytes_keywords[] = {"data", "write_nulls", "threads", nullptr};
  static const char *file_keywords[] = {"data", "fp", "write_nulls", "threads", nullptr};
  int nulls = 1;
  const bool parsed =
      with_file ? PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$pO", const_cast<char **>(file_keywords), &data, &file,
                                              &nulls, &threads)
                : PyArg_ParseTupleAndKeywords(args, kwargs, "O|$pO", const_cast<char **>(bytes_keywords), &data,
                                              &nulls, &threads);
  write_nulls = nulls != 0;
  return parsed;
}

} // namespace

/**
 * dumpb_arrow(data, *, write_nulls=True, threads=None): record batches as NDJSON bytes, written
 * straight into the bytes object (grown in place), the one copy of the output.
 */
PyObject *dumpb_arrow(PyObject *, PyObject *args, PyObject *kwargs) {
  PyObject *data, *file = nullptr, *threads = Py_None;
  bool write_nulls = true;
  if (!parse_write_arguments(args, kwargs, false, data, file, write_nulls, threads)) { return nullptr; }
  released_gil gil;
  PyObject *bytes = nullptr;
  size_t size = 0, capacity = 0;
  const ndjson_sink sink = [&](const char *piece, size_t n) {
    if (size + n > capacity) {
      const size_t grown = grown_capacity(std::max(capacity, size_t(1) << 20), size + n);
      gil.take(); // (the sink runs on this thread)
      if (bytes == nullptr) {
        bytes = PyBytes_FromStringAndSize(nullptr, Py_ssize_t(grown));
      } else if (_PyBytes_Resize(&bytes, Py_ssize_t(grown)) < 0) {
        bytes = nullptr; // (freed by _PyBytes_Resize)
      }
      gil.release();
      if (bytes == nullptr) { return false; }
      capacity = grown;
    }
    std::memcpy(PyBytes_AS_STRING(bytes) + size, piece, n);
    size += n;
    return true;
  };
  if (!write_arrow("dumpb_arrow", data, write_nulls, threads, sink, gil)) {
    Py_XDECREF(bytes);
    return nullptr;
  }
  if (bytes == nullptr) { return PyBytes_FromStringAndSize("", 0); }
  return finished_bytes(bytes, size);
}

/**
 * dump_arrow(data, fp, *, write_nulls=True, threads=None): record batches as NDJSON into a file,
 * a piece (about a megabyte) at a time: `fp` a path (opened, truncated and written with the GIL
 * released) or a binary file object (its write() called with each piece).
 */
PyObject *dump_arrow(PyObject *, PyObject *args, PyObject *kwargs) {
  PyObject *data, *file = nullptr, *threads = Py_None;
  bool write_nulls = true;
  if (!parse_write_arguments(args, kwargs, true, data, file, write_nulls, threads)) { return nullptr; }
  released_gil gil;
  if (PyUnicode_Check(file) || PyBytes_Check(file) || PyObject_HasAttrString(file, "__fspath__")) {
    PyObject *encoded = nullptr;
    if (!PyUnicode_FSConverter(file, &encoded)) { return nullptr; }
    owned path(encoded);
    const int fd = ::open(PyBytes_AS_STRING(encoded), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) { return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, file); }
    int failure = 0;
    const ndjson_sink sink = [&](const char *piece, size_t n) {
      while (n > 0) {
        const ssize_t written = ::write(fd, piece, n);
        if (written < 0) {
          if (errno == EINTR) { continue; }
          failure = errno;
          return false;
        }
        piece += written;
        n -= size_t(written);
      }
      return true;
    };
    const bool ok = write_arrow("dump_arrow", data, write_nulls, threads, sink, gil);
    if (::close(fd) != 0 && failure == 0 && ok) { failure = errno; }
    if (failure != 0) {
      PyErr_Clear();
      errno = failure;
      return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, file);
    }
    if (!ok) { return nullptr; }
    Py_RETURN_NONE;
  }
  owned write(PyObject_GetAttrString(file, "write"));
  if (write.p == nullptr) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "dump_arrow writes to a path or a binary file (with write()), not %.100s",
                 Py_TYPE(file)->tp_name);
    return nullptr;
  }
  const ndjson_sink sink = [&](const char *piece, size_t n) {
    gil.take();
    owned chunk(PyBytes_FromStringAndSize(piece, Py_ssize_t(n)));
    owned result(chunk.p != nullptr ? PyObject_CallOneArg(write.p, chunk.p) : nullptr);
    gil.release();
    return result.p != nullptr;
  };
  if (!write_arrow("dump_arrow", data, write_nulls, threads, sink, gil)) { return nullptr; }
  Py_RETURN_NONE;
}

bool init_arrow(PyObject *module) {
  ArrowStreamType.tp_name = "simdbridge._core.ArrowStream";
  ArrowStreamType.tp_basicsize = sizeof(arrow_stream_object);
  ArrowStreamType.tp_dealloc = stream_dealloc;
  ArrowStreamType.tp_flags = Py_TPFLAGS_DEFAULT;
  ArrowStreamType.tp_doc = "Arrow record batches read by loads_arrow: pass it to pyarrow.table(), "
                           "polars.DataFrame(), duckdb.from_arrow() (read once).";
  ArrowStreamType.tp_methods = stream_methods;
  if (PyType_Ready(&ArrowStreamType) < 0) { return false; }
  Py_INCREF(&ArrowStreamType);
  return PyModule_AddObject(module, "ArrowStream", reinterpret_cast<PyObject *>(&ArrowStreamType)) == 0;
}

} // namespace simdbridge::python
