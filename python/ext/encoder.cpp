// SPDX-License-Identifier: Apache-2.0
// dumps(): the text json.dumps gives, for every combination of its arguments.
//
// The output is built as UTF-8 in one buffer: floats in the shortest form that round-trips,
// formatted as float.__repr__ formats it; strings escaped a run at a time. Two rules keep it
// exactly json's:
// - the same dispatch: str, None, True, False, int (int.__repr__), float (float.__repr__), list
//   and tuple, dict, then `default`; with indent=None a list or tuple subclass is read from its
//   storage (json's C encoder), with an indent it is iterated (json's Python encoder);
// - an error the encoder itself finds (an object json cannot encode, a NaN with allow_nan=False,
//   a cycle, a bad key, too deep a nesting) is raised by json.dumps run again on the same
//   arguments, so that type and message are json's, word for word (they differ between json's
//   two encoders in 3.11). An exception from `default` or from a comparison goes through as is.
// cls= and unknown keywords go to json.dumps from the start.
#include <cmath>
#include <cstring>
#include <string>
#include <cstdlib>
#include <vector>

#include "common.h"
#include "text_output.h"

namespace simdbridge::python {

namespace {

struct options {
  bool skipkeys = false;
  bool ensure_ascii = true;
  bool check_circular = true;
  bool allow_nan = true;
  bool sort_keys = false;
  bool indented = false;
  std::string indent;
  std::string item_separator = ", ";
  std::string key_separator = ": ";
  PyObject *default_fn = nullptr; // borrowed
};

/** Thrown to leave the encoder: `delegate` when json.dumps must raise the error instead. */
struct stop {
  bool delegate;
};

class encoder {
public:
  explicit encoder(const options &o) : o_(o), strings_(o.ensure_ascii) {
    if (!o.item_separator.empty() && o.item_separator.size() <= sizeof separator_word_) {
      std::memcpy(separator_word_, o.item_separator.data(), o.item_separator.size());
      separator_length_ = o.item_separator.size();
    }
  }

  void encode(PyObject *obj, int level) {
    if (!leaf(obj)) { encode_other(obj, level); }
  }
  const output &text() const { return out_; }

private:
  /** A value that is not a leaf (leaf() said so): a container, a subclass, or default's. */
  void encode_other(PyObject *obj, int level);

  void encode_float(double d) {
    if (!std::isfinite(d)) {
      if (!o_.allow_nan) { throw stop{true}; }
      const char *word = std::isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
      out_.append(word, std::strlen(word));
      return;
    }
    put_double(out_, d, -3, true); // float.__repr__: exponent form from 1e-4 down and 1e16 up
  }

  void encode_int(PyObject *obj) {
    int64_t v;
    int overflow = 0;
    if (!small_int(obj, v)) { // (an int's subclass too: the digits are int's)
      v = PyLong_AsLongLongAndOverflow(obj, &overflow);
      if (overflow == 0 && v == -1 && PyErr_Occurred()) { throw stop{false}; }
    }
    if (overflow == 0) {
      out_.reserve(25);
      put_int64(out_, v);
      return;
    }
    PyObject *text = PyLong_Type.tp_repr(obj); // int.__repr__, as json
    if (text == nullptr) { throw stop{false}; }
    append_ascii_str(text);
    Py_DECREF(text);
  }

  void append_ascii_str(PyObject *s) {
    Py_ssize_t n;
    const char *utf8 = PyUnicode_AsUTF8AndSize(s, &n);
    if (utf8 == nullptr) { throw stop{false}; }
    out_.append(utf8, size_t(n));
  }

  void encode_string(PyObject *s) { strings_.write(out_, s); }

