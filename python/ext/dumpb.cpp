// SPDX-License-Identifier: Apache-2.0
// dumpb(): the bytes orjson.dumps returns (orjson 3.x, compared with 3.13 in the tests), from the same
// buffer and string escaping as dumps(). Compact UTF-8; str, int (64-bit), float (NaN and
// infinities as null), bool, None, list, tuple, dict, dataclasses, enums, UUID, and
// datetime/date/time as RFC 3339; subclasses of str, int, list and dict as their base type;
// anything else through `default`. Errors are TypeError with orjson's messages (orjson's
// JSONEncodeError is TypeError). The option flags are orjson's, with orjson's values.
//
// The dispatch follows orjson's order: exact built-in types first, then UUID, tuple, date,
// time, the four subclasses, enums (whose metaclass is EnumType), dataclasses (a type whose
// own dict has __dataclass_fields__), then `default`. Containers nest up to 254 deep, and
// `default` may hand back something that needs it again 254 times.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "common.h" // Python.h first
#include "datetime_text.h"
#include "text_output.h"

#include <datetime.h>

namespace simdbridge::python {

namespace {

enum : uint32_t {
  opt_indent_2 = 1,
  opt_naive_utc = 2,
  opt_non_str_keys = 4,
  opt_omit_microseconds = 8,
  opt_serialize_numpy = 16, // accepted; numpy objects are not serialized (they go to `default`)
  opt_sort_keys = 32,
  opt_strict_integer = 64,
  opt_utc_z = 128,
  opt_passthrough_subclass = 256,
  opt_passthrough_datetime = 512,
  opt_append_newline = 1024,
  opt_passthrough_dataclass = 2048,
  all_options = 4095,
};

constexpr int recursion_limit = 255; // the container that would be the 255th level fails
constexpr int default_limit = 255;   // calls of `default` for one value, one inside another

/** Thrown with a Python exception set. */
struct failed {};

[[noreturn]] void fail(const char *message) {
  PyErr_SetString(PyExc_TypeError, message);
  throw failed{};
}

/** What dumpb looks up once, at its first call (so that importing simdbridge imports none of it). */
struct lookups {
  bool ready = false;
  PyObject *uuid_type = nullptr;
  PyObject *enum_meta = nullptr;
  PyObject *dataclass_field = nullptr; // dataclasses._FIELD: a real field (not ClassVar, InitVar)
  PyObject *dataclass_fields = nullptr; // "__dataclass_fields__"
  PyObject *field_type = nullptr;       // "_field_type"
  PyObject *value = nullptr;            // "value"
  PyObject *hex = nullptr;              // "hex"
  PyObject *utcoffset = nullptr;        // "utcoffset"
  PyObject *zoneinfo_type = nullptr;    // zoneinfo.ZoneInfo
  PyObject *convert = nullptr;          // "convert": pendulum's time zones have it
  PyObject *normalize = nullptr;        // "normalize": pytz's
  PyObject *dst = nullptr;              // "dst": every tzinfo that follows the datetime module
  PyObject *slots = nullptr;            // "__slots__"

