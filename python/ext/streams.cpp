// SPDX-License-Identifier: Apache-2.0
// loads_many and parse_many: iterators over the documents of a stream, one document read per
// step. Formats whitespace, lines and json_seq go through the core's stream_reader (parse_many
// gives each document a Document of its own, so its views outlive the step); comma and array
// read the input as one document and walk its top-level elements. `fields` takes only the
// values at the given JSON Pointers (a value, or a tuple of them), building nothing else.
// A document that is valid but not on a tape (integers past 64 bits, ...) is read by json.
#include <cstring>
#include <string>
#include <vector>

#include "common.h"

namespace simdbridge::python {

namespace {

struct stream_iterator {
  PyObject_HEAD
  PyObject *input;                 // the data, kept alive
  input_bytes *bytes;              // its bytes, held while iterating
  simdbridge::stream_reader *reader; // whitespace, lines, json_seq
  PyObject *owner;                 // comma, array: the Document of the whole input
  tape_view whole;                 // comma, array: its tape
  size_t next_index;               // comma, array: the next element on that tape
  size_t end_index;                // comma, array: the array's end
  PyObject *fallback;              // comma, array where json read the input: an iterator
  bool views;                      // parse_many
  std::vector<std::string> *pointers; // fields=, or null
  bool single_field;
  PyObject *default_value;
};

PyTypeObject StreamIteratorType = {PyVarObject_HEAD_INIT(nullptr, 0)};

const char *const format_names[] = {"whitespace", "lines", "json_seq", "comma", "array"};

bool pointer_is_valid(const std::string &p) {
  if (p.empty()) { return true; }
  if (p[0] != '/') { return false; }
  for (size_t i = 0; i < p.size(); i++) {
    if (p[i] == '~' && (i + 1 == p.size() || (p[i + 1] != '0' && p[i + 1] != '1'))) { return false; }
  }
  return true;
}

/** The value at a pointer in plain Python objects (a document json read), or null if none. */
PyObject *resolve_in_objects(PyObject *value, const std::string &pointer) {
  Py_INCREF(value);
  size_t at = 1;
  while (!pointer.empty() && at <= pointer.size()) {
    size_t slash = pointer.find('/', at);
    if (slash == std::string::npos) { slash = pointer.size(); }
    std::string token;
    for (size_t i = at; i < slash; i++) {
      if (pointer[i] == '~') {
        token.push_back(pointer[i + 1] == '0' ? '~' : '/');
        i++;
      } else {
        token.push_back(pointer[i]);
      }
    }
    PyObject *next = nullptr;
    if (PyDict_Check(value)) {
      PyObject *key = PyUnicode_DecodeUTF8(token.data(), Py_ssize_t(token.size()), "surrogatepass");
      if (key != nullptr) {
        next = PyDict_GetItemWithError(value, key);
        Py_XINCREF(next);
        Py_DECREF(key);
      }
    } else if (PyList_Check(value) && !token.empty() && (token.size() == 1 || token[0] != '0') &&
               token.find_first_not_of("0123456789") == std::string::npos && token.size() < 19) {
      const size_t index = std::stoull(token);
      if (index < size_t(PyList_GET_SIZE(value))) {
        next = PyList_GET_ITEM(value, Py_ssize_t(index));
        Py_INCREF(next);
      }
    }
    Py_DECREF(value);
    if (next == nullptr) { return nullptr; }
    value = next;
    at = slash + 1;
  }
  return value;
}

/** The fields of one document: a value, or a tuple; `default` where a pointer leads nowhere. */
PyObject *take_fields(stream_iterator *it, PyObject *owner, const tape_view *tape, size_t index, PyObject *objects) {
  const size_t n = it->pointers->size();
  PyObject *tuple = it->single_field ? nullptr : PyTuple_New(Py_ssize_t(n));
  if (!it->single_field && tuple == nullptr) { return nullptr; }
  for (size_t k = 0; k < n; k++) {
    const std::string &pointer = (*it->pointers)[k];
    PyObject *value;
    if (tape != nullptr) {
      bool bad = false;
      const size_t at = find_pointer(*tape, index, pointer, bad);
      value = at == SIZE_MAX ? Py_NewRef(it->default_value)
              : it->views    ? make_view(owner, *tape, at)
                             : build_value(*tape, at);
    } else {
      value = resolve_in_objects(objects, pointer);
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
PyObject *read_with_json(stream_iterator *it, size_t begin, size_t end) {
  const std::string_view all = it->bytes->view();
  PyObject *text = PyBytes_FromStringAndSize(all.data() + begin, Py_ssize_t(end - begin));
  if (text == nullptr) { return nullptr; }
  PyObject *objects = json_loads_fallback(text, nullptr);
  Py_DECREF(text);
  if (objects == nullptr) { return nullptr; }
  PyObject *out = emit_objects(it, objects);
  Py_DECREF(objects);
  return out;
}

PyObject *iterator_next(PyObject *self) {
  auto *it = reinterpret_cast<stream_iterator *>(self);
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
  simdbridge::document doc = it->views ? take_document() : simdbridge::document();
  const simdbridge::result<bool> r = it->views ? it->reader->next(doc) : it->reader->next();
  if (!r.ok()) { return raise_stream_error(r.error(), it->reader->count() + 1, it->input); }
  if (!r.value()) { return nullptr; }
  const tape_view tape = it->reader->tape();
  if (tape.words == nullptr) { return read_with_json(it, it->reader->begin(), it->reader->end()); }
  if (!it->views) { return emit(it, nullptr, tape, it->reader->value_index()); }
  PyObject *owner = new_document(std::move(doc));
  if (owner == nullptr) { return nullptr; }
  PyObject *out = emit(it, owner, tape, it->reader->value_index());
  Py_DECREF(owner);
  return out;
}

void iterator_dealloc(PyObject *self) {
  auto *it = reinterpret_cast<stream_iterator *>(self);
  delete it->reader;
  delete it->bytes;
  delete it->pointers;
  Py_XDECREF(it->input);
  Py_XDECREF(it->owner);
  Py_XDECREF(it->fallback);
  Py_XDECREF(it->default_value);
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

PyObject *make_iterator(PyObject *args, PyObject *kwargs, bool views) {
  static const char *keywords[] = {"data", "format", "fields", "default", nullptr};
  PyObject *data;
  const char *format_name = "whitespace";
  PyObject *fields = Py_None;
  PyObject *default_value = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$sOO", const_cast<char **>(keywords), &data, &format_name,
                                   &fields, &default_value)) {
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
  auto *it = PyObject_New(stream_iterator, &StreamIteratorType);
  if (it == nullptr) { return nullptr; }
  it->input = Py_NewRef(data);
  it->bytes = new input_bytes();
  it->reader = nullptr;
  it->owner = nullptr;
  it->whole = {};
  it->next_index = it->end_index = 0;
  it->fallback = nullptr;
  it->views = views;
  it->pointers = nullptr;
  it->single_field = false;
  it->default_value = Py_NewRef(default_value);
  PyObject *self = reinterpret_cast<PyObject *>(it);
  if (fields != Py_None) {
    it->pointers = new std::vector<std::string>();
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
      it->pointers->emplace_back(utf8, size_t(n));
      if (!pointer_is_valid(it->pointers->back())) {
        raise_bad_pointer(it->pointers->back());
        Py_DECREF(list);
        Py_DECREF(self);
        return nullptr;
      }
    }
    Py_DECREF(list);
  }
  if (!it->bytes->acquire(data)) {
    if (!PyErr_Occurred()) { // (a str with lone surrogates: its UnicodeEncodeError)
      PyErr_Format(PyExc_TypeError, "the JSON data must be str, bytes, bytearray or memoryview, not %.100s",
                   Py_TYPE(data)->tp_name);
    }
    Py_DECREF(self);
    return nullptr;
  }
  const auto f = simdbridge::stream_format(format);
  if (f == simdbridge::stream_format::comma || f == simdbridge::stream_format::array) {
    if (!start_whole(it, f)) {
      Py_DECREF(self);
      return nullptr;
    }
    return self;
  }
  it->reader = new simdbridge::stream_reader(it->bytes->as_input(), f, thread_parser().options());
  return self;
}

} // namespace

PyObject *loads_many(PyObject *, PyObject *args, PyObject *kwargs) { return make_iterator(args, kwargs, false); }

PyObject *parse_many(PyObject *, PyObject *args, PyObject *kwargs) { return make_iterator(args, kwargs, true); }

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