  /**
   * A str, int, float, None, True or False of the exact type, written; false for anything else
   * (encode() then writes it). Inlined into the containers' loops: most values are these, and
   * no Python code runs while one is written.
   */
  [[gnu::always_inline]] inline bool leaf(PyObject *obj) {
    PyTypeObject *type = Py_TYPE(obj);
    if (type == &PyUnicode_Type) {
      if (PyUnicode_IS_COMPACT_ASCII(obj)) {
        strings_.write_compact_ascii(out_, obj);
      } else {
        encode_string(obj);
      }
    } else if (type == &PyLong_Type) {
      int64_t v;
      if (!small_int(obj, v)) {
        encode_int(obj);
        return true;
      }
      out_.reserve(25);
      put_int64(out_, v);
    } else if (type == &PyFloat_Type) {
      encode_float(PyFloat_AS_DOUBLE(obj));
    } else if (obj == Py_None) {
      out_.append("null", 4);
    } else if (obj == Py_True) {
      out_.append("true", 4);
    } else if (obj == Py_False) {
      out_.append("false", 5);
    } else {
      return false;
    }
    return true;
  }

  void newline(int level) {
    out_.append('\n');
    for (int i = 0; i < level; i++) { out_.append(o_.indent); }
  }

  /**
   * Enters a container: the circular check and the recursion limit (json's own message). The
   * containers being encoded are a stack, searched from the top: a nesting is rarely deep, and
   * a search of a few pointers costs less than a hash set's insert and erase.
   */
  void enter(PyObject *container) {
    if (o_.check_circular) {
      for (PyObject *open : open_) {
        if (open == container) { throw stop{true}; }
      }
      open_.push_back(container);
    }
    if (Py_EnterRecursiveCall(" while encoding a JSON object")) {
      if (o_.check_circular) { open_.pop_back(); }
      throw stop{true};
    }
  }

  void leave(PyObject *) {
    Py_LeaveRecursiveCall();
    if (o_.check_circular) { open_.pop_back(); }
  }

  void encode_sequence(PyObject *seq, int level) {
    // json's C encoder (indent=None) reads a list's or tuple's storage; its Python encoder
    // (with an indent) iterates it, which a subclass may override.
    // (PySequence_Fast of an exact list or tuple is the object itself, referenced once more.)
    const bool exact = PyList_CheckExact(seq) || PyTuple_CheckExact(seq);
    PyObject *items = exact ? Py_NewRef(seq)
                      : o_.indented ? PySequence_List(seq)
                                    : PySequence_Fast(seq, "_iterencode_list needs a sequence");
    if (items == nullptr) { throw stop{false}; }
    owned hold(items);
    const bool tuple = PyTuple_Check(items); // else a list: PySequence_Fast gives one or the other
    const auto size = [&] { return tuple ? PyTuple_GET_SIZE(items) : PyList_GET_SIZE(items); };
    if (size() == 0) {
      out_.append("[]", 2);
      return;
    }
    enter(seq);
    out_.append('[');
    try {
      // Without an indent, and with an item separator of a word at most (", " and "," are), a
      // finite float, an int of 64 bits or a compact ASCII str is written with its separator
      // after one reservation, through a cursor (as dumpb writes a list's): lists of numbers
      // and of short strings are where the per-item steps show.
      const bool inline_items = !o_.indented && separator_length_ != 0;
      cursor c(out_);
      // The size read again at each step, as json does: a `default` may shorten the list.
      for (Py_ssize_t i = 0; i < size(); i++) {
        PyObject *item = tuple ? PyTuple_GET_ITEM(items, i) : PyList_GET_ITEM(items, i);
        if (inline_items) {
          const auto separated = [&](size_t n) __attribute__((always_inline)) {
            c.reserve(sizeof separator_word_ + n);
            if (i > 0) { c.t = short_separator_into(c.t); }
          };
          int64_t v;
          if (Py_TYPE(item) == &PyFloat_Type && std::isfinite(PyFloat_AS_DOUBLE(item))) {
            separated(48);
            c.t += write_double(PyFloat_AS_DOUBLE(item), c.t, -3, true);
            continue;
          }
          if (Py_TYPE(item) == &PyLong_Type && small_int(item, v)) {
            separated(25);
            c.t = int64_into(c.t, v);
            continue;
          }
          if (is_compact_ascii(item)) {
            separated(json_string_capacity_utf8(size_t(PyUnicode_GET_LENGTH(item))));
            c.t = strings_.compact_ascii_into(c.t, item);
            continue;
          }
        }
        c.close();
        if (i > 0) { out_.append(o_.item_separator); }
        if (o_.indented) { newline(level + 1); }
        if (!leaf(item)) { encode_other(item, level + 1); }
        c.open();
      }
      c.close();
    } catch (...) {
      leave(seq);
      throw;
    }
    leave(seq);
    if (o_.indented) { newline(level); }
    out_.append(']');
  }

