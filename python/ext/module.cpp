// SPDX-License-Identifier: Apache-2.0
// simdbridge._core: the compiled half of the package. Its public face is src/simdbridge.
#include <cstring>
#include <optional>

#include "common.h"

namespace simdbridge::python {

module_state state;

namespace {

/** Per thread: the parser, and the document loads() builds from (reused). */
struct thread_state {
  simdbridge::parser parser;
  simdbridge::document document;
  bool building = false;        // a finalizer may call loads() again while objects are being built
  uint64_t limits_version = 0;  // the version of state.limits the parser has
};

thread_local thread_state per_thread;

/** This thread's state, its parser set to the package's limits (one call where they changed). */
thread_state &current() {
  thread_state &t = per_thread;
  if (t.limits_version != state.limits_version) {
    if (t.parser.set_options(state.limits).ok()) { t.limits_version = state.limits_version; }
  }
  return t;
}

simdbridge::error parse_into(simdbridge::parser &p, const input_bytes &in, simdbridge::document &doc) {
  if (in.view().size() < release_gil_from) { return p.parse(in.as_input(), doc); }
  simdbridge::error e;
  Py_BEGIN_ALLOW_THREADS e = p.parse(in.as_input(), doc);
  Py_END_ALLOW_THREADS return e;
}

/**
 * loads() and parse() follow json wherever json has a rule: numbers (json's int() limit, as
 * sys.get_int_max_str_digits), and nesting past the default depth (json's RecursionError). The
 * limits json does not have are the package's own: a max_string_length or max_document_length
 * passed (LimitError), or a max_depth set below the default (RecursionError, as json's, naming it). Null where json.loads
 * decides; Py_None (an exception set) where the limit decided.
 */
PyObject *limit_passed_in_loads(const simdbridge::error &e, PyObject *obj) {
  if (e.code == error_code::document_too_long || e.code == error_code::string_too_long) {
    raise_stream_error(e, 1, obj);
    return Py_None;
  }
  if (e.code == error_code::depth_limit && state.limits.max_depth < SIMDBRIDGE_DEFAULT_MAX_DEPTH) {
    PyErr_Format(PyExc_RecursionError, "maximum JSON nesting depth exceeded (max_depth=%u) at byte %llu",
                 unsigned(state.limits.max_depth), (unsigned long long)e.offset);
    return Py_None;
  }
  return nullptr;
}

/** True where every keyword argument is None: json.loads's fast path has no hook to honour. */
bool only_none_keywords(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  const Py_ssize_t n = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < n; k++) {
    if (args[nargs + k] != Py_None) { return false; }
  }
  return true;
}

PyObject *keywords_dict(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *kwargs = PyDict_New();
  const Py_ssize_t n = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; kwargs && k < n; k++) {
    if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, k), args[nargs + k]) < 0) { Py_CLEAR(kwargs); }
  }
  return kwargs;
}

PyObject *loads(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (nargs != 1 || !only_none_keywords(args, nargs, kwnames)) {
    // Hooks, cls, or a wrong call: json.loads does it all, its errors re-raised as ours.
    if (nargs != 1) { return PyObject_Vectorcall(state.json_loads, args, size_t(nargs), kwnames); }
    PyObject *kwargs = keywords_dict(args, nargs, kwnames);
    if (kwargs == nullptr) { return nullptr; }
    PyObject *r = json_loads_fallback(args[0], kwargs);
    Py_DECREF(kwargs);
    return r;
  }
  PyObject *obj = args[0];
  input_bytes in;
  if (!in.acquire(obj)) {
    PyErr_Clear(); // json.loads reads a str with lone surrogates, and raises json's TypeError
    return json_loads_fallback(obj, nullptr);
  }
  thread_state &t = current();
  // A loads() run while this thread's document is being built from (by code the building ran,
  // a finalizer, say) parses into a document of its own, made only then: making one allocates.
  std::optional<simdbridge::document> nested;
  if (t.building) { nested.emplace(); }
  simdbridge::document &doc = t.building ? *nested : t.document;
  const simdbridge::error e = parse_into(t.parser, in, doc);
  if (!e.ok()) {
    if (PyObject *raised = limit_passed_in_loads(e, obj)) { return raised == Py_None ? nullptr : raised; }
    // Invalid, or valid JSON for json that simdjson does not take (NaN, integers past 64 bits,
    // a byte order mark, UTF-16, nesting past max_depth, ...): json.loads decides, word for word.
    return e.code == error_code::depth_limit ? json_loads_deep(obj, true) : json_loads_fallback(obj, nullptr);
  }
  const bool was_building = t.building;
  t.building = true;
  PyObject *result = build_value(doc.tape(), tape_view::first);
  t.building = was_building;
  return result;
}