  bool load() {
    if (ready) { return true; }
    PyDateTime_IMPORT;
    if (PyDateTimeAPI == nullptr) { return false; }
    PyObject *uuid = PyImport_ImportModule("uuid");
    PyObject *enum_module = uuid ? PyImport_ImportModule("enum") : nullptr;
    PyObject *dataclasses = enum_module ? PyImport_ImportModule("dataclasses") : nullptr;
    if (dataclasses != nullptr) {
      uuid_type = PyObject_GetAttrString(uuid, "UUID");
      enum_meta = PyObject_GetAttrString(enum_module, "EnumMeta");
      dataclass_field = PyObject_GetAttrString(dataclasses, "_FIELD");
    }
    Py_XDECREF(uuid);
    Py_XDECREF(enum_module);
    Py_XDECREF(dataclasses);
    dataclass_fields = PyUnicode_InternFromString("__dataclass_fields__");
    field_type = PyUnicode_InternFromString("_field_type");
    value = PyUnicode_InternFromString("value");
    hex = PyUnicode_InternFromString("hex");
    utcoffset = PyUnicode_InternFromString("utcoffset");
    convert = PyUnicode_InternFromString("convert");
    normalize = PyUnicode_InternFromString("normalize");
    dst = PyUnicode_InternFromString("dst");
    slots = PyUnicode_InternFromString("__slots__");
    if (PyObject *zoneinfo = PyImport_ImportModule("zoneinfo")) {
      zoneinfo_type = PyObject_GetAttrString(zoneinfo, "ZoneInfo");
      Py_DECREF(zoneinfo);
    }
    ready = uuid_type && enum_meta && dataclass_field && dataclass_fields && field_type && value && hex && utcoffset &&
            convert && normalize && dst && slots && zoneinfo_type;
    return ready;
  }
};
lookups names;

/** Pairs of new references (a key or name, a value), released with the vector. */
struct owned_pairs : std::vector<std::pair<PyObject *, PyObject *>> {
  owned_pairs() = default;
  owned_pairs(const owned_pairs &) = delete;
  owned_pairs &operator=(const owned_pairs &) = delete;
  ~owned_pairs() {
    for (auto &kv : *this) {
      Py_DECREF(kv.first);
      Py_DECREF(kv.second);
    }
  }
};

/**
 * Keys written before, as `"key":`. A dict's keys recur (a list of records repeats its keys in
 * every record), and copying a quoted key whole skips its escape check. An entry is found by the
 * key's hash and taken for a key of the same hash and length that is the same str (a str freed
 * and another made at that address would need the same hash, SipHash, and length as well) or has
 * the same characters: json.loads makes a str per key per call, so records read one a call share
 * entries by their keys' characters. The bytes are the key's own, whatever the options (dumpb
 * writes keys as they are, without ensure_ascii). Compact ASCII keys of up to 29 characters that
 * need no escape. Shared by every call (under the GIL).
 */
struct cached_key {
  const PyObject *key; // the str the entry was made from: found again by address, its characters go uncompared
  Py_hash_t hash;
  uint32_t size; // of text: quotes, characters, colon
  char text[36]; // 32 copied at once, whatever the size
};
constexpr size_t key_cache_size = 512;
cached_key key_cache[key_cache_size];

/** Whether the n bytes at a and b are the same, for n up to 32: in overlapping words, none read
 *  past a + n or b + n (memcmp's call cost more than the comparison of a key). */
inline bool same_short_bytes(const char *a, const char *b, size_t n) {
  const auto differ = [&](size_t at, auto word) {
    decltype(word) x, y;
    std::memcpy(&x, a + at, sizeof x);
    std::memcpy(&y, b + at, sizeof y);
    return uint64_t(x ^ y);
  };
  if (n >= 16) {
    return (differ(0, uint64_t()) | differ(8, uint64_t()) | differ(n - 16, uint64_t()) |
            differ(n - 8, uint64_t())) == 0;
  }
  if (n >= 8) { return (differ(0, uint64_t()) | differ(n - 8, uint64_t())) == 0; }
  if (n >= 4) { return (differ(0, uint32_t()) | differ(n - 4, uint32_t())) == 0; }
  return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

/** The cache's entry for a key of this hash. */
inline cached_key &key_cache_entry(Py_hash_t hash) {
  return key_cache[(size_t(hash) ^ (size_t(hash) >> 17)) % key_cache_size];
}

class orjson_writer {
public:
  orjson_writer(uint32_t options, PyObject *default_fn)
      : opts_(options), default_(default_fn), strings_(false), indent_((options & opt_indent_2) != 0),
        out_(output::into_bytes) {}

  output &text() { return out_; }

  void value(PyObject *obj, int depth, int defaults) {
    if (!leaf(obj)) { composite(obj, depth, defaults); }
  }

private:
  /**
   * A str, int, float, bool or None (the exact types), written; false for anything else. No
   * Python code runs while one is written, so a container's items of these types are written
   * borrowed: only the others are held (a `default` may drop them from their container).
   */
  [[gnu::always_inline]] inline bool leaf(PyObject *obj) {
    PyTypeObject *type = Py_TYPE(obj);
    if (type == &PyUnicode_Type) {
      string(obj);
    } else if (type == &PyLong_Type) {
      integer(obj);
    } else if (type == &PyFloat_Type) {
      floating(PyFloat_AS_DOUBLE(obj));
    } else if (type == &PyBool_Type) {
      out_.append(obj == Py_True ? "true" : "false", obj == Py_True ? 4 : 5);
    } else if (obj == Py_None) {
      out_.append("null", 4);
    } else {
      return false;
    }
    return true;
  }

  /** What leaf() does not write. */
  void composite(PyObject *obj, int depth, int defaults) {
    PyTypeObject *type = Py_TYPE(obj);
    if (type == &PyList_Type) {
      sequence(obj, depth, defaults);
    } else if (type == &PyDict_Type) {
      dict(obj, depth, defaults);
    } else if (type == PyDateTimeAPI->DateTimeType && !(opts_ & opt_passthrough_datetime)) {
      out_.append('"');
      datetime(obj);
      out_.append('"');
    } else {
      unlikely(obj, type, depth, defaults);
    }
  }

  void unlikely(PyObject *obj, PyTypeObject *type, int depth, int defaults) {
    const bool dates = !(opts_ & opt_passthrough_datetime);
    if (reinterpret_cast<PyObject *>(type) == names.uuid_type) {
      out_.append('"');
      uuid(obj);
      out_.append('"');
    } else if (type == &PyTuple_Type) {
      sequence(obj, depth, defaults);
    } else if (dates && type == PyDateTimeAPI->DateType) {
      out_.append('"');
      date(obj);
      out_.append('"');
    } else if (dates && type == PyDateTimeAPI->TimeType) {
      out_.append('"');
      time(obj);
      out_.append('"');
    } else if (!(opts_ & opt_passthrough_subclass) && PyUnicode_Check(obj)) {
      string(obj);
    } else if (!(opts_ & opt_passthrough_subclass) && PyLong_Check(obj)) {
      integer(obj);
    } else if (!(opts_ & opt_passthrough_subclass) && PyList_Check(obj)) {
      sequence(obj, depth, defaults);
    } else if (!(opts_ & opt_passthrough_subclass) && PyDict_Check(obj)) {
      dict(obj, depth, defaults);
    } else if (reinterpret_cast<PyObject *>(Py_TYPE(type)) == names.enum_meta) {
      owned v(PyObject_GetAttr(obj, names.value));
      if (v.p == nullptr) { throw failed{}; }
      value(v.p, depth, defaults);
    } else if (!(opts_ & opt_passthrough_dataclass) && type->tp_dict != nullptr &&
               PyDict_Contains(type->tp_dict, names.dataclass_fields) == 1) {
      dataclass(obj, depth, defaults);
    } else {
      through_default(obj, depth, defaults);
    }
  }

  /** Sets orjson's error for an object it does not serialize. */
  static void set_not_serializable(PyObject *obj) {
    PyErr_Format(PyExc_TypeError, "Type is not JSON serializable: %s", Py_TYPE(obj)->tp_name);
  }

  void through_default(PyObject *obj, int depth, int defaults) {
    if (default_ == nullptr) {
      set_not_serializable(obj);
      throw failed{};
    }
    if (defaults >= default_limit) { fail("default serializer exceeds recursion limit"); }
    owned converted(PyObject_CallOneArg(default_, obj));
    if (converted.p == nullptr) {
      // orjson's error, caused by default's own.
      PyObject *type, *cause, *trace;
      PyErr_Fetch(&type, &cause, &trace);
      PyErr_NormalizeException(&type, &cause, &trace);
      if (trace != nullptr && cause != nullptr) { PyException_SetTraceback(cause, trace); }
      Py_XDECREF(type);
      Py_XDECREF(trace);
      set_not_serializable(obj);
      PyObject *t2, *error, *trace2;
      PyErr_Fetch(&t2, &error, &trace2);
      PyErr_NormalizeException(&t2, &error, &trace2);
      if (cause != nullptr) { PyException_SetCause(error, cause); } // steals cause
      PyErr_Restore(t2, error, trace2);
      throw failed{};
    }
    value(converted.p, depth, defaults + 1);
  }

  /** A str from its UTF-8: CPython keeps it in the str once made (as orjson), so that writing
   *  the same strs again copies it; a lone surrogate has none. */
  [[gnu::always_inline]] inline void string(PyObject *s) {
    if (PyUnicode_IS_COMPACT_ASCII(s)) { // every exact str of ASCII: its characters follow its header
      strings_.write_compact_ascii(out_, s);
      return;
    }
    string_slow(s);
  }

  void string_slow(PyObject *s) {
    if (PyUnicode_IS_ASCII(s)) {
      strings_.write(out_, s);
      return;
    }
    Py_ssize_t n;
    const char *utf8 = PyUnicode_AsUTF8AndSize(s, &n);
    if (utf8 == nullptr) {
      PyErr_Clear();
      fail("str is not valid UTF-8: surrogates not allowed");
    }
    strings_.write_utf8(out_, utf8, size_t(n));
  }

  [[gnu::always_inline]] inline void integer(PyObject *obj) {
    int64_t v;
    if (!(opts_ & opt_strict_integer) && small_int(obj, v)) { // most ints: inline
      out_.reserve(25);
      put_int64(out_, v);
      return;
    }
    if (!put_integer(obj, (opts_ & opt_strict_integer) != 0)) { fail("Integer exceeds 64-bit range"); }
  }

  /** An int's digits; false, and nothing written, where it is past 64 bits (its caller names the
   *  error: a value's and a key's differ). Past 53 bits where `strict`: orjson's error. */
  bool put_integer(PyObject *obj, bool strict) {
    int64_t v;
    if (!small_int(obj, v)) {
      int overflow = 0;
      v = PyLong_AsLongLongAndOverflow(obj, &overflow);
      if (overflow != 0) { // past int64: up to 2^64 - 1 is written, as orjson does
        const unsigned long long u = overflow > 0 ? PyLong_AsUnsignedLongLong(obj) : 0;
        if (overflow < 0 || (u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) {
          PyErr_Clear();
          return false;
        }
        if (strict) { fail("Integer exceeds 53-bit range"); }
        out_.reserve(24);
        put_uint64(out_, u);
        return true;
      }
      if (v == -1 && PyErr_Occurred()) { throw failed{}; }
    }
    if (strict && (v > max_53 || v < -max_53)) { fail("Integer exceeds 53-bit range"); }
    out_.reserve(25);
    put_int64(out_, v);
    return true;
  }

  /** orjson's float text: shortest digits, positional from 1e-5 to below 1e16, else d.ddde[+-]x. */
  void floating(double d) {
    if (!std::isfinite(d)) {
      out_.append("null", 4);
      return;
    }
    put_double(out_, d, -4, false);
  }

  void newline(int depth) {
    out_.reserve(size_t(depth) * 2 + 1);
    out_.put('\n');
    for (int i = 0; i < depth; i++) { out_.put("  ", 2); }
  }

  static int enter(int depth) {
    if (depth + 1 >= recursion_limit) { fail("Recursion limit reached"); }
    return depth + 1;
  }

  /** A list, a tuple, or a list's subclass (its storage, not its __iter__). */
  void sequence(PyObject *seq, int depth, int defaults) {
    const bool tuple = PyTuple_Check(seq);
    const auto size = [&] { return tuple ? PyTuple_GET_SIZE(seq) : PyList_GET_SIZE(seq); };
    if (size() == 0) {
      out_.append("[]", 2);
      return;
    }
    const int inner = enter(depth);
    out_.append('[');
    if (!tuple && !indent_) {
      // A list without indent, the usual case, read from its items array: each finite float, int
      // of 64 bits and compact ASCII str with its comma after one reservation, through a cursor
      // (lists of numbers and of short strings are where the per-item steps show).
      const bool strict = (opts_ & opt_strict_integer) != 0;
      cursor c(out_);
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(seq); i++) { // a default may shorten it
        PyObject *item = PyList_GET_ITEM(seq, i);
        if (Py_TYPE(item) == &PyFloat_Type && std::isfinite(PyFloat_AS_DOUBLE(item))) {
          c.reserve(49);
          if (i > 0) { c.put(','); }
          c.t += write_double(PyFloat_AS_DOUBLE(item), c.t, -4, false);
          continue;
        }
        int64_t v;
        if (Py_TYPE(item) == &PyLong_Type && !strict && small_int(item, v)) {
          c.reserve(26);
          if (i > 0) { c.put(','); }
          c.t = int64_into(c.t, v);
          continue;
        }
        if (is_compact_ascii(item)) {
          c.reserve(1 + json_string_capacity_utf8(size_t(PyUnicode_GET_LENGTH(item))));
          if (i > 0) { c.put(','); }
          c.t = strings_.compact_ascii_into(c.t, item);
          continue;
        }
        c.close();
        if (i > 0) { out_.append(','); }
        // Lists of dicts (records) and of lists (coordinates) straight to their writer, past
        // leaf()'s and composite()'s tests.
        const bool record = Py_TYPE(item) == &PyDict_Type, nested = Py_TYPE(item) == &PyList_Type;
        if (record || nested || !leaf(item)) {
          Py_INCREF(item);
          owned hold(item);
          if (record) {
            dict(item, inner, defaults);
          } else if (nested) {
            sequence(item, inner, defaults);
          } else {
            composite(item, inner, defaults);
          }
        }
        c.open();
      }
      c.close();
      out_.append(']');
      return;
    }
    for (Py_ssize_t i = 0; i < size(); i++) { // a default may shorten a list being written
      if (i > 0) { out_.append(','); }
      if (indent_) { newline(inner); }
      PyObject *item = tuple ? PyTuple_GET_ITEM(seq, i) : PyList_GET_ITEM(seq, i);
      if (!leaf(item)) {
        Py_INCREF(item);
        owned hold(item);
        composite(item, inner, defaults);
      }
    }
    if (indent_) { newline(depth); }
    out_.append(']');
  }

  /** A member's key, after a comma unless first: a cached key inline (see cached_key), others
   *  in key_and_colon. */
  [[gnu::always_inline]] inline void member_key(PyObject *key, bool first, int inner) {
    if (indent_) {
      indented_key(key, first, inner);
      return;
    }
    out_.reserve(1 + 32); // the comma, and a cached key; string() reserves for a key it writes
    if (!first) { out_.put(','); }
    if (PyUnicode_IS_COMPACT_ASCII(key)) {
      const Py_hash_t hash = reinterpret_cast<PyASCIIObject *>(key)->hash;
      const cached_key &e = key_cache_entry(hash);
      const size_t n = size_t(PyUnicode_GET_LENGTH(key));
      if (e.hash == hash && e.size == n + 3 &&
          (e.key == key || same_short_bytes(e.text + 1, static_cast<const char *>(PyUnicode_DATA(key)), n))) {
        std::memcpy(out_.tail(), e.text, 32);
        out_.advance(e.size);
        return;
      }
    }
    key_and_colon(key);
  }

  /** `"key":`, kept in the cache where the key may be (compact ASCII, a hash, no escape). */
  [[gnu::noinline]] void key_and_colon(PyObject *key) {
    const size_t mark = out_.size();
    string(key);
    out_.append(':');
    if (!PyUnicode_IS_COMPACT_ASCII(key)) { return; }
    const Py_hash_t hash = reinterpret_cast<PyASCIIObject *>(key)->hash;
    const size_t n = size_t(PyUnicode_GET_LENGTH(key));
    if (hash != -1 && n + 3 <= 32 && out_.size() - mark == n + 3) {
      cached_key &e = key_cache_entry(hash);
      e.key = key;
      e.hash = hash;
      e.size = uint32_t(n + 3);
      std::memcpy(e.text, out_.data() + mark, n + 3);
    }
  }

  [[gnu::noinline]] void indented_key(PyObject *key, bool first, int inner) {
    if (!first) { out_.append(','); }
    newline(inner);
    string(key);
    out_.append(": ", 2);
  }

  /**
   * A member of a dict (its key a str, written before anything can run Python code: it is not
   * held), after a comma unless first. True where Python code ran for the value (a default),
   * which may have changed the dict.
   */
  [[gnu::always_inline]] inline bool str_member(PyObject *k, PyObject *v, bool &first, int inner, int defaults) {
    member_key(k, first, inner);
    first = false;
    if (leaf(v)) { return false; }
    Py_INCREF(v);
    owned hold_item(v);
    composite(v, inner, defaults);
    return true;
  }

#if SIMDBRIDGE_DICT_ENTRIES
  /**
   * dict()'s members, of a combined dict other than a str-keyed one (a table for keys of any
   * type: combined_items), read from its entries as dict() reads those of a str-keyed table.
   * -1 where read to its end; else where PyDict_Next goes on (the dict is of another kind, or
   * became one for a default), the members before it written. Out of line, and its state not
   * shared with dict(): inline, or with dict()'s position passed by reference (which keeps it
   * in memory), it made dict() slower on str-keyed tables.
   */
  [[gnu::noinline]] Py_ssize_t other_entries(PyObject *d, int inner, int defaults) {
    dict_items items = combined_items(d);
    Py_ssize_t pos = 0;
    bool first = true;
    if (!items) { return pos; }
    for (PyObject **entry = items.first; pos < PyDict_GET_SIZE(d); entry += items.stride) {
      PyObject *key = entry[0];
      pos++;
      if (Py_TYPE(key) != &PyUnicode_Type) { fail("Dict key must be str"); }
      if (str_member(key, entry[1], first, inner, defaults)) {
        if (!(items = combined_items(d))) { return pos; }
        entry = items.at(pos) - items.stride;
      }
    }
    return -1;
  }
#endif

  void dict(PyObject *d, int depth, int defaults) {
    if (PyDict_GET_SIZE(d) == 0) {
      out_.append("{}", 2);
      return;
    }
    const int inner = enter(depth);
    out_.append('{');
    if (!(opts_ & (opt_sort_keys | opt_non_str_keys))) {
      Py_ssize_t pos = 0;
      PyObject *key, *item;
      bool first = true;
      const auto member = [&](PyObject *k, PyObject *v) __attribute__((always_inline)) {
        return str_member(k, v, first, inner, defaults);
      };
      bool read_whole = false;
#if SIMDBRIDGE_DICT_ENTRIES
      // A combined dict with no deleted entry, read from its entries (PyDict_Next is a call and
      // a check per item). Python code run for a value (a default) may change the dict: its
      // entries are found again after each value that is not a leaf, and where the dict is no
      // longer of that kind, PyDict_Next goes on from the same position, as it would have.
      // Read to its end, it needs no PyDict_Next (a call that only finds the end).
      if (const dict_entry *e = unicode_entries(d)) {
        while (pos < PyDict_GET_SIZE(d)) {
          key = e[pos].key;
          item = e[pos].value;
          pos++;
          if (member(key, item) && (e = unicode_entries(d)) == nullptr) { break; }
        }
        read_whole = e != nullptr;
      } else {
        pos = other_entries(d, inner, defaults);
        read_whole = pos < 0;
        first = pos == 0;
      }
#endif
      while (!read_whole && PyDict_Next(d, &pos, &key, &item)) {
        if (Py_TYPE(key) != &PyUnicode_Type) { fail("Dict key must be str"); }
        member(key, item);
      }
    } else {
      // Keys as strs (converted where OPT_NON_STR_KEYS allows), sorted by their UTF-8 where
      // OPT_SORT_KEYS asks (code point order: UTF-8 keeps it).
      owned_pairs members; // the key's str, the value
      members.reserve(size_t(PyDict_GET_SIZE(d)));
      Py_ssize_t pos = 0;
      PyObject *key, *item;
      while (PyDict_Next(d, &pos, &key, &item)) {
        Py_INCREF(item); // held first: an enum key's value runs Python code, which may change d
        owned hold_item(item);
        Py_INCREF(key);
        owned hold_key(key);
        PyObject *k = key_text(key);
        if (k == nullptr) { throw failed{}; } // no memory for the key's str
        Py_INCREF(item);
        members.emplace_back(k, item);
        // Each key's UTF-8 (cached in its str) or its surrogate error, key by key as orjson
        // reads them, before any value is written.
        if (PyUnicode_AsUTF8AndSize(k, nullptr) == nullptr) {
          PyErr_Clear();
          fail("str is not valid UTF-8: surrogates not allowed");
        }
      }
      if (opts_ & opt_sort_keys) {
        std::stable_sort(members.begin(), members.end(), [](const auto &a, const auto &b) {
          Py_ssize_t na, nb;
          const char *sa = PyUnicode_AsUTF8AndSize(a.first, &na);
          const char *sb = PyUnicode_AsUTF8AndSize(b.first, &nb);
          const int c = std::memcmp(sa, sb, size_t(std::min(na, nb)));
          return c < 0 || (c == 0 && na < nb);
        });
      }
      members_of(members, inner, defaults);
    }
    if (indent_) { newline(depth); }
    out_.append('}');
  }

  /** An object's members (keys as strs), after its '{' and before its '}'. */
  void members_of(const owned_pairs &members, int inner, int defaults) {
    bool first = true;
    for (const auto &kv : members) {
      member_key(kv.first, first, inner);
      value(kv.second, inner, defaults);
      first = false;
    }
  }

  /** A dict key as a str (a new reference, or null with an exception set): a str, or what
   *  OPT_NON_STR_KEYS turns into one. */
  PyObject *key_text(PyObject *key) {
    if (Py_TYPE(key) == &PyUnicode_Type) {
      Py_INCREF(key);
      return key;
    }
    if (!(opts_ & opt_non_str_keys)) { fail("Dict key must be str"); }
    if (PyUnicode_Check(key)) { return PyUnicode_FromObject(key); } // a subclass: its characters
    if (key == Py_None || PyBool_Check(key)) {
      return PyUnicode_FromString(key == Py_None ? "null" : key == Py_True ? "true" : "false");
    }
    if (reinterpret_cast<PyObject *>(Py_TYPE(Py_TYPE(key))) == names.enum_meta) {
      owned v(PyObject_GetAttr(key, names.value));
      if (v.p == nullptr) { throw failed{}; }
      return key_text(v.p);
    }
    // The rest as their values' text (OPT_STRICT_INTEGER aside), written past the end of the
    // output, made a str, and taken off again.
    const size_t mark = out_.size();
    if (PyLong_Check(key)) {
      if (!put_integer(key, false)) { fail("Dict integer key must be within 64-bit range"); }
    } else if (PyFloat_CheckExact(key)) { // a float subclass is refused, as orjson (an int subclass is not)
      floating(PyFloat_AS_DOUBLE(key));
    } else if (PyDateTime_CheckExact(key)) {
      datetime(key);
    } else if (PyDate_CheckExact(key)) {
      date(key);
    } else if (PyTime_CheckExact(key)) {
      time(key);
    } else if (reinterpret_cast<PyObject *>(Py_TYPE(key)) == names.uuid_type) {
      uuid(key);
    } else {
      fail("Dict key must a type serializable with OPT_NON_STR_KEYS"); // sic: orjson's words
    }
    PyObject *text = PyUnicode_FromStringAndSize(out_.data() + mark, Py_ssize_t(out_.size() - mark));
    out_.resize(mark);
    return text;
  }

  /** A dataclass instance as an object: its __dict__'s public members, or its public fields
   *  in order where its class declares __slots__ (its __dict__, if a base class gives it one,
   *  does not hold them) or it has no __dict__. OPT_SORT_KEYS does not apply (as orjson). */
  void dataclass(PyObject *obj, int depth, int defaults) {
    PyObject **dict_ptr = _PyObject_GetDictPtr(obj);
    PyObject *instance_dict = dict_ptr != nullptr ? *dict_ptr : nullptr;
    if (instance_dict != nullptr && PyDict_GetItemWithError(Py_TYPE(obj)->tp_dict, names.slots) != nullptr) {
      instance_dict = nullptr;
    } else if (PyErr_Occurred()) {
      throw failed{};
    }
    owned_pairs members; // the name, the value
    const auto is_public = [](PyObject *name) {
      return PyUnicode_Check(name) && !(PyUnicode_GET_LENGTH(name) > 0 && PyUnicode_READ_CHAR(name, 0) == '_');
    };
    if (instance_dict != nullptr) {
      Py_ssize_t pos = 0;
      PyObject *name, *item;
      while (PyDict_Next(instance_dict, &pos, &name, &item)) {
        if (!is_public(name)) { continue; }
        Py_INCREF(name);
        Py_INCREF(item);
        members.emplace_back(name, item);
      }
    } else {
      owned fields(PyObject_GetAttr(reinterpret_cast<PyObject *>(Py_TYPE(obj)), names.dataclass_fields));
      if (fields.p == nullptr || !PyDict_Check(fields.p)) {
        if (fields.p == nullptr) { throw failed{}; }
        fail("__dataclass_fields__ is not a dict");
      }
      Py_ssize_t pos = 0;
      PyObject *name, *field;
      while (PyDict_Next(fields.p, &pos, &name, &field)) {
        if (!is_public(name)) { continue; }
        Py_INCREF(name); // held: the attribute lookups below may run Python code
        owned hold_name(name);
        Py_INCREF(field);
        owned hold_field(field);
        owned kind(PyObject_GetAttr(field, names.field_type));
        if (kind.p == nullptr) { throw failed{}; }
        if (kind.p != names.dataclass_field) { continue; } // a ClassVar or an InitVar
        PyObject *item = PyObject_GetAttr(obj, name);
        if (item == nullptr) {
          // A slot never set or deleted: left out, as the __dict__ path leaves it out (orjson
          // 3.13 crashes here).
          if (!PyErr_ExceptionMatches(PyExc_AttributeError)) { throw failed{}; }
          PyErr_Clear();
          continue;
        }
        Py_INCREF(name);
        members.emplace_back(name, item);
      }
    }
    if (members.empty()) {
      out_.append("{}", 2);
      return;
    }
    const int inner = enter(depth);
    out_.append('{');
    members_of(members, inner, defaults);
    if (indent_) { newline(depth); }
    out_.append('}');
  }

  void uuid(PyObject *obj) {
    owned hex(PyObject_GetAttr(obj, names.hex));
    if (hex.p == nullptr) { throw failed{}; }
    Py_ssize_t n;
    const char *h = PyUnicode_Check(hex.p) ? PyUnicode_AsUTF8AndSize(hex.p, &n) : nullptr;
    if (h == nullptr || n != 32) {
      PyErr_Clear();
      fail("UUID.hex is not 32 hexadecimal digits");
    }
    put_uuid(out_, h);
  }

  void date(PyObject *obj) {
    put_date(out_, PyDateTime_GET_YEAR(obj), PyDateTime_GET_MONTH(obj), PyDateTime_GET_DAY(obj));
  }

  void time(PyObject *obj) {
    if (PyDateTime_TIME_GET_TZINFO(obj) != Py_None) { fail("datetime.time must not have tzinfo set"); }
    put_time(out_, PyDateTime_TIME_GET_HOUR(obj), PyDateTime_TIME_GET_MINUTE(obj), PyDateTime_TIME_GET_SECOND(obj),
             PyDateTime_TIME_GET_MICROSECOND(obj), !(opts_ & opt_omit_microseconds));
  }

  /**
   * A datetime's UTC offset as orjson asks each time zone library for it: ZoneInfo and any
   * tzinfo with dst() by tzinfo.utcoffset(dt); pendulum's (with convert()) by dt.utcoffset();
   * pytz's (with normalize()) by tzinfo.normalize(dt).utcoffset(), so that a zone attached
   * without localize() gives its standard offset rather than its first (local mean time) one.
   */
  PyObject *utc_offset(PyObject *tz, PyObject *dt) {
    if (reinterpret_cast<PyObject *>(Py_TYPE(tz)) != names.zoneinfo_type) {
      if (PyObject_HasAttr(tz, names.convert)) { return PyObject_CallMethodNoArgs(dt, names.utcoffset); }
      if (PyObject_HasAttr(tz, names.normalize)) {
        owned normalized(PyObject_CallMethodOneArg(tz, names.normalize, dt));
        return normalized.p ? PyObject_CallMethodNoArgs(normalized.p, names.utcoffset) : nullptr;
      }
      if (!PyObject_HasAttr(tz, names.dst)) {
        fail("datetime's timezone library is not supported: use datetime.timezone.utc, pendulum, pytz, or dateutil");
      }
    }
    return PyObject_CallMethodOneArg(tz, names.utcoffset, dt);
  }

  /** RFC 3339: the offset in minutes (rounded to the nearest, as orjson), "Z" for UTC with OPT_UTC_Z. */
  void datetime(PyObject *obj) {
    PyObject *tz = PyDateTime_DATE_GET_TZINFO(obj);
    bool has_offset = false;
    long offset = 0; // seconds east of UTC
    if (tz != Py_None) {
      owned delta(utc_offset(tz, obj));
      if (delta.p == nullptr) { throw failed{}; }
      has_offset = true;
      if (PyDelta_Check(delta.p)) {
        offset = long(PyDateTime_DELTA_GET_DAYS(delta.p)) * 86400 + PyDateTime_DELTA_GET_SECONDS(delta.p);
      }
    } else if (opts_ & opt_naive_utc) {
      has_offset = true;
    }
    put_date(out_, PyDateTime_GET_YEAR(obj), PyDateTime_GET_MONTH(obj), PyDateTime_GET_DAY(obj));
    out_.put('T'); // put_date reserved room for the whole datetime
    put_time(out_, PyDateTime_DATE_GET_HOUR(obj), PyDateTime_DATE_GET_MINUTE(obj), PyDateTime_DATE_GET_SECOND(obj),
             PyDateTime_DATE_GET_MICROSECOND(obj), !(opts_ & opt_omit_microseconds));
    if (has_offset) { put_utc_offset(out_, offset, (opts_ & opt_utc_z) != 0); }
  }

  static constexpr long long max_53 = (1LL << 53) - 1;

  uint32_t opts_;
  PyObject *default_; // borrowed; null: no default
  string_writer strings_;
  bool indent_;
  output out_;
};

} // namespace

/** option= (None or absent: 0), checked as orjson checks it; false with TypeError set. */
static bool options_of(PyObject *option, uint32_t &opts) {
  if (option == nullptr || option == Py_None) { return true; }
  const long v = PyLong_CheckExact(option) ? PyLong_AsLong(option) : -1;
  if (v < 0 || v > all_options) {
    PyErr_Clear();
    PyErr_SetString(PyExc_TypeError, "Invalid opts");
    return false;
  }
  opts = uint32_t(v);
  return true;
}

bool add_dumpb_options(PyObject *module) {
  // orjson's names and values; OPT_SERIALIZE_DATACLASS and OPT_SERIALIZE_UUID are 0 in orjson
  // too (the default behaviour, kept for old callers).
  static const struct {
    const char *name;
    uint32_t value;
  } options[] = {{"OPT_INDENT_2", opt_indent_2}, {"OPT_NAIVE_UTC", opt_naive_utc},
                 {"OPT_NON_STR_KEYS", opt_non_str_keys}, {"OPT_OMIT_MICROSECONDS", opt_omit_microseconds},
                 {"OPT_SERIALIZE_NUMPY", opt_serialize_numpy}, {"OPT_SORT_KEYS", opt_sort_keys},
                 {"OPT_STRICT_INTEGER", opt_strict_integer}, {"OPT_UTC_Z", opt_utc_z},
                 {"OPT_PASSTHROUGH_SUBCLASS", opt_passthrough_subclass},
                 {"OPT_PASSTHROUGH_DATETIME", opt_passthrough_datetime}, {"OPT_APPEND_NEWLINE", opt_append_newline},
                 {"OPT_PASSTHROUGH_DATACLASS", opt_passthrough_dataclass}, {"OPT_SERIALIZE_DATACLASS", 0},
                 {"OPT_SERIALIZE_UUID", 0}};
  for (const auto &o : options) {
    if (PyModule_AddIntConstant(module, o.name, long(o.value)) < 0) { return false; }
  }
  return true;
}

PyObject *dumpb(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  // dumpb(obj, /, default=None, option=None), its arguments read as orjson.dumps reads them,
  // with orjson's messages (which name dumps()): default is the second positional argument
  // where the count of them has bit 1 set, option the third where it has bits 0 and 1 (so
  // orjson, and dumpb, ignore a fourth and later positional argument).
  if (nargs == 0) {
    PyErr_SetString(PyExc_TypeError, "dumps() missing 1 required positional argument: 'obj'");
    return nullptr;
  }
  PyObject *obj = args[0];
  const bool default_given = (nargs & 2) == 2;
  const bool option_given = (nargs & 3) == 3;
  PyObject *default_fn = default_given ? args[1] : nullptr;
  PyObject *option = option_given ? args[2] : nullptr;
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; k++) {
    PyObject *name = PyTuple_GET_ITEM(kwnames, k);
    PyObject *v = args[nargs + k];
    if (PyUnicode_CompareWithASCIIString(name, "option") == 0) {
      if (option_given) {
        PyErr_SetString(PyExc_TypeError, "dumps() got multiple values for argument: 'option'");
        return nullptr;
      }
      option = v;
    } else if (PyUnicode_CompareWithASCIIString(name, "default") == 0) {
      if (default_given) {
        PyErr_SetString(PyExc_TypeError, "dumps() got multiple values for argument: 'default'");
        return nullptr;
      }
      default_fn = v;
    } else {
      PyErr_SetString(PyExc_TypeError, "dumps() got an unexpected keyword argument");
      return nullptr;
    }
  }
  uint32_t opts = 0;
  if (!options_of(option, opts) || !names.load()) { return nullptr; }
  try {
    orjson_writer w(opts, default_fn);
    w.value(obj, 0, 0);
    if (opts & opt_append_newline) { w.text().append('\n'); }
    return w.text().take_bytes();
  } catch (const failed &) {
    return nullptr;
  } catch (const std::bad_alloc &) {
    return PyErr_NoMemory();
  }
}

/**
 * dumpb_many(iterable, /, default=None, option=None): NDJSON, each object of the iterable as
 * dumpb writes it followed by a newline, written into one buffer by one writer: the bytes of
 * b"".join(dumpb(o, default, option) + b"\n" for o in iterable). OPT_INDENT_2 is refused (a
 * document per line); OPT_APPEND_NEWLINE changes nothing.
 */
PyObject *dumpb_many(PyObject *, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {"iterable", "default", "option", nullptr};
  PyObject *iterable, *default_fn = Py_None, *option = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO:dumpb_many", const_cast<char **>(keywords), &iterable,
                                   &default_fn, &option)) {
    return nullptr;
  }
  uint32_t opts = 0;
  if (!options_of(option, opts)) { return nullptr; }
  if (opts & opt_indent_2) {
    PyErr_SetString(PyExc_ValueError, "dumpb_many() writes a document per line: OPT_INDENT_2 does not apply");
    return nullptr;
  }
  if (!names.load()) { return nullptr; }
  owned it(PyObject_GetIter(iterable));
  if (it.p == nullptr) { return nullptr; }
  try {
    orjson_writer w(opts, default_fn == Py_None ? nullptr : default_fn);
    while (true) {
      owned item(PyIter_Next(it.p));
      if (item.p == nullptr) { break; }
      w.value(item.p, 0, 0);
      w.text().append('\n');
    }
    if (PyErr_Occurred()) { return nullptr; } // (the iterator's own error)
    return w.text().take_bytes();
  } catch (const failed &) {
    return nullptr;
  } catch (const std::bad_alloc &) {
    return PyErr_NoMemory();
  }
}

} // namespace simdbridge::python