  /** A dict key as json writes it: false where skipkeys skips it. */
  bool encode_key(PyObject *key) {
    if (PyUnicode_Check(key)) {
      encode_string(key);
    } else if (PyFloat_Check(key)) {
      out_.append('"');
      encode_float(PyFloat_AS_DOUBLE(key));
      out_.append('"');
    } else if (key == Py_True || key == Py_False || key == Py_None) {
      const char *word = key == Py_True ? "\"true\"" : key == Py_False ? "\"false\"" : "\"null\"";
      out_.append(word, std::strlen(word));
    } else if (PyLong_Check(key)) {
      out_.append('"');
      encode_int(key);
      out_.append('"');
    } else if (o_.skipkeys) {
      return false;
    } else {
      throw stop{true}; // "keys must be str, int, float, bool or None, not ..."
    }
    return true;
  }

  void encode_dict(PyObject *dict, int level) {
    if (PyDict_GET_SIZE(dict) == 0) {
      out_.append("{}", 2);
      return;
    }
    enter(dict);
    // Held while written: a `default` may drop the last other reference to it (the container it
    // came from), and PyDict_Next would then read freed memory.
    Py_INCREF(dict);
    owned hold(dict);
    out_.append('{');
    bool first = true;
    auto member = [&](PyObject *key, PyObject *value) {
      const size_t mark = out_.size();
      if (!first) { out_.append(o_.item_separator); }
      if (o_.indented) { newline(level + 1); }
      if (!encode_key(key)) {
        out_.resize(mark);
        return;
      }
      out_.append(o_.key_separator);
      encode(value, level + 1);
      first = false;
    };
    try {
      if (PyDict_CheckExact(dict) && !o_.sort_keys) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        bool read_whole = false;
#if SIMDBRIDGE_DICT_ENTRIES
        // A member from its entry, a str key's; true where Python code ran for its value.
        const auto str_member = [&](PyObject *k, PyObject *v) __attribute__((always_inline)) {
          if (!first) { out_.append(o_.item_separator); }
          if (o_.indented) { newline(level + 1); }
          first = false;
          if (PyUnicode_IS_COMPACT_ASCII(k)) {
            strings_.write_compact_ascii(out_, k);
          } else {
            encode_string(k);
          }
          out_.append(o_.key_separator);
          if (leaf(v)) { return false; }
          Py_INCREF(v);
          owned hold_value(v);
          encode_other(v, level + 1);
          return true;
        };
        // A combined dict with no deleted entry, read from its entries while their keys are strs
        // (as dumpb does; PyDict_Next goes on at any other key): the key is written before any
        // Python code runs; a value that is not a leaf is held while written (a `default` may
        // change the dict), and the entries are found again after it, or PyDict_Next goes on
        // from the same position. Read to its end, it needs no PyDict_Next (a call that only
        // finds the end).
        if (const dict_entry *e = unicode_entries(dict)) {
          while (pos < PyDict_GET_SIZE(dict)) {
            key = e[pos].key;
            value = e[pos].value;
            pos++;
            if (str_member(key, value) && (e = unicode_entries(dict)) == nullptr) { break; }
          }
          read_whole = e != nullptr;
        } else if (dict_items items = combined_items(dict)) {
          while (pos < PyDict_GET_SIZE(dict)) {
            PyObject *const *entry = items.at(pos);
            key = entry[0];
            value = entry[1];
            if (Py_TYPE(key) != &PyUnicode_Type) { break; } // PyDict_Next goes on from it
            pos++;
            if (str_member(key, value) && !(items = combined_items(dict))) { break; }
          }
          read_whole = items && pos == PyDict_GET_SIZE(dict);
        }
#endif
        while (!read_whole && PyDict_Next(dict, &pos, &key, &value)) {
          Py_INCREF(key);
          Py_INCREF(value);
          owned hold_key(key), hold_value(value);
          member(key, value);
        }
      } else {
        owned items(PyMapping_Items(dict)); // a subclass's items(), as json
        if (items.p == nullptr || (o_.sort_keys && PyList_Sort(items.p) < 0)) { throw stop{false}; }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items.p); i++) {
          PyObject *pair = PyList_GET_ITEM(items.p, i);
          if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) { throw stop{true}; }
          member(PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1));
        }
      }
    } catch (...) {
      leave(dict);
      throw;
    }
    leave(dict);
    if (o_.indented) {
      // json writes the first member's newline before it knows whether skipkeys leaves any
      // member: a dict whose keys were all skipped is "{", that newline, then the closing one.
      if (first) { newline(level + 1); }
      newline(level);
    }
    out_.append('}');
  }

  /** The item separator, where it is a word at most, at t where 8 bytes are free: one 8-byte
   *  store, the bytes past it written over next. Its end. */
  char *short_separator_into(char *t) const {
    std::memcpy(t, separator_word_, sizeof separator_word_);
    return t + separator_length_;
  }

  const options &o_;
  string_writer strings_;
  output out_;
  std::vector<PyObject *> open_; // the containers being encoded, for the circular check
  char separator_word_[8] = {};
  size_t separator_length_ = 0; // 0: longer than the word
};