PyObject *parse(PyObject *, PyObject *obj) {
  input_bytes in;
  if (!in.acquire(obj)) {
    PyErr_Clear();
    return json_loads_fallback(obj, nullptr);
  }
  simdbridge::document doc = take_document();
  const simdbridge::error e = parse_into(current().parser, in, doc);
  if (!e.ok()) {
    if (PyObject *raised = limit_passed_in_loads(e, obj)) { return raised == Py_None ? nullptr : raised; }
  }
  if (e.code == error_code::unsupported_value || !e.ok()) {
    // Not on a tape (integers past 64 bits, ...): json.loads's plain objects; invalid: its error.
    return e.code == error_code::depth_limit ? json_loads_deep(obj, false) : json_loads_fallback(obj, nullptr);
  }
  const tape_view tape = doc.tape();
  PyObject *owner = new_document(std::move(doc));
  if (owner == nullptr) { return nullptr; }
  PyObject *view = make_view(owner, tape, tape_view::first);
  Py_DECREF(owner);
  return view;
}

/** checksum(data, *, stream=False): docs/checksum.md of a document or a stream. */
PyObject *checksum(PyObject *, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {"data", "stream", nullptr};
  PyObject *data;
  int stream = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$p", const_cast<char **>(keywords), &data, &stream)) {
    return nullptr;
  }
  input_bytes in;
  if (!in.acquire(data)) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError, "the JSON data must be str, bytes, bytearray or memoryview, not %.100s",
                   Py_TYPE(data)->tp_name);
    }
    return nullptr;
  }
  simdbridge::parser &p = current().parser;
  simdbridge::result<uint64_t> r(uint64_t(0));
  Py_BEGIN_ALLOW_THREADS r = stream ? p.checksum_stream(in.as_input()) : p.checksum(in.as_input());
  Py_END_ALLOW_THREADS
  if (!r.ok()) { return raise_stream_error(r.error(), 1, data); }
  return PyLong_FromUnsignedLongLong(r.value());
}

PyObject *configure(PyObject *, PyObject *args) {
  PyObject *decode_error, *stream_error, *limit_error, *msgpack_error;
  if (!PyArg_ParseTuple(args, "OOOO", &decode_error, &stream_error, &limit_error, &msgpack_error)) { return nullptr; }
  Py_XSETREF(state.msgpack_error, Py_NewRef(msgpack_error));
  Py_XSETREF(state.decode_error, Py_NewRef(decode_error));
  Py_XSETREF(state.stream_error, Py_NewRef(stream_error));
  Py_XSETREF(state.limit_error, Py_NewRef(limit_error));
  Py_RETURN_NONE;
}

/** _set_limits(max_depth, max_number_length, max_string_length, max_document_length): checked by the Python layer. */
PyObject *set_limits(PyObject *, PyObject *args) {
  unsigned int depth, number;
  unsigned long long string, document;
  if (!PyArg_ParseTuple(args, "IIKK", &depth, &number, &string, &document)) { return nullptr; }
  state.limits.max_depth = depth;
  state.limits.max_number_length = number;
  state.limits.max_string_length = string;
  state.limits.max_document_length = document;
  state.limits_version++;
  Py_RETURN_NONE;
}

PyObject *get_limits(PyObject *, PyObject *) {
  return Py_BuildValue("{sIsIsKsK}", "max_depth", unsigned(state.limits.max_depth), "max_number_length",
                       unsigned(state.limits.max_number_length), "max_string_length",
                       (unsigned long long)state.limits.max_string_length, "max_document_length",
                       (unsigned long long)state.limits.max_document_length);
}

PyObject *versions(PyObject *, PyObject *) {
  return Py_BuildValue("{ssssss}", "simdbridge", simdbridge::version(), "simdjson", simdbridge::simdjson_version(),
                       "simdjson_implementation", simdbridge::simd_implementation());
}

