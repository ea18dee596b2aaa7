// SPDX-License-Identifier: Apache-2.0
// loads_many, parse_many and map_many: iterators over the documents of a stream, one document
// read per step. Formats whitespace, lines and json_seq go through the core's block_reader, over
// bytes in memory (an mmap too), a path or a file object read a block at a time, on one thread
// or with threads parsing blocks ahead (parse_many gives each document a Document of its own,
// so its views outlive the step); comma and array read the input as one document and walk its
// top-level elements. `fields` takes only the values at the given JSON Pointers (a value, or a
// tuple of them), building nothing else. A document that is valid but not on a tape (integers
// past 64 bits, ...) is read by json.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common.h"

namespace simdbridge::python {

namespace {

/** A file opened from a path, read with read(2), the GIL released while this thread holds it. */
class fd_source final : public simdbridge::stream_source {
public:
  int fd = -1;
  int error_number = 0;
  ~fd_source() override {
    if (fd >= 0) { ::close(fd); }
  }
  simdbridge::result<size_t> read(uint8_t *into, size_t capacity) noexcept override {
    const size_t n = std::min(capacity, size_t(1) << 30);
    for (;;) {
      ssize_t got;
      if (PyGILState_Check()) {
        Py_BEGIN_ALLOW_THREADS got = ::read(fd, into, n);
        Py_END_ALLOW_THREADS
      } else {
        got = ::read(fd, into, n);
      }
      if (got >= 0) { return size_t(got); }
      if (errno != EINTR) {
        error_number = errno;
        return simdbridge::error{error_code::read_failed, 0};
      }
    }
  }
};

/**
 * A file object: readinto() straight into the block where it has one (binary files), else
 * read(), which may return bytes or str (a text file: its UTF-8, at most 4 bytes a character,
 * what does not fit kept for the next read).
 * Called with or without the GIL (threads: the iterator waits with it released); takes it.
 */
class file_source final : public simdbridge::stream_source {
public:
  PyObject *file = nullptr;
  bool has_readinto = false;
  PyObject *failure_type = nullptr, *failure_value = nullptr, *failure_traceback = nullptr;
  ~file_source() override {
    Py_XDECREF(file);
    Py_XDECREF(failure_type);
    Py_XDECREF(failure_value);
    Py_XDECREF(failure_traceback);
  }
  simdbridge::result<size_t> read(uint8_t *into, size_t capacity) noexcept override {
    const PyGILState_STATE gil = PyGILState_Ensure();
    const simdbridge::result<size_t> r = failure_type != nullptr ? failed() : read_held(into, capacity);
    PyGILState_Release(gil);
    return r;
  }

private:
  simdbridge::result<size_t> failed() {
    if (PyErr_Occurred() && failure_type == nullptr) { PyErr_Fetch(&failure_type, &failure_value, &failure_traceback); }
    return simdbridge::error{error_code::read_failed, 0};
  }
  simdbridge::result<size_t> read_held(uint8_t *into, size_t capacity) {
    const Py_ssize_t n = Py_ssize_t(std::min<size_t>(capacity, size_t(1) << 30));
    if (has_readinto) {
      owned view(PyMemoryView_FromMemory(reinterpret_cast<char *>(into), n, PyBUF_WRITE));
      if (view.p == nullptr) { return failed(); }
      owned got(PyObject_CallMethod(file, "readinto", "O", view.p));
      PyObject *type, *value, *traceback; // (kept across the release, which must run without them)
      PyErr_Fetch(&type, &value, &traceback);
      owned released(PyObject_CallMethod(view.p, "release", nullptr)); // the memory is ours again
      if (released.p == nullptr) { PyErr_Clear(); }
      PyErr_Restore(type, value, traceback);
      if (got.p == nullptr) { return failed(); }
      if (got.p == Py_None) {
        PyErr_SetString(PyExc_BlockingIOError, "the file had no data ready (a non-blocking file)");
        return failed();
      }
      const Py_ssize_t k = PyLong_AsSsize_t(got.p);
      if (k == -1 && PyErr_Occurred()) { return failed(); }
      if (k < 0 || k > n) {
        PyErr_Format(PyExc_ValueError, "readinto() returned %zd for a buffer of %zd bytes", k, n);
        return failed();
      }
      return size_t(k);
    }
    if (!spill.empty()) {
      const size_t now = std::min(spill.size(), size_t(n));
      std::memcpy(into, spill.data(), now);
      spill.erase(0, now);
      return now;
    }
    owned got(PyObject_CallMethod(file, "read", "n", std::max<Py_ssize_t>(1, n / 4)));
    if (got.p == nullptr) { return failed(); }
    const char *bytes = nullptr;
    Py_ssize_t size = 0;
    if (PyBytes_Check(got.p)) {
      bytes = PyBytes_AS_STRING(got.p);
      size = PyBytes_GET_SIZE(got.p);
    } else if (PyUnicode_Check(got.p)) {
      bytes = PyUnicode_AsUTF8AndSize(got.p, &size);
      if (bytes == nullptr) { return failed(); }
    } else {
      PyErr_Format(PyExc_TypeError, "the file's read() returned %.100s, not bytes or str", Py_TYPE(got.p)->tp_name);
      return failed();
    }
    const size_t now = std::min(size_t(size), size_t(n));
    std::memcpy(into, bytes, now);
    spill.assign(bytes + now, size_t(size) - now); // (a str's UTF-8 can outgrow a small buffer)
    return now;
  }
  std::string spill; // read but not yet handed out
};

struct stream_iterator {
  PyObject_HEAD
  PyObject *input;                 // the data, path or file, kept alive
  input_bytes *bytes;              // data in memory: its bytes, held while iterating
  fd_source *file;                 // a path: the open file
  file_source *reader_of;          // a file object
  PyObject *start;                 // its tell() when reading began, where it can seek; else null
  simdbridge::block_reader *reader; // whitespace, lines, json_seq
  PyObject *owner;                 // comma, array: the Document of the whole input
  tape_view whole;                 // comma, array: its tape
  size_t next_index;               // comma, array: the next element on that tape
  size_t end_index;                // comma, array: the array's end
  PyObject *fallback;              // comma, array where json read the input: an iterator
  bool views;                      // parse_many
  std::vector<std::vector<std::string>> *pointers; // fields=, as their tokens, or null
  bool single_field;
  PyObject *default_value;
  PyObject *fn;                    // map_many: called on each document
  bool busy;                       // a step is under way (its GIL released while it waits)
};

PyTypeObject StreamIteratorType = {PyVarObject_HEAD_INIT(nullptr, 0)};

const char *const format_names[] = {"whitespace", "lines", "json_seq", "comma", "array"};

/** The value at a pointer in plain Python objects (a document json read), or null if none. */
PyObject *resolve_in_objects(PyObject *value, const std::vector<std::string> &tokens) {
  Py_INCREF(value);
  for (const std::string &token : tokens) {
    PyObject *next = nullptr;
    if (PyDict_Check(value)) {
      PyObject *key = PyUnicode_DecodeUTF8(token.data(), Py_ssize_t(token.size()), "surrogatepass");
      if (key != nullptr) {
        next = PyDict_GetItemWithError(value, key);
        Py_XINCREF(next);
        Py_DECREF(key);
      }
    } else if (PyList_Check(value)) {
      const int64_t index = json_pointer_index(token);
      if (index >= 0 && index < int64_t(PyList_GET_SIZE(value))) {
        next = PyList_GET_ITEM(value, Py_ssize_t(index));
        Py_INCREF(next);
      }
    }
    Py_DECREF(value);
    if (next == nullptr) { return nullptr; }
    value = next;
  }
  return value;
}

/** The fields of one document: a value, or a tuple; `default` where a pointer leads nowhere. */
PyObject *take_fields(stream_iterator *it, PyObject *owner, const tape_view *tape, size_t index, PyObject *objects) {
  const size_t n = it->pointers->size();
  PyObject *tuple = it->single_field ? nullptr : PyTuple_New(Py_ssize_t(n));
  if (!it->single_field && tuple == nullptr) { return nullptr; }
  for (size_t k = 0; k < n; k++) {
    const std::vector<std::string> &tokens = (*it->pointers)[k];
    PyObject *value;
    if (tape != nullptr) {
      const size_t at = find_pointer(*tape, index, tokens);
      value = at == SIZE_MAX ? Py_NewRef(it->default_value)
              : it->views    ? make_view(owner, *tape, at)
                             : build_value(*tape, at);
    } else {
      value = resolve_in_objects(objects, tokens);
      if (value == nullptr && !PyErr_Occurred()) { value = Py_NewRef(it->default_value); }
    }
    if (value == nullptr) {
      Py_XDECREF(tuple);
      return nullptr;
    }
    if (it->single_field) { return value; }
    PyTuple_SET_ITEM(tuple, Py_ssize_t(k), value);
  }
  return tuple;
}

/** One document as a value (or view), or its fields. */
PyObject *emit(stream_iterator *it, PyObject *owner, const tape_view &tape, size_t index) {
  if (it->pointers != nullptr) { return take_fields(it, owner, &tape, index, nullptr); }
  return it->views ? make_view(owner, tape, index) : build_value(tape, index);
}

PyObject *emit_objects(stream_iterator *it, PyObject *objects) {
  if (it->pointers == nullptr) { return Py_NewRef(objects); }
  return take_fields(it, nullptr, nullptr, 0, objects);
}

/** A document the core validated but cannot put on a tape: json reads its bytes. */
PyObject *read_with_json(stream_iterator *it) {
  const auto *at = reinterpret_cast<const char *>(it->reader->bytes());
  PyObject *text = PyBytes_FromStringAndSize(at, Py_ssize_t(it->reader->end() - it->reader->begin()));
  if (text == nullptr) { return nullptr; }
  PyObject *objects = json_loads_fallback(text, nullptr);
  Py_DECREF(text);
  if (objects == nullptr) { return nullptr; }
  PyObject *out = emit_objects(it, objects);
  Py_DECREF(objects);
  return out;
}

/** Line and column (from 1) of byte `offset` of the file at `path`, read again a block at a time. */
line_column count_lines(PyObject *path, uint64_t offset) {
  line_column where{0, 0};
  owned encoded(nullptr);
  if (!PyUnicode_FSConverter(path, &encoded.p)) {
    PyErr_Clear();
    return where;
  }
  const int fd = ::open(PyBytes_AS_STRING(encoded.p), O_RDONLY | O_CLOEXEC);
  if (fd < 0) { return where; }
  std::vector<uint8_t> buffer(size_t(1) << 20);
  simdbridge::line_count count;
  while (count.at < offset) {
    const ssize_t got = ::read(fd, buffer.data(), size_t(std::min<uint64_t>(buffer.size(), offset - count.at)));
    if (got <= 0) { break; }
    count.add(buffer.data(), size_t(got));
  }
  ::close(fd);
  return {count.line(), count.column(offset)};
}

/** A file object's position (tell()) where it can seek (seekable()), else null; no exception. */
PyObject *start_position(PyObject *file) {
  owned seekable(PyObject_CallMethod(file, "seekable", nullptr));
  const int can = seekable.p != nullptr ? PyObject_IsTrue(seekable.p) : -1;
  PyObject *at = can == 1 ? PyObject_CallMethod(file, "tell", nullptr) : nullptr;
  if (at == nullptr) { PyErr_Clear(); }
  return at;
}

/**
 * Line and column (from 1) of byte `offset` of what a file object gave from `start` (its tell()
 * when reading began): read again from there, a MB at a time (a text file's str as its UTF-8,
 * as the stream read it), and its position put back. {0, 0} where it cannot seek.
 */
line_column count_lines_again(PyObject *file, PyObject *start, uint64_t offset) {
  if (start == nullptr) { return {0, 0}; }
  PyObject *type, *value, *traceback; // (none expected; kept as they were)
  PyErr_Fetch(&type, &value, &traceback);
  line_column where{0, 0};
  owned now(PyObject_CallMethod(file, "tell", nullptr));
  owned moved(now.p != nullptr ? PyObject_CallMethod(file, "seek", "O", start) : nullptr);
  if (moved.p != nullptr) {
    simdbridge::line_count count;
    while (count.at < offset) {
      owned got(PyObject_CallMethod(file, "read", "n", Py_ssize_t(1) << 20));
      const char *bytes = nullptr;
      Py_ssize_t size = 0;
      if (got.p != nullptr && PyBytes_Check(got.p)) {
        bytes = PyBytes_AS_STRING(got.p);
        size = PyBytes_GET_SIZE(got.p);
      } else if (got.p != nullptr && PyUnicode_Check(got.p)) {
        bytes = PyUnicode_AsUTF8AndSize(got.p, &size);
      }
      if (bytes == nullptr || size <= 0) { break; }
      const size_t wanted = size_t(std::min<uint64_t>(uint64_t(size), offset - count.at));
      count.add(reinterpret_cast<const uint8_t *>(bytes), wanted);
    }
    if (count.at == offset) { where = {count.line(), count.column(offset)}; }
    owned back(PyObject_CallMethod(file, "seek", "O", now.p));
  }
  PyErr_Clear();
  PyErr_Restore(type, value, traceback);
  return where;
}

/** The exception for a failed step: the file's own error, or a StreamError. */
PyObject *raise_step_error(stream_iterator *it, const simdbridge::error &e) {
  if (e.code == error_code::read_failed && it->reader_of != nullptr && it->reader_of->failure_type != nullptr) {
    PyErr_Restore(it->reader_of->failure_type, it->reader_of->failure_value, it->reader_of->failure_traceback);
    it->reader_of->failure_type = it->reader_of->failure_value = it->reader_of->failure_traceback = nullptr;
    return nullptr;
  }
  if (e.code == error_code::read_failed && it->file != nullptr && it->file->error_number != 0) {
    errno = it->file->error_number;
    return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, it->input);
  }
  if (it->file != nullptr) {
    const line_column where = count_lines(it->input, e.offset);
    return raise_stream_error(e, it->reader->count() + 1, it->input, &where);
  }
  if (it->reader_of != nullptr) {
    line_column where{0, 0};
    if (it->start != nullptr) {
      where = count_lines_again(it->input, it->start, e.offset);
    } else if (!it->reader->line_and_column(e.offset, where.line, where.column)) {
      where = {0, 0};
    }
    return raise_stream_error(e, it->reader->count() + 1, it->input, &where);
  }
  return raise_stream_error(e, it->reader->count() + 1, it->input);
}

PyObject *apply(stream_iterator *it, PyObject *value) {
  if (it->fn == nullptr || value == nullptr) { return value; }
  PyObject *out = PyObject_CallOneArg(it->fn, value);
  Py_DECREF(value);
  return out;
}

PyObject *iterator_step(stream_iterator *it) {
  if (it->fallback != nullptr) {
    PyObject *objects = PyIter_Next(it->fallback);
    if (objects == nullptr) { return nullptr; }
    PyObject *out = emit_objects(it, objects);
    Py_DECREF(objects);
    return out;
  }
  if (it->owner != nullptr) { // comma, array: the next element of the one document
    if (it->next_index >= it->end_index) { return nullptr; }
    const size_t at = it->next_index;
    it->next_index = it->whole.next(at);
    return emit(it, it->owner, it->whole, at);
  }
  if (it->reader == nullptr) { return nullptr; }
  // Views keep their document; values are built from the reader's own tape (no document made).
  std::optional<simdbridge::document> doc;
  if (it->views) { doc.emplace(take_document()); }
  simdbridge::result<bool> r(false);
  if (it->reader->ready()) {
    r = doc ? it->reader->next(*doc) : it->reader->next();
  } else { // the next block is another thread's: wait for it without the GIL
    Py_BEGIN_ALLOW_THREADS r = doc ? it->reader->next(*doc) : it->reader->next();
    Py_END_ALLOW_THREADS
  }
  if (!r.ok()) { return raise_step_error(it, r.error()); }
  if (!r.value()) { return nullptr; }
  const tape_view tape = it->reader->tape();
  if (tape.words == nullptr) { return read_with_json(it); }
  if (!it->views) { return emit(it, nullptr, tape, it->reader->value_index()); }
  PyObject *owner = new_document(std::move(*doc));
  if (owner == nullptr) { return nullptr; }
  PyObject *out = emit(it, owner, tape, it->reader->value_index());
  Py_DECREF(owner);
  return out;
}

PyObject *iterator_next(PyObject *self) {
  auto *it = reinterpret_cast<stream_iterator *>(self);
  if (it->busy) {
    PyErr_SetString(PyExc_ValueError, "the stream iterator is already being read by another thread");
    return nullptr;
  }
  it->busy = true;
  PyObject *out = apply(it, iterator_step(it));
  it->busy = false;
  return out;
}

void iterator_dealloc(PyObject *self) {
  auto *it = reinterpret_cast<stream_iterator *>(self);
  delete it->reader; // first: its threads stop, and it reads its source no more
  delete it->file;
  delete it->reader_of;
  Py_XDECREF(it->start);
  delete it->bytes;
  delete it->pointers;
  Py_XDECREF(it->input);
  Py_XDECREF(it->owner);
  Py_XDECREF(it->fallback);
  Py_XDECREF(it->default_value);
  Py_XDECREF(it->fn);
  PyObject_Free(self);
}

PyObject *iterator_self(PyObject *self) { return Py_NewRef(self); }

/** comma, array: the input read as one document (comma: in brackets); its top array walked. */
bool start_whole(stream_iterator *it, simdbridge::stream_format format) {
  const std::string_view data = it->bytes->view();
  std::string bracketed;
  simdbridge::input in = it->bytes->as_input();
  size_t shift = 0;
  if (format == simdbridge::stream_format::comma) {
    bracketed.reserve(data.size() + 2);
    bracketed += '[';
    bracketed += data;
    bracketed += ']';
    in = simdbridge::input::copy_of(bracketed);
    shift = 1;
  }
  simdbridge::document doc;
  simdbridge::error e = thread_parser().parse(in, doc);
  if (e.code == error_code::unsupported_value) {
    // Valid, but not on a tape: json reads it, and the iterator walks its list.
    PyObject *text = PyBytes_FromStringAndSize(shift ? bracketed.data() : data.data(),
                                               Py_ssize_t(shift ? bracketed.size() : data.size()));
    PyObject *list = text ? json_loads_fallback(text, nullptr) : nullptr;
    Py_XDECREF(text);
    if (list == nullptr) { return false; }
    if (!PyList_Check(list)) { // format "array" over a document that is not one
      Py_DECREF(list);
      size_t at = 0;
      while (at < data.size() && (data[at] == ' ' || data[at] == '\t' || data[at] == '\n' || data[at] == '\r')) { at++; }
      raise_stream_error({error_code::expected_array, at}, 1, it->input);
      return false;
    }
    it->fallback = PyObject_GetIter(list);
    Py_DECREF(list);
    return it->fallback != nullptr;
  }
  if (!e.ok()) {
    e.offset = e.offset >= shift ? e.offset - shift : 0;
    raise_stream_error(e, 1, it->input);
    return false;
  }
  const tape_view tape = doc.tape();
  if (tape.kind(tape_view::first) != tape_kind::array) {
    size_t at = 0;
    while (at < data.size() && (data[at] == ' ' || data[at] == '\t' || data[at] == '\n' || data[at] == '\r')) { at++; }
    raise_stream_error({error_code::expected_array, at}, 1, it->input);
    return false;
  }
  it->owner = new_document(std::move(doc));
  if (it->owner == nullptr) { return false; }
  it->whole = tape;
  it->next_index = tape_view::first + 1;
  it->end_index = tape.next(tape_view::first) - 1;
  return true;
}

/** The whole of a path or a file object as bytes (or the str its read() returned). */
PyObject *read_whole(PyObject *source) {
  if (PyObject_HasAttrString(source, "__fspath__")) {
    owned io(PyImport_ImportModule("io"));
    owned file(io.p ? PyObject_CallMethod(io.p, "open", "Os", source, "rb") : nullptr);
    if (file.p == nullptr) { return nullptr; }
    PyObject *all = PyObject_CallMethod(file.p, "read", nullptr);
    owned closed(PyObject_CallMethod(file.p, "close", nullptr));
    if (closed.p == nullptr) {
      Py_XDECREF(all);
      return nullptr;
    }
    return all;
  }
  return PyObject_CallMethod(source, "read", nullptr);
}

enum class mode { loads, parse, map };

PyObject *make_iterator(PyObject *args, PyObject *kwargs, mode m) {
  static const char *data_keywords[] = {"data", "format", "fields", "default", "threads", "block_size", nullptr};
  static const char *map_keywords[] = {"fn", "data", "format", "fields", "default", "threads", "block_size", nullptr};
  PyObject *fn = nullptr;
  PyObject *data;
  const char *format_name = "whitespace";
  PyObject *fields = Py_None;
  PyObject *default_value = Py_None;
  PyObject *threads_object = nullptr;
  Py_ssize_t block_size = Py_ssize_t(1) << 20;
  const bool parsed = m == mode::map
                          ? PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$sOOOn", const_cast<char **>(map_keywords), &fn,
                                                        &data, &format_name, &fields, &default_value, &threads_object,
                                                        &block_size)
                          : PyArg_ParseTupleAndKeywords(args, kwargs, "O|$sOOOn", const_cast<char **>(data_keywords), &data,
                                                        &format_name, &fields, &default_value, &threads_object, &block_size);
  if (!parsed) { return nullptr; }
  if (fn != nullptr && !PyCallable_Check(fn)) {
    PyErr_Format(PyExc_TypeError, "map_many's first argument must be callable, not %.100s", Py_TYPE(fn)->tp_name);
    return nullptr;
  }
  unsigned threads = 1;
  if (threads_object != nullptr && !thread_count(threads_object, threads)) { return nullptr; }
  if (block_size < 1) {
    PyErr_SetString(PyExc_ValueError, "block_size must be at least 1");
    return nullptr;
  }
  int format = -1;
  for (int f = 0; f < 5; f++) {
    if (std::strcmp(format_name, format_names[f]) == 0) { format = f; }
  }
  if (format < 0) {
    PyErr_Format(PyExc_ValueError,
                 "format must be 'whitespace', 'lines', 'json_seq', 'comma' or 'array', not '%.100s'", format_name);
    return nullptr;
  }
  const auto f = simdbridge::stream_format(format);
  const bool whole = f == simdbridge::stream_format::comma || f == simdbridge::stream_format::array;
  const bool in_memory = PyBytes_Check(data) || PyUnicode_Check(data) || PyByteArray_Check(data) || PyMemoryView_Check(data);
  const bool is_path = !in_memory && PyObject_HasAttrString(data, "__fspath__");
  const bool is_buffer = !in_memory && !is_path && PyObject_CheckBuffer(data); // mmap (which has read() too), array
  const bool is_file = !in_memory && !is_path && !is_buffer && PyObject_HasAttrString(data, "read");
  owned held(nullptr); // what is read in place of `data`: comma or array from a file; a buffer's view
  if (whole && (is_path || is_file)) { // one document: read whole
    held.p = read_whole(data);
    if (held.p == nullptr) { return nullptr; }
  } else if (is_buffer) {
    held.p = PyMemoryView_FromObject(data);
    if (held.p == nullptr) { return nullptr; }
  }
  auto *it = PyObject_New(stream_iterator, &StreamIteratorType);
  if (it == nullptr) { return nullptr; }
  it->input = Py_NewRef(held.p != nullptr && whole ? held.p : data);
  it->bytes = new input_bytes();
  it->file = nullptr;
  it->reader_of = nullptr;
  it->start = nullptr;
  it->reader = nullptr;
  it->owner = nullptr;
  it->whole = {};
  it->next_index = it->end_index = 0;
  it->fallback = nullptr;
  it->views = m == mode::parse;
  it->pointers = nullptr;
  it->single_field = false;
  it->default_value = Py_NewRef(default_value);
  it->fn = fn != nullptr ? Py_NewRef(fn) : nullptr;
  it->busy = false;
  PyObject *self = reinterpret_cast<PyObject *>(it);
  if (fields != Py_None) {
    it->pointers = new std::vector<std::vector<std::string>>();
    it->single_field = PyUnicode_Check(fields);
    PyObject *list = it->single_field ? PyTuple_Pack(1, fields) : PySequence_Tuple(fields);
    if (list == nullptr) {
      Py_DECREF(self);
      return nullptr;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(list); k++) {
      PyObject *p = PyTuple_GET_ITEM(list, k);
      Py_ssize_t n;
      const char *utf8 = PyUnicode_Check(p) ? PyUnicode_AsUTF8AndSize(p, &n) : nullptr;
      if (utf8 == nullptr) {
        if (!PyErr_Occurred()) { PyErr_SetString(PyExc_TypeError, "fields takes a JSON Pointer (str) or a sequence of them"); }
        Py_DECREF(list);
        Py_DECREF(self);
        return nullptr;
      }
      it->pointers->emplace_back();
      if (!parse_json_pointer(std::string_view(utf8, size_t(n)), it->pointers->back())) {
        raise_bad_pointer(std::string_view(utf8, size_t(n)));
        Py_DECREF(list);
        Py_DECREF(self);
        return nullptr;
      }
    }
    Py_DECREF(list);
  }
  simdbridge::block_options options;
  options.format = f;
  options.block_size = size_t(block_size);
  options.threads = threads;
  options.parser = thread_parser().options();
  if (is_path && !whole) {
    owned encoded(nullptr);
    if (!PyUnicode_FSConverter(data, &encoded.p)) {
      Py_DECREF(self);
      return nullptr;
    }
    it->file = new fd_source();
    Py_BEGIN_ALLOW_THREADS it->file->fd = ::open(PyBytes_AS_STRING(encoded.p), O_RDONLY | O_CLOEXEC);
    Py_END_ALLOW_THREADS
    if (it->file->fd < 0) {
      PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, data);
      Py_DECREF(self);
      return nullptr;
    }
    it->reader = new simdbridge::block_reader(*it->file, options);
    return self;
  }
  if (is_file && !whole) {
    it->reader_of = new file_source();
    it->reader_of->file = Py_NewRef(data);
    it->reader_of->has_readinto = PyObject_HasAttrString(data, "readinto");
    it->start = start_position(data);
    // One that cannot seek cannot be read again to place an error: its lines are counted as
    // its blocks are cut (a pass over each block), so that an error still has them.
    options.count_lines = it->start == nullptr;
    it->reader = new simdbridge::block_reader(*it->reader_of, options);
    return self;
  }
  if (!it->bytes->acquire(held.p != nullptr ? held.p : data)) {
    if (!PyErr_Occurred()) { // (a str with lone surrogates: its UnicodeEncodeError)
      PyErr_Format(PyExc_TypeError,
                   "the JSON data must be str, bytes, bytearray, a buffer (memoryview, mmap), a path or a file, "
                   "not %.100s",
                   Py_TYPE(data)->tp_name);
    }
    Py_DECREF(self);
    return nullptr;
  }
  if (whole) {
    if (!start_whole(it, f)) {
      Py_DECREF(self);
      return nullptr;
    }
    return self;
  }
  it->reader = new simdbridge::block_reader(it->bytes->as_input(), options);
  return self;
}

} // namespace

PyObject *loads_many(PyObject *, PyObject *args, PyObject *kwargs) { return make_iterator(args, kwargs, mode::loads); }

PyObject *parse_many(PyObject *, PyObject *args, PyObject *kwargs) { return make_iterator(args, kwargs, mode::parse); }

PyObject *map_many(PyObject *, PyObject *args, PyObject *kwargs) { return make_iterator(args, kwargs, mode::map); }

bool init_streams(PyObject *) {
  StreamIteratorType.tp_name = "simdbridge._core.StreamIterator";
  StreamIteratorType.tp_basicsize = sizeof(stream_iterator);
  StreamIteratorType.tp_dealloc = iterator_dealloc;
  StreamIteratorType.tp_flags = Py_TPFLAGS_DEFAULT;
  StreamIteratorType.tp_iter = iterator_self;
  StreamIteratorType.tp_iternext = iterator_next;
  return PyType_Ready(&StreamIteratorType) == 0;
}

} // namespace simdbridge::python