void encoder::encode_other(PyObject *obj, int level) {
  // Not the exact types, None, True or False (leaf() wrote those): containers, subclasses and
  // the rest. Containers first and the float test last: PyFloat_Check calls PyType_IsSubtype,
  // where the others read a flag of the type. No class derives from two of these types (their
  // layouts conflict), so the order cannot change which one json's encoder would take.
  if (PyList_Check(obj) || PyTuple_Check(obj)) {
    encode_sequence(obj, level);
  } else if (PyDict_Check(obj)) {
    encode_dict(obj, level);
  } else if (PyUnicode_Check(obj)) {
    encode_string(obj);
  } else if (PyLong_Check(obj)) {
    encode_int(obj);
  } else if (PyFloat_Check(obj)) {
    encode_float(PyFloat_AS_DOUBLE(obj));
  } else {
    if (o_.default_fn == nullptr || o_.default_fn == Py_None) { throw stop{true}; } // not serializable
    enter(obj);
    PyObject *converted = PyObject_CallOneArg(o_.default_fn, obj);
    if (converted == nullptr) {
      leave(obj);
      throw stop{false}; // default's own exception
    }
    try {
      encode(converted, level);
    } catch (...) {
      Py_DECREF(converted);
      leave(obj);
      throw;
    }
    Py_DECREF(converted);
    leave(obj);
  }
}

PyObject *call_json_dumps(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  return PyObject_Vectorcall(state.json_dumps, args, size_t(nargs), kwnames);
}

/**
 * A separator or indent's UTF-8, and whether it is ASCII; false where the str has no UTF-8 form
 * (a lone surrogate), which json.dumps then writes itself.
 */
bool layout_text(PyObject *s, std::string &out, bool &ascii) {
  Py_ssize_t n;
  const char *utf8 = PyUnicode_AsUTF8AndSize(s, &n);
  if (utf8 == nullptr) {
    PyErr_Clear();
    return false;
  }
  out.assign(utf8, size_t(n));
  ascii = ascii && PyUnicode_IS_ASCII(s);
  return true;
}