PyMethodDef methods[] = {
    {"loads", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(loads)), METH_FASTCALL | METH_KEYWORDS,
     "loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None, "
     "object_pairs_hook=None, **kw)\n--\n\n"
     "Deserialize s (str, bytes, bytearray or memoryview holding a JSON document) to a Python object:\n"
     "what json.loads(s, ...) returns, dicts, lists, str, int (exact past 64 bits), float, bool, None.\n\n"
     "Invalid JSON raises simdbridge.JSONDecodeError (a json.JSONDecodeError) with json's message, line,\n"
     "column and position; a limit of set_limits() passed raises LimitError. The hooks, cls= and other\n"
     "keywords are handed to json.loads, as json would use them."},
    {"dumps", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dumps)), METH_FASTCALL | METH_KEYWORDS,
     "dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None, "
     "indent=None, separators=None, default=None, sort_keys=False, **kw)\n--\n\n"
     "Serialize obj to a JSON formatted str: what json.dumps(obj, ...) returns, character for\n"
     "character, for every combination of these arguments, and the exceptions it raises. cls= and\n"
     "other keywords are handed to json.dumps."},
    {"dumpb", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dumpb)), METH_FASTCALL | METH_KEYWORDS,
     "dumpb(obj, /, default=None, option=None)\n--\n\n"
     "Serialize obj to compact JSON as UTF-8 bytes: what orjson.dumps(obj, default, option) returns,\n"
     "byte for byte. option takes orjson's flags (simdbridge.OPT_INDENT_2 | simdbridge.OPT_SORT_KEYS,\n"
     "...). An object it cannot serialize goes to default; failing that, JSONEncodeError (TypeError)\n"
     "with orjson's message (which names dumps()). Not as orjson: numpy's types and orjson.Fragment go\n"
     "to default; an option of 2**30 or more is refused (orjson reads it as 0 where its lowest 30\n"
     "bits are)."},
    {"parse", parse, METH_O,
     "parse(data, /)\n--\n\n"
     "A lazy, read-only view of the JSON document in data: an Object (a Mapping) or an Array (a\n"
     "Sequence), whose values are built when read, or the document's scalar. Views have at_pointer()\n"
     "(RFC 6901), as_dict() and as_list(), and keep their document alive."},
    {"loads_many", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(loads_many)),
     METH_VARARGS | METH_KEYWORDS,
     "loads_many(data, *, format='whitespace', fields=None, default=None, threads=1, block_size=1048576)\n--\n\n"
     "An iterator over the documents of a stream (bytes, str, a path, a file or an mmap), each as\n"
     "loads returns it; fields= a JSON Pointer (or a tuple of them) to take only those values.\n"
     "format: 'whitespace', 'lines', 'json_seq', 'comma' or 'array'. Errors: StreamError."},
    {"parse_many", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(parse_many)),
     METH_VARARGS | METH_KEYWORDS,
     "parse_many(data, *, format='whitespace', fields=None, default=None, threads=1, block_size=1048576)\n--\n\n"
     "As loads_many, each document a lazy view (as parse returns it)."},
    {"map_many", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(map_many)), METH_VARARGS | METH_KEYWORDS,
     "map_many(fn, data, *, format='whitespace', fields=None, default=None, threads=1, block_size=1048576)\n--\n\n"
     "fn applied to each document of a stream, in order (an iterator), with loads_many's arguments."},
    {"checksum", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(checksum)), METH_VARARGS | METH_KEYWORDS,
     "checksum(data, *, stream=False)\n--\n\n"
     "The project's checksum of one document, or of a stream of documents separated by white space\n"
     "(stream=True). Raises StreamError with the byte offset."},
    {"_configure", configure, METH_VARARGS,
     "Sets the exception classes (JSONDecodeError, StreamError, LimitError, MessagePackError)."},
    {"dumpb_many", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dumpb_many)), METH_VARARGS | METH_KEYWORDS,
     "dumpb_many(iterable, /, default=None, option=None): NDJSON bytes, each object as dumpb writes it, a line each."},
    {"json_to_msgpack", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(json_to_msgpack)),
     METH_VARARGS | METH_KEYWORDS, "json_to_msgpack(data, *, ndjson=False, block_size=1048576, threads=None): JSON as MessagePack bytes."},
    {"msgpack_to_json", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(msgpack_to_json)),
     METH_VARARGS | METH_KEYWORDS,
     "msgpack_to_json(data, *, stream=False, validate_utf8=True, binary_as_base64=True, ext_as_null=False, "
     "block_size=1048576, threads=None): MessagePack as compact JSON bytes."},
    {"loads_arrow", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(loads_arrow)), METH_VARARGS | METH_KEYWORDS,
     "loads_arrow(data, schema=None, *, block_size=1048576, error_on_unknown_fields=False, validate_skipped=True, threads=None): NDJSON "
     "as Arrow record batches."},
    {"load_arrow_fd", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(load_arrow_fd)), METH_VARARGS | METH_KEYWORDS,
     "load_arrow_fd(fd, schema=None, ...): loads_arrow over an open file, a block at a time."},
    {"dumpb_arrow", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dumpb_arrow)), METH_VARARGS | METH_KEYWORDS,
     "dumpb_arrow(data, *, write_nulls=True, threads=None): Arrow record batches as NDJSON bytes."},
    {"dump_arrow", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dump_arrow)), METH_VARARGS | METH_KEYWORDS,
     "dump_arrow(data, fp, *, write_nulls=True, threads=None): Arrow record batches as NDJSON into a path or a "
     "binary file."},
    {"_set_limits", set_limits, METH_VARARGS, "Sets the package's limits (see simdbridge.set_limits)."},
    {"_get_limits", get_limits, METH_NOARGS, "The package's limits, as a dict."},
    {"versions", versions, METH_NOARGS, "The simdbridge and simdjson versions, and simdjson's kernel."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "simdbridge._core", "simdbridge's compiled core.", -1, methods,
                          nullptr, nullptr, nullptr, nullptr};

} // namespace

simdbridge::parser &thread_parser() { return current().parser; }

bool input_bytes::acquire(PyObject *obj) {
  if (PyBytes_Check(obj)) {
    data_ = PyBytes_AS_STRING(obj);
    size_ = size_t(PyBytes_GET_SIZE(obj));
    return true;
  }
  if (PyUnicode_Check(obj)) {
    Py_ssize_t n;
    const char *utf8 = PyUnicode_AsUTF8AndSize(obj, &n);
    if (utf8 == nullptr) { return false; } // lone surrogates, no UTF-8 form: UnicodeEncodeError set
    data_ = utf8;
    size_ = size_t(n);
    is_str_ = true;
    return true;
  }
  if (PyByteArray_Check(obj) || PyMemoryView_Check(obj)) {
    // The export keeps a bytearray from being resized while it is read.
    if (PyObject_GetBuffer(obj, &buffer_, PyBUF_SIMPLE) < 0) {
      PyErr_Clear();
      return false;
    }
    has_buffer_ = true;
    data_ = static_cast<const char *>(buffer_.buf);
    size_ = size_t(buffer_.len);
    return true;
  }
  return false;
}

simdbridge::input input_bytes::as_input() const {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer cannot know that the padding read past the object lies in a mapped page
  // (the core's own walks, instrumented, read there; simdjson's, not instrumented, too): the
  // sanitized build copies every input.
  return simdbridge::input::copy_of(data_, size_);
#endif
  constexpr uintptr_t page = 4096; // a divisor of every page size
  const uintptr_t end = reinterpret_cast<uintptr_t>(data_) + size_;
  const bool nul_terminated = !has_buffer_; // bytes, and a str's UTF-8; not a bytearray's view
  if (nul_terminated && size_ > 0 && (end & (page - 1)) + simdbridge::padding <= page) {
    return simdbridge::input::padded(data_, size_, size_ + simdbridge::padding);
  }
  return simdbridge::input::copy_of(data_, size_);
}

input_bytes::~input_bytes() {
  if (has_buffer_) { PyBuffer_Release(&buffer_); }
}

} // namespace simdbridge::python

PyMODINIT_FUNC PyInit__core() {
  using namespace simdbridge::python;
  PyObject *module = PyModule_Create(&module_def);
  if (module == nullptr) { return nullptr; }
  PyObject *json = PyImport_ImportModule("json");
  if (json == nullptr) {
    Py_DECREF(module);
    return nullptr;
  }
  state.json_loads = PyObject_GetAttrString(json, "loads");
  state.json_dumps = PyObject_GetAttrString(json, "dumps");
  state.json_decode_error = PyObject_GetAttrString(json, "JSONDecodeError");
  state.json_detect_encoding = PyObject_GetAttrString(json, "detect_encoding");
  if (PyObject *decoder = PyObject_GetAttrString(json, "_default_decoder")) {
    state.json_decoder_decode = PyObject_GetAttrString(decoder, "decode");
    Py_DECREF(decoder);
  }
  Py_DECREF(json);
  // Until _configure sets them, json's own class serves.
  state.decode_error = Py_XNewRef(state.json_decode_error);
  state.stream_error = Py_XNewRef(state.json_decode_error);
  state.limit_error = Py_XNewRef(state.json_decode_error);
  if (!state.json_loads || !state.json_dumps || !state.json_decode_error || !state.json_detect_encoding ||
      !state.json_decoder_decode || !init_views(module) ||
      !init_streams(module) || !init_arrow(module) || !add_dumpb_options(module)) {
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