bool is_true(PyObject *v, bool &out) {
  const int t = PyObject_IsTrue(v);
  if (t < 0) { return false; }
  out = t != 0;
  return true;
}

} // namespace

PyObject *dumps(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (nargs != 1) { return call_json_dumps(args, nargs, kwnames); } // json's own TypeError
  options o;
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  PyObject *indent = Py_None;
  PyObject *separators = Py_None;
  for (Py_ssize_t k = 0; k < nkw; k++) {
    const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
    PyObject *v = args[nargs + k];
    if (name == nullptr) { return nullptr; }
    bool ok = true;
    if (std::strcmp(name, "skipkeys") == 0) {
      ok = is_true(v, o.skipkeys);
    } else if (std::strcmp(name, "ensure_ascii") == 0) {
      ok = is_true(v, o.ensure_ascii);
    } else if (std::strcmp(name, "check_circular") == 0) {
      ok = is_true(v, o.check_circular);
    } else if (std::strcmp(name, "allow_nan") == 0) {
      ok = is_true(v, o.allow_nan);
    } else if (std::strcmp(name, "sort_keys") == 0) {
      ok = is_true(v, o.sort_keys);
    } else if (std::strcmp(name, "indent") == 0) {
      indent = v;
    } else if (std::strcmp(name, "separators") == 0) {
      separators = v;
    } else if (std::strcmp(name, "default") == 0) {
      o.default_fn = v;
    } else if (std::strcmp(name, "cls") == 0 && v == Py_None) {
      continue;
    } else {
      return call_json_dumps(args, nargs, kwnames); // cls=, or what json passes to its encoder
    }
    if (!ok) { return nullptr; }
  }
  // The text json writes around values: with ensure_ascii the output is ASCII only where the
  // separators and indent are too (json writes them as given, escaping only strings).
  bool ascii_layout = true;
  if (indent != Py_None) {
    o.indented = true;
    o.item_separator = ",";
    if (PyUnicode_Check(indent)) {
      if (!layout_text(indent, o.indent, ascii_layout)) { return call_json_dumps(args, nargs, kwnames); }
    } else if (PyLong_Check(indent)) {
      const long spaces = PyLong_AsLong(indent); // json: ' ' * indent
      if (spaces == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return call_json_dumps(args, nargs, kwnames);
      }
      o.indent.assign(size_t(spaces > 0 ? spaces : 0), ' ');
    } else {
      return call_json_dumps(args, nargs, kwnames);
    }
  }
  if (separators != Py_None) {
    if (!PyTuple_Check(separators) || PyTuple_GET_SIZE(separators) != 2 ||
        !PyUnicode_Check(PyTuple_GET_ITEM(separators, 0)) || !PyUnicode_Check(PyTuple_GET_ITEM(separators, 1))) {
      return call_json_dumps(args, nargs, kwnames);
    }
    if (!layout_text(PyTuple_GET_ITEM(separators, 0), o.item_separator, ascii_layout) ||
        !layout_text(PyTuple_GET_ITEM(separators, 1), o.key_separator, ascii_layout)) {
      return call_json_dumps(args, nargs, kwnames);
    }
  }
  encoder e(o);
  try {
    e.encode(args[0], 0);
  } catch (const stop &s) {
    if (s.delegate) {
      PyErr_Clear();
      return call_json_dumps(args, nargs, kwnames); // json raises its own exception, word for word
    }
    return nullptr;
  } catch (const std::bad_alloc &) {
    return PyErr_NoMemory();
  }
  const output &text = e.text();
  if (o.ensure_ascii && ascii_layout) {
    PyObject *s = PyUnicode_New(Py_ssize_t(text.size()), 127);
    if (s != nullptr) { std::memcpy(PyUnicode_1BYTE_DATA(s), text.data(), text.size()); }
    return s;
  }
  return PyUnicode_DecodeUTF8(text.data(), Py_ssize_t(text.size()), "surrogatepass");
}

} // namespace simdbridge::python
