// SPDX-License-Identifier: Apache-2.0
// Lazy read-only views of a parsed document: Object (a Mapping) and Array (a Sequence). A view
// holds its Document, which owns the tape, so it stays valid while other documents are parsed
// and for as long as it is referenced. Values are made when they are asked for; containers
// come back as views. An object's member lookup scans its members (as simdjson's at_key does),
// until an object of more than 16 members has been asked for a fifth key: then a hash index
// serves the rest; an array's element access walks, or uses an index of element
// positions made at the first access by position.
#include <cstring>
#include <string>
#include <vector>

#include "common.h"
#include "cpython_internals.h"

#include <structmember.h> // PyMemberDef: where MappingView keeps _mapping

namespace simdbridge::python {

namespace {

struct document_object {
  PyObject_HEAD
  simdbridge::document doc;
  bool released; // release() freed the tape: every view of it raises ValueError
};

/**
 * A key's hash from its length and its first and last eight bytes (keys of one object often
 * share a prefix, "profile_background_..."): a few instructions where std::hash reads every
 * byte. Reads only the key's own bytes.
 */
inline uint64_t key_hash(std::string_view key) noexcept {
  const size_t n = key.size();
  uint64_t first = 0, last = 0;
  if (n >= 8) {
    std::memcpy(&first, key.data(), 8);
    std::memcpy(&last, key.data() + n - 8, 8);
  } else {
    for (size_t i = 0; i < n; i++) { first |= uint64_t(uint8_t(key[i])) << (8 * i); }
  }
  // A multiplication carries each bit only upwards; the 128-bit product's two halves folded
  // together let every byte reach the low bits the tables mask (ids that differ only in their
  // last character differ in last's top byte).
  const __uint128_t product = __uint128_t(first ^ 0x9E3779B97F4A7C15ULL) * ((last ^ n) ^ 0xC2B2AE3D27D4EB4FULL);
  return uint64_t(product) ^ uint64_t(product >> 64);
}

/**
 * A large object's members, each key once (where it first appears, with its last value, as
 * json's dict), and an open-addressing table over them: two allocations per object, where a
 * node-based map made one per key.
 */
struct member_index {
  std::vector<std::pair<std::string_view, size_t>> members; // key, value's tape index
  std::vector<uint32_t> slots;                              // position in members + 1; 0 empty

  static size_t hash(std::string_view key) noexcept { return key_hash(key); }

  /** The slot holding key, or the empty slot where it would go. */
  uint32_t &slot(std::string_view key) noexcept {
    const size_t mask = slots.size() - 1;
    for (size_t h = hash(key) & mask;; h = (h + 1) & mask) {
      uint32_t &s = slots[h];
      if (s == 0 || members[s - 1].first == key) { return s; }
    }
  }

  /** The position in members of key, or SIZE_MAX. */
  size_t find(std::string_view key) noexcept {
    const uint32_t s = slot(key);
    return s == 0 ? SIZE_MAX : s - 1;
  }
};

struct object_view {
  PyObject_HEAD
  PyObject *owner; // the Document
  tape_view tape;
  size_t index;
  member_index *members; // made when first needed
  uint32_t lookups;      // lookups by key so far, while there is no index
  int8_t distinct_keys;  // every key appears once: 1; one repeats, or not looked at (large): 0; not known yet: -1
};

struct array_view {
  PyObject_HEAD
  PyObject *owner;
  tape_view tape;
  size_t index;
  std::vector<size_t> *elements; // tape positions, made at the first access by position
};

struct view_iterator {
  PyObject_HEAD
  PyObject *view;  // the Object or Array iterated
  size_t position; // Object: the next member (or its key's tape index, on_tape); Array: the next tape index
  int what;        // 0 keys, 1 values, 2 items (Object); 0 elements (Array)
  bool on_tape;    // Object: walks the tape itself, without the member index
  PyObject *pair;  // items: the last (key, value) returned, reused where nothing else holds it
};

PyTypeObject DocumentType = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyTypeObject ObjectType = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyTypeObject ArrayType = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyTypeObject ObjectIteratorType = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyTypeObject ArrayIteratorType = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyObject *keys_view_type = nullptr;   // a collections.abc.KeysView with a native __iter__
PyObject *items_view_type = nullptr;  // a collections.abc.ItemsView with a native __iter__
PyObject *values_view_type = nullptr; // a collections.abc.ValuesView with a native __iter__

/**
 * Objects of one kind freed and kept for the next to be made, up to N: take() gives one back alive
 * (its reference count 1), or null where there is none; keep() is false where the list is full
 * (the caller frees the object). Touched with the GIL held only.
 */
template <typename T, int N> struct free_list {
  T *items[N];
  int count = 0;

  T *take() {
    if (count == 0) { return nullptr; }
    T *object = items[--count];
    revive(reinterpret_cast<PyObject *>(object));
    return object;
  }
  bool keep(T *object) {
    if (count == N) { return false; }
    items[count++] = object;
    return true;
  }
};

/** False, with ValueError set, where the view's document was released (Object and Array share
 *  their first fields' layout). */
bool alive(PyObject *view) {
  auto *d = reinterpret_cast<document_object *>(reinterpret_cast<object_view *>(view)->owner);
  if (!d->released) { return true; }
  PyErr_SetString(PyExc_ValueError, "the document of this view was released");
  return false;
}

// ------------------------------------------------------------------------------------------

/** Documents whose views are all gone, kept for the next parse (their buffers are reused:
 *  no allocation, no page faults). Touched with the GIL held only. */
std::vector<simdbridge::document> spare_documents;
constexpr size_t max_spare_documents = 2;
constexpr size_t max_spare_capacity = size_t(64) << 20; // a bigger one goes back to the system

void document_dealloc(PyObject *self) {
  simdbridge::document &doc = reinterpret_cast<document_object *>(self)->doc;
  const size_t capacity = doc.capacity();
  if (spare_documents.size() < max_spare_documents && capacity > 0 && capacity <= max_spare_capacity) {
    try {
      spare_documents.push_back(std::move(doc));
    } catch (...) { // out of memory: the document is freed instead
    }
  }
  doc.~document();
  Py_TYPE(self)->tp_free(self);
}

member_index &members_of(object_view *v) {
  if (v->members == nullptr) {
    auto *m = new member_index();
    const tape_view &t = v->tape;
    size_t count = 0;
    for (size_t j = v->index + 1; t.kind(j) != tape_kind::object_end; j = t.next(j + 1)) { count++; }
    size_t capacity = 16;
    while (capacity < 2 * count) { capacity *= 2; }
    m->members.reserve(count);
    m->slots.assign(capacity, 0);
    for (size_t j = v->index + 1; t.kind(j) != tape_kind::object_end; j = t.next(j + 1)) {
      const std::string_view key = t.string(j);
      uint32_t &s = m->slot(key);
      if (s == 0) {
        m->members.emplace_back(key, j + 1);
        s = uint32_t(m->members.size());
      } else {
        m->members[s - 1].second = j + 1; // a later duplicate: its value wins
      }
    }
    v->members = m;
  }
  return *v->members;
}

/** Objects of up to this many members are searched on the tape, never indexed. */
constexpr uint32_t small_object = 16;

/** Objects of up to this many members are checked for repeated keys (see keys_distinct). */
constexpr uint32_t checked_object = 512;

/**
 * Whether every key of the object appears once, found once (each key against those before it
 * up to small_object members, through an open-addressing table on the stack up to
 * checked_object), then remembered. Then its members are its tape's, in
 * order: iteration walks the tape, a lookup stops at the first match. JSON from programs has
 * no repeated keys; an object that has one (or is larger than checked_object) is read
 * through its member_index, which takes each key once, as json's dict does.
 */
/** keys_distinct for up to small_object members: each key against those before it, no table,
 *  by a word of its length and its first and last bytes, then by its bytes where those agree. */
bool small_keys_distinct(const tape_view &t, size_t index) {
  uint64_t marks[small_object];
  const char *bytes[small_object];
  uint32_t seen = 0;
  for (size_t j = index + 1; t.kind(j) != tape_kind::object_end; j = t.next(j + 1)) {
    const std::string_view key = t.string(j);
    const uint64_t mark = key.empty() ? 0
                                      : key.size() | uint64_t(uint8_t(key.front())) << 32 |
                                            uint64_t(uint8_t(key.back())) << 40;
    for (uint32_t q = 0; q < seen; q++) {
      if (marks[q] == mark && std::memcmp(bytes[q], key.data(), key.size()) == 0) { return false; }
    }
    marks[seen] = mark;
    bytes[seen] = key.data();
    seen++;
  }
  return true;
}

/** keys_distinct for more than small_object members, up to checked_object: through an
 *  open-addressing table on the stack (kept out of the small objects' path, for its frame). */
[[gnu::noinline]] bool large_keys_distinct(const tape_view &t, size_t index, uint32_t n) {
  uint32_t table[4 * checked_object]; // tape offsets from the object's start (+1 from it); 0 empty
  size_t capacity = 16;
  while (capacity < 4 * size_t(n)) { capacity *= 2; } // at most a quarter full: short probes
  std::memset(table, 0, capacity * sizeof(uint32_t));
  const size_t mask = capacity - 1;
  for (size_t j = index + 1; t.kind(j) != tape_kind::object_end; j = t.next(j + 1)) {
    const std::string_view key = t.string(j);
    for (size_t h = key_hash(key) & mask;; h = (h + 1) & mask) {
      if (table[h] == 0) {
        table[h] = uint32_t(j - index); // a tape holds fewer than 2^32 words
        break;
      }
      if (t.string(index + table[h]) == key) { return false; }
    }
  }
  return true;
}

bool keys_distinct(object_view *v) {
  if (v->distinct_keys >= 0) { return v->distinct_keys == 1; }
  const uint32_t n = v->tape.count(v->index);
  const bool distinct = n <= small_object   ? small_keys_distinct(v->tape, v->index)
                        : n <= checked_object ? large_keys_distinct(v->tape, v->index, n)
                                              : false;
  v->distinct_keys = distinct ? 1 : 0;
  return distinct;
}

/** The tape index of `key`'s value, or SIZE_MAX. */
size_t object_find(object_view *v, std::string_view key) {
  const tape_view &t = v->tape;
  if (v->members == nullptr && (t.count(v->index) <= small_object || ++v->lookups <= 4)) {
    const bool first_is_last = v->distinct_keys == 1;
    size_t found = SIZE_MAX;
    for (size_t j = v->index + 1; t.kind(j) != tape_kind::object_end; j = t.next(j + 1)) {
      if (t.string(j) == key) {
        found = j + 1;
        if (first_is_last) { break; }
      }
    }
    return found;
  }
  member_index &m = members_of(v);
  const size_t position = m.find(key);
  return position == SIZE_MAX ? SIZE_MAX : m.members[position].second;
}

std::vector<size_t> &elements_of(array_view *v) {
  if (v->elements == nullptr) {
    auto *e = new std::vector<size_t>();
    const tape_view &t = v->tape;
    for (size_t j = v->index + 1; t.kind(j) != tape_kind::array_end; j = t.next(j)) { e->push_back(j); }
    v->elements = e;
  }
  return *v->elements;
}

Py_ssize_t object_length(PyObject *self) {
  if (!alive(self)) { return -1; }
  auto *v = reinterpret_cast<object_view *>(self);
  if (v->members == nullptr && keys_distinct(v)) { return Py_ssize_t(v->tape.count(v->index)); }
  return Py_ssize_t(members_of(v).members.size());
}

PyObject *object_subscript(PyObject *self, PyObject *key) {
  if (!alive(self)) { return nullptr; }
  auto *v = reinterpret_cast<object_view *>(self);
  if (!PyUnicode_Check(key)) {
    PyErr_SetObject(PyExc_KeyError, key);
    return nullptr;
  }
  Py_ssize_t n;
  const char *utf8 = PyUnicode_AsUTF8AndSize(key, &n);
  if (utf8 == nullptr) { // a lone surrogate: no key of a parsed document has one
    PyErr_Clear();
    PyErr_SetObject(PyExc_KeyError, key);
    return nullptr;
  }
  const size_t at = object_find(v, std::string_view(utf8, size_t(n)));
  if (at == SIZE_MAX) {
    PyErr_SetObject(PyExc_KeyError, key);
    return nullptr;
  }
  return make_view(v->owner, v->tape, at);
}

int object_contains(PyObject *self, PyObject *key) {
  if (!alive(self)) { return -1; }
  if (!PyUnicode_Check(key)) { return 0; }
  Py_ssize_t n;
  const char *utf8 = PyUnicode_AsUTF8AndSize(key, &n);
  if (utf8 == nullptr) {
    PyErr_Clear();
    return 0;
  }
  return object_find(reinterpret_cast<object_view *>(self), std::string_view(utf8, size_t(n))) != SIZE_MAX;
}

/** Iterators freed, kept for the next (a walk makes one per container, and drops it at once). */
free_list<view_iterator, 8> free_iterators;

PyObject *new_iterator(PyTypeObject *type, PyObject *view, size_t position, int what) {
  if (!alive(view)) { return nullptr; }
  view_iterator *it = free_iterators.take();
  if (it != nullptr) {
    Py_SET_TYPE(it, type);
  } else if ((it = PyObject_New(view_iterator, type)) == nullptr) {
    return nullptr;
  }
  Py_INCREF(view);
  it->view = view;
  it->position = position;
  it->what = what;
  it->on_tape = false;
  it->pair = nullptr;
  if (type == &ObjectIteratorType) {
    // An object whose keys are distinct is walked on its tape, its members in order; others
    // go through the index, which takes each key once.
    auto *v = reinterpret_cast<object_view *>(view);
    if (v->members == nullptr && keys_distinct(v)) {
      it->on_tape = true;
      it->position = v->index + 1;
    }
  }
  return reinterpret_cast<PyObject *>(it);
}

PyObject *object_iter(PyObject *self) { return new_iterator(&ObjectIteratorType, self, 0, 0); }

PyObject *object_iternext(PyObject *self) {
  if (!alive(reinterpret_cast<view_iterator *>(self)->view)) { return nullptr; }
  auto *it = reinterpret_cast<view_iterator *>(self);
  auto *v = reinterpret_cast<object_view *>(it->view);
  std::string_view key;
  size_t value_index = 0;
  if (it->on_tape) { // distinct keys: the members are the tape's
    const tape_view &t = v->tape;
    const size_t j = it->position;
    if (t.kind(j) == tape_kind::object_end) { return nullptr; }
    key = t.string(j);
    value_index = j + 1;
    it->position = t.next(j + 1);
  } else {
    member_index &m = members_of(v);
    if (it->position >= m.members.size()) { return nullptr; }
    key = m.members[it->position].first;
    value_index = m.members[it->position++].second;
  }
  if (it->what == 0) { return object_key(key); }
  PyObject *value = make_view(v->owner, v->tape, value_index);
  if (it->what == 1 || value == nullptr) { return value; }
  PyObject *k = object_key(key);
  if (k == nullptr) {
    Py_DECREF(value);
    return nullptr;
  }
  // `for k, v in o.items()` unpacks each pair and drops it: where the iterator holds the only
  // reference to the last one, it is filled again, as CPython's dict items iterator does (no
  // tuple made and freed per member, and none counted towards the next garbage collection).
  // Unlike dict's, it needs no tracking again when the collector has untracked it: keys,
  // scalars and views are none of them collectable, so no cycle can pass through the pair.
  PyObject *pair = it->pair;
  if (pair != nullptr && Py_REFCNT(pair) == 1) {
    PyObject *old_key = PyTuple_GET_ITEM(pair, 0), *old_value = PyTuple_GET_ITEM(pair, 1);
    PyTuple_SET_ITEM(pair, 0, k);
    PyTuple_SET_ITEM(pair, 1, value);
    Py_INCREF(pair);
    Py_DECREF(old_key);
    Py_DECREF(old_value);
    return pair;
  }
  pair = PyTuple_New(2);
  if (pair == nullptr) {
    Py_DECREF(k);
    Py_DECREF(value);
    return nullptr;
  }
  PyTuple_SET_ITEM(pair, 0, k);
  PyTuple_SET_ITEM(pair, 1, value);
  Py_XSETREF(it->pair, pair);
  Py_INCREF(pair);
  return pair;
}

PyObject *iterator_self(PyObject *self) {
  Py_INCREF(self);
  return self;
}

void iterator_dealloc(PyObject *self) {
  auto *it = reinterpret_cast<view_iterator *>(self);
  Py_XDECREF(it->view);
  Py_XDECREF(it->pair);
  if (!free_iterators.keep(it)) { PyObject_Free(self); }
}

PyObject *object_get(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if (!alive(self)) { return nullptr; }
  if (nargs < 1 || nargs > 2) {
    PyErr_SetString(PyExc_TypeError, "get expected 1 or 2 arguments");
    return nullptr;
  }
  PyObject *value = object_subscript(self, args[0]);
  if (value == nullptr && PyErr_ExceptionMatches(PyExc_KeyError)) {
    PyErr_Clear();
    PyObject *fallback = nargs == 2 ? args[1] : Py_None;
    Py_INCREF(fallback);
    return fallback;
  }
  return value;
}

/** Where MappingView keeps its mapping: the offset of its `_mapping` slot (from __slots__). */
Py_ssize_t mapping_offset = 0;

PyObject **mapping_slot(PyObject *view) { return reinterpret_cast<PyObject **>(reinterpret_cast<char *>(view) + mapping_offset); }

/** __iter__ of the keys, values and items views: the Object's own iterator over its members, in
 *  place of collections.abc's, which is a generator looking every key up again. */
template <int what> PyObject *view_class_iter(PyObject *, PyObject *view) {
  PyObject *mapping = *mapping_slot(view);
  if (mapping == nullptr) {
    PyErr_SetString(PyExc_AttributeError, "_mapping");
    return nullptr;
  }
  return PyObject_TypeCheck(mapping, &ObjectType) ? new_iterator(&ObjectIteratorType, mapping, 0, what)
                                                  : PyObject_GetIter(mapping);
}

/** The same, as the classes' tp_iter slot: iter(view) calls it directly, where the __iter__ found
 *  in the class's dict would be looked up and bound (slot_tp_iter) on every iteration. */
template <int what> PyObject *view_class_tp_iter(PyObject *view) { return view_class_iter<what>(nullptr, view); }

PyMethodDef keys_iter_def = {"__iter__", view_class_iter<0>, METH_O, nullptr};
PyMethodDef values_iter_def = {"__iter__", view_class_iter<1>, METH_O, nullptr};
PyMethodDef items_iter_def = {"__iter__", view_class_iter<2>, METH_O, nullptr};

/** Views made by keys(), items() and values() and since freed, kept for the next such call:
 *  one is made per `for k, v in o.items()`. Only the three classes' own instances are kept. */
free_list<PyObject, 8> free_views[3];

/** The free list of the views of `type`, or null for any other class. */
free_list<PyObject, 8> *free_views_of(PyTypeObject *type) {
  const auto *t = reinterpret_cast<PyObject *>(type);
  return t == keys_view_type ? &free_views[0] : t == values_view_type ? &free_views[1]
                                              : t == items_view_type  ? &free_views[2]
                                                                      : nullptr;
}

/**
 * The views' deallocation: the one slot there is (`_mapping`; every class up to MappingView has
 * __slots__), without subtype_dealloc's general path (finalizers, weak references, a __dict__,
 * the trashcan), which none of them has. A view made in Python (ObjectItems(mapping)) is tracked
 * by the collector; one parse() made is not. A Python subclass's own deallocation comes here
 * last, and this one releases the reference to the (heap) type, as subtype_dealloc leaves it to.
 * The three classes' own instances go to free_views, the rest back to the allocator.
 */
void mapping_view_dealloc(PyObject *self) {
  PyTypeObject *type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  Py_CLEAR(*mapping_slot(self));
  free_list<PyObject, 8> *kept = free_views_of(type);
  if (kept == nullptr || !kept->keep(self)) { type->tp_free(self); }
  Py_DECREF(type);
}

/** class `name`(base): collections.abc's view with the iterator above, `tp_iter` in its slot. */
PyObject *view_class(PyObject *abc, const char *base_name, const char *name, PyMethodDef *iter_def,
                     getiterfunc tp_iter) {
  owned base(PyObject_GetAttrString(abc, base_name));
  owned function(PyCFunction_New(iter_def, nullptr));
  owned method(function.p ? PyInstanceMethod_New(function.p) : nullptr);
  owned slots(PyTuple_New(0));
  if (base.p == nullptr || method.p == nullptr || slots.p == nullptr) { return nullptr; }
  owned dict(Py_BuildValue("{sOsOss}", "__iter__", method.p, "__slots__", slots.p, "__module__", "simdbridge"));
  if (dict.p == nullptr) { return nullptr; }
  PyObject *type = PyObject_CallFunction(reinterpret_cast<PyObject *>(&PyType_Type), "s(O)O", name, base.p, dict.p);
  if (type == nullptr) { return nullptr; }
  auto *t = reinterpret_cast<PyTypeObject *>(type);
  // mapping_view_dealloc and new_mapping_view rely on the layout: `_mapping` the one field.
  if (t->tp_dictoffset != 0 || t->tp_weaklistoffset != 0 ||
      t->tp_basicsize != mapping_offset + Py_ssize_t(sizeof(PyObject *))) {
    Py_DECREF(type);
    PyErr_Format(PyExc_ImportError, "collections.abc.%s is not laid out as simdbridge expects", base_name);
    return nullptr;
  }
  t->tp_iter = tp_iter;
  t->tp_dealloc = mapping_view_dealloc;
  return type;
}

/** type(self): the view made as MappingView.__init__ makes it (its _mapping slot set), without
 *  a Python call. */
PyObject *new_mapping_view(PyObject *type, PyObject *self) {
  // It holds an Object, which holds no Python object but its Document, and has no __dict__: it
  // cannot be part of a cycle, so it is made untracked by the collector (PyObject_GC_New, where
  // tp_alloc would zero it and track it), and never walked at a collection. Its one slot is set
  // here; the reference to its heap type is taken by PyObject_GC_New.
  auto *t = reinterpret_cast<PyTypeObject *>(type);
  free_list<PyObject, 8> *kept = free_views_of(t);
  PyObject *view = kept != nullptr ? kept->take() : nullptr;
  if (view != nullptr) {
    Py_INCREF(type);
  } else if ((view = reinterpret_cast<PyObject *>(_PyObject_GC_New(t))) == nullptr) {
    return nullptr;
  }
  *mapping_slot(view) = Py_NewRef(self);
  return view;
}

PyObject *object_keys(PyObject *self, PyObject *) { return new_mapping_view(keys_view_type, self); }
PyObject *object_items(PyObject *self, PyObject *) { return new_mapping_view(items_view_type, self); }
PyObject *object_values(PyObject *self, PyObject *) { return new_mapping_view(values_view_type, self); }

PyObject *view_materialize(PyObject *self, PyObject *) {
  if (!alive(self)) { return nullptr; }
  // Object and Array share their first fields' layout.
  auto *v = reinterpret_cast<object_view *>(self);
  return build_value(v->tape, v->index);
}

PyObject *view_at_pointer(PyObject *self, PyObject *arg) {
  if (!alive(self)) { return nullptr; }
  auto *v = reinterpret_cast<object_view *>(self);
  Py_ssize_t n;
  const char *pointer = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, &n) : nullptr;
  if (pointer == nullptr) {
    if (!PyErr_Occurred()) { PyErr_SetString(PyExc_TypeError, "at_pointer takes a str"); }
    return nullptr;
  }
  std::vector<std::string> tokens;
  if (!parse_json_pointer(std::string_view(pointer, size_t(n)), tokens)) {
    return raise_bad_pointer(std::string_view(pointer, size_t(n)));
  }
  const size_t at = find_pointer(v->tape, v->index, tokens);
  if (at == SIZE_MAX) {
    PyErr_SetObject(PyExc_KeyError, arg);
    return nullptr;
  }
  return make_view(v->owner, v->tape, at);
}

PyObject *view_richcompare(PyObject *self, PyObject *other, int op) {
  if (op != Py_EQ && op != Py_NE) { Py_RETURN_NOTIMPLEMENTED; }
  const bool object = Py_TYPE(self) == &ObjectType;
  PyObject *mine = view_materialize(self, nullptr);
  if (mine == nullptr) { return nullptr; }
  PyObject *theirs = nullptr;
  if (Py_TYPE(other) == Py_TYPE(self)) {
    theirs = view_materialize(other, nullptr);
  } else if (object ? PyDict_Check(other) : (PyList_Check(other))) {
    Py_INCREF(other);
    theirs = other;
  } else if (!object && PyTuple_Check(other)) {
    theirs = PySequence_List(other);
  } else {
    Py_DECREF(mine);
    Py_RETURN_NOTIMPLEMENTED;
  }
  if (theirs == nullptr) {
    Py_DECREF(mine);
    return nullptr;
  }
  PyObject *r = PyObject_RichCompare(mine, theirs, op);
  Py_DECREF(mine);
  Py_DECREF(theirs);
  return r;
}

PyObject *object_repr(PyObject *self) {
  if (!alive(self)) {
    PyErr_Clear();
    return PyUnicode_FromString("<simdbridge.Object, released>");
  }
  return PyUnicode_FromFormat("<simdbridge.Object of %zd keys>", object_length(self));
}

void object_dealloc(PyObject *self) {
  auto *v = reinterpret_cast<object_view *>(self);
  delete v->members;
  Py_XDECREF(v->owner);
  PyObject_Free(self);
}

// ------------------------------------------------------------------------------------------

Py_ssize_t array_length(PyObject *self) {
  if (!alive(self)) { return -1; }
  auto *v = reinterpret_cast<array_view *>(self);
  const uint32_t n = v->tape.count(v->index);
  return n < tape_view::count_saturated ? Py_ssize_t(n) : Py_ssize_t(elements_of(v).size());
}

PyObject *array_item(PyObject *self, Py_ssize_t i) {
  if (!alive(self)) { return nullptr; }
  auto *v = reinterpret_cast<array_view *>(self);
  const Py_ssize_t n = array_length(self);
  if (i < 0 || i >= n) {
    PyErr_SetString(PyExc_IndexError, "Array index out of range");
    return nullptr;
  }
  size_t at;
  if (v->elements == nullptr && i == 0) {
    at = v->index + 1;
  } else {
    at = elements_of(v)[size_t(i)];
  }
  return make_view(v->owner, v->tape, at);
}

PyObject *array_subscript(PyObject *self, PyObject *key) {
  if (!alive(self)) { return nullptr; }
  if (PyIndex_Check(key)) {
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) { return nullptr; }
    if (i < 0) { i += array_length(self); }
    return array_item(self, i);
  }
  if (PySlice_Check(key)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) { return nullptr; }
    const Py_ssize_t n = PySlice_AdjustIndices(array_length(self), &start, &stop, step);
    PyObject *list = PyList_New(n);
    if (list == nullptr) { return nullptr; }
    for (Py_ssize_t k = 0, i = start; k < n; k++, i += step) {
      PyObject *item = array_item(self, i);
      if (item == nullptr) {
        Py_DECREF(list);
        return nullptr;
      }
      PyList_SET_ITEM(list, k, item);
    }
    return list;
  }
  PyErr_Format(PyExc_TypeError, "Array indices must be integers or slices, not %.200s", Py_TYPE(key)->tp_name);
  return nullptr;
}

PyObject *array_iter(PyObject *self) {
  return new_iterator(&ArrayIteratorType, self, reinterpret_cast<array_view *>(self)->index + 1, 0);
}

PyObject *array_iternext(PyObject *self) {
  if (!alive(reinterpret_cast<view_iterator *>(self)->view)) { return nullptr; }
  auto *it = reinterpret_cast<view_iterator *>(self);
  auto *v = reinterpret_cast<array_view *>(it->view);
  if (v->tape.kind(it->position) == tape_kind::array_end) { return nullptr; }
  const size_t at = it->position;
  it->position = v->tape.next(at);
  return make_view(v->owner, v->tape, at);
}

int array_contains(PyObject *self, PyObject *value) {
  PyObject *iter = array_iter(self);
  if (iter == nullptr) { return -1; }
  int found = 0;
  while (PyObject *item = array_iternext(iter)) {
    found = PyObject_RichCompareBool(item, value, Py_EQ);
    Py_DECREF(item);
    if (found != 0) { break; }
  }
  Py_DECREF(iter);
  return PyErr_Occurred() ? -1 : found;
}

/** Sequence.index(value, start=0, stop=len): the first position of an equal element. */
PyObject *array_index(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs < 1 || nargs > 3) {
    PyErr_SetString(PyExc_TypeError, "index expected 1 to 3 arguments");
    return nullptr;
  }
  const Py_ssize_t n = array_length(self);
  Py_ssize_t start = 0, stop = n;
  if (nargs > 1 && (start = PyNumber_AsSsize_t(args[1], nullptr)) == -1 && PyErr_Occurred()) { return nullptr; }
  if (nargs > 2 && (stop = PyNumber_AsSsize_t(args[2], nullptr)) == -1 && PyErr_Occurred()) { return nullptr; }
  if (start < 0) { start = start + n < 0 ? 0 : start + n; }
  if (stop < 0) { stop += n; }
  for (Py_ssize_t i = start; i < stop && i < n; i++) {
    PyObject *item = array_item(self, i);
    if (item == nullptr) { return nullptr; }
    const int equal = PyObject_RichCompareBool(item, args[0], Py_EQ);
    Py_DECREF(item);
    if (equal < 0) { return nullptr; }
    if (equal) { return PyLong_FromSsize_t(i); }
  }
  PyErr_SetString(PyExc_ValueError, "value is not in the Array");
  return nullptr;
}

/** Sequence.count(value): how many elements equal value. */
PyObject *array_count(PyObject *self, PyObject *value) {
  PyObject *iter = array_iter(self);
  if (iter == nullptr) { return nullptr; }
  Py_ssize_t count = 0;
  while (PyObject *item = array_iternext(iter)) {
    const int equal = PyObject_RichCompareBool(item, value, Py_EQ);
    Py_DECREF(item);
    if (equal < 0) { break; }
    count += equal;
  }
  Py_DECREF(iter);
  return PyErr_Occurred() ? nullptr : PyLong_FromSsize_t(count);
}

/** reversed(array): the elements from the last. */
PyObject *array_reversed(PyObject *self, PyObject *) {
  PyObject *list = PySequence_List(self);
  if (list == nullptr) { return nullptr; }
  if (PyList_Reverse(list) < 0) {
    Py_DECREF(list);
    return nullptr;
  }
  PyObject *iter = PyObject_GetIter(list);
  Py_DECREF(list);
  return iter;
}

PyObject *array_repr(PyObject *self) {
  if (!alive(self)) {
    PyErr_Clear();
    return PyUnicode_FromString("<simdbridge.Array, released>");
  }
  return PyUnicode_FromFormat("<simdbridge.Array of %zd elements>", array_length(self));
}

void array_dealloc(PyObject *self) {
  auto *v = reinterpret_cast<array_view *>(self);
  delete v->elements;
  Py_XDECREF(v->owner);
  PyObject_Free(self);
}

/** release(): frees the document's tape now, for every view of it, instead of when the last
 *  view goes; those views then raise ValueError. Views of other documents are not touched. */
PyObject *view_release(PyObject *self, PyObject *) {
  auto *d = reinterpret_cast<document_object *>(reinterpret_cast<object_view *>(self)->owner);
  if (!d->released) {
    d->released = true;
    simdbridge::document freed(std::move(d->doc)); // (its buffers go back to the system here)
  }
  Py_RETURN_NONE;
}

PyObject *view_enter(PyObject *self, PyObject *) { return Py_NewRef(self); }

PyObject *view_exit(PyObject *self, PyObject *) { return view_release(self, nullptr) == nullptr ? nullptr : Py_NewRef(Py_False); }

// ------------------------------------------------------------------------------------------

PyMappingMethods object_mapping = {object_length, object_subscript, nullptr};
PySequenceMethods object_sequence = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                     object_contains, nullptr, nullptr};
PyObject *class_name = nullptr; // "__class__", interned

/**
 * Bound methods of views (o.items, a.index): builtin_function_or_method objects of a subtype
 * whose deallocation keeps them on a free list, so that `o.items()` and `hasattr(o, "items")`
 * neither allocate nor count towards the next garbage collection. They behave as the methods
 * object's lookup would bind (name, __self__, repr, equality, calls), and are never tracked by
 * the collector: one holds its view, which holds no Python object but its Document, so no
 * cycle can pass through it.
 */
PyTypeObject ViewMethodType = {PyVarObject_HEAD_INIT(nullptr, 0)};
free_list<PyCFunctionObject, 16> free_methods;

/** The vectorcall of a builtin method by its calling convention (METH_NOARGS, METH_O, ...), as
 *  PyCFunction_NewEx chooses it; null for METH_VARARGS, which tp_call serves. */
constexpr int calling_conventions = METH_VARARGS | METH_FASTCALL | METH_NOARGS | METH_O | METH_KEYWORDS;
vectorcallfunc vectorcalls[calling_conventions + 1];

/** Whether descr (found in a view's type) is a method that bind_method binds as object's lookup
 *  would: not one that takes its defining class (METH_METHOD, a PyCMethodObject), nor one of a
 *  convention without a vectorcall other than METH_VARARGS. */
bool bindable(PyObject *descr) {
  if (descr == nullptr || !Py_IS_TYPE(descr, &PyMethodDescr_Type)) { return false; }
  const int flags = reinterpret_cast<PyMethodDescrObject *>(descr)->d_method->ml_flags;
  return !(flags & METH_METHOD) && (vectorcalls[flags & calling_conventions] != nullptr || (flags & METH_VARARGS));
}

/** A bindable() method descriptor's method bound to self, from the free list. */
PyObject *bind_method(PyObject *descr, PyObject *self) {
  PyMethodDef *def = reinterpret_cast<PyMethodDescrObject *>(descr)->d_method;
  PyCFunctionObject *m = free_methods.take();
  if (m == nullptr) {
    m = PyObject_GC_New(PyCFunctionObject, &ViewMethodType);
    if (m == nullptr) { return nullptr; }
    m->m_module = nullptr;
    m->m_weakreflist = nullptr;
  }
  m->m_ml = def;
  m->m_self = Py_NewRef(self);
  m->vectorcall = vectorcalls[def->ml_flags & calling_conventions];
  return reinterpret_cast<PyObject *>(m);
}

void view_method_dealloc(PyObject *self) {
  auto *m = reinterpret_cast<PyCFunctionObject *>(self);
  if (m->m_weakreflist != nullptr) {
    PyObject_ClearWeakRefs(self);
    m->m_weakreflist = nullptr;
  }
  Py_CLEAR(m->m_self);
  if (!free_methods.keep(m)) { PyObject_GC_Del(self); }
}

/** Each calling convention's vectorcall, read from a builtin function made with it. */
bool init_view_methods() {
  static PyMethodDef probes[] = {
      {"probe", view_enter, METH_NOARGS, nullptr},
      {"probe", view_enter, METH_O, nullptr},
      {"probe", view_enter, METH_FASTCALL, nullptr},
      {"probe", view_enter, METH_FASTCALL | METH_KEYWORDS, nullptr},
      {"probe", view_enter, METH_VARARGS, nullptr},
      {"probe", view_enter, METH_VARARGS | METH_KEYWORDS, nullptr},
  };
  for (PyMethodDef &probe : probes) {
    PyObject *f = PyCFunction_NewEx(&probe, Py_None, nullptr);
    if (f == nullptr) { return false; }
    vectorcalls[probe.ml_flags] = reinterpret_cast<PyCFunctionObject *>(f)->vectorcall;
    Py_DECREF(f);
  }
  ViewMethodType.tp_name = "simdbridge._core.view_method";
  ViewMethodType.tp_basicsize = sizeof(PyCFunctionObject);
  ViewMethodType.tp_base = &PyCFunction_Type;
  ViewMethodType.tp_dealloc = view_method_dealloc;
  ViewMethodType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL;
  ViewMethodType.tp_vectorcall_offset = offsetof(PyCFunctionObject, vectorcall);
  ViewMethodType.tp_traverse = PyCFunction_Type.tp_traverse; // (gc.get_referents; never tracked)
  if (PyType_Ready(&ViewMethodType) < 0) { return false; }
  // PyType_Ready put the type's own __doc__ (None) in its dict, which would hide the method's
  // (builtin_function_or_method's __doc__ descriptor reads it from the method's definition).
  if (PyDict_DelItemString(ViewMethodType.tp_dict, "__doc__") < 0) { return false; }
  PyType_Modified(&ViewMethodType);
  return true;
}

/**
 * Attribute lookup: `__class__` answered at once, methods bound from the free list, the rest as
 * object's lookup does. isinstance() looks `__class__` up on the instance after each class of
 * its tuple that the type does not match (object_isinstance), which would otherwise go through
 * the type's dict to object's descriptor; code walking a document asks isinstance(v, (str, int,
 * ...)) of every view. A tp_getattro of its own costs a type the interpreter's method call
 * without a bound method (LOAD_METHOD), which the free list gives back. A method descriptor
 * found in the type (through its method cache) is what object's lookup would bind: views have
 * no __dict__ to shadow it.
 */
PyObject *object_getattro(PyObject *self, PyObject *name) {
  if (name == class_name) { return Py_NewRef(reinterpret_cast<PyObject *>(Py_TYPE(self))); }
  PyObject *descr = _PyType_Lookup(Py_TYPE(self), name); // borrowed
  return bindable(descr) ? bind_method(descr, self) : PyObject_GenericGetAttr(self, name);
}

PyObject *array_missing = nullptr; // attribute name -> the AttributeError message for an Array
PyObject *last_missing_name = nullptr, *last_missing_message = nullptr; // the last miss, before the dict

/**
 * The same for Array, whose misses (hasattr(a, "items"), asked of every view by code telling
 * mappings from sequences) must stay cheap. With a tp_getattro of its own, a miss reaches
 * hasattr as an AttributeError set and cleared (the generic slot is called without one), so
 * object's message for it is kept per name (up to 64 names, the last one first) rather than
 * formatted each time.
 * PyObject_GetAttr adds the name and the object to the error as for any type.
 */
PyObject *array_getattro(PyObject *self, PyObject *name) {
  if (name == class_name) { return Py_NewRef(reinterpret_cast<PyObject *>(Py_TYPE(self))); }
  PyObject *descr = _PyType_Lookup(Py_TYPE(self), name); // borrowed
  if (descr != nullptr) { return bindable(descr) ? bind_method(descr, self) : PyObject_GenericGetAttr(self, name); }
  // Not in the type, and an Array has no __dict__: a miss.
  if (name == last_missing_name) {
    PyErr_SetObject(PyExc_AttributeError, last_missing_message);
    return nullptr;
  }
  PyObject *message = PyDict_GetItemWithError(array_missing, name); // borrowed
  if (message == nullptr) {
    if (PyErr_Occurred()) { return nullptr; }
    message = PyUnicode_FromFormat("'%.50s' object has no attribute '%U'", Py_TYPE(self)->tp_name, name);
    if (message == nullptr) { return nullptr; }
    if (PyDict_GET_SIZE(array_missing) >= 64) { PyDict_Clear(array_missing); }
    const int stored = PyDict_SetItem(array_missing, name, message);
    Py_DECREF(message); // the dict holds it
    if (stored < 0) { return nullptr; }
  }
  Py_INCREF(name);
  Py_INCREF(message);
  Py_XSETREF(last_missing_name, name);
  Py_XSETREF(last_missing_message, message);
  PyErr_SetObject(PyExc_AttributeError, message);
  return nullptr;
}

PyMethodDef object_methods[] = {
    {"get", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(object_get)), METH_FASTCALL,
     "get(key, default=None): the value of key, or default."},
    {"keys", object_keys, METH_NOARGS, "A set-like view of the keys."},
    {"items", object_items, METH_NOARGS, "A set-like view of the (key, value) pairs."},
    {"values", object_values, METH_NOARGS, "A view of the values."},
    {"as_dict", view_materialize, METH_NOARGS, "The whole object as a dict, as json.loads makes it."},
    {"at_pointer", view_at_pointer, METH_O,
     "at_pointer(pointer): the value at an RFC 6901 JSON Pointer, e.g. '/statuses/0/id'; KeyError if none."},
    {"release", view_release, METH_NOARGS,
     "Frees the document's memory now (for every view of it, which then raises ValueError)."},
    {"__enter__", view_enter, METH_NOARGS, "The view itself."},
    {"__exit__", view_exit, METH_VARARGS, "release()."},
    {nullptr, nullptr, 0, nullptr}};

PyMappingMethods array_mapping = {array_length, array_subscript, nullptr};
PySequenceMethods array_sequence = {array_length, nullptr, nullptr, array_item, nullptr, nullptr, nullptr,
                                    array_contains, nullptr, nullptr};
PyMethodDef array_methods[] = {
    {"as_list", view_materialize, METH_NOARGS, "The whole array as a list, as json.loads makes it."},
    {"index", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(array_index)), METH_FASTCALL,
     "index(value, start=0, stop=len): the first position of value; ValueError if absent."},
    {"count", array_count, METH_O, "count(value): how many elements equal value."},
    {"__reversed__", array_reversed, METH_NOARGS, "The elements, last first."},
    {"at_pointer", view_at_pointer, METH_O,
     "at_pointer(pointer): the value at an RFC 6901 JSON Pointer, e.g. '/0/name'; KeyError if none."},
    {"release", view_release, METH_NOARGS,
     "Frees the document's memory now (for every view of it, which then raises ValueError)."},
    {"__enter__", view_enter, METH_NOARGS, "The view itself."},
    {"__exit__", view_exit, METH_VARARGS, "release()."},
    {nullptr, nullptr, 0, nullptr}};

} // namespace

simdbridge::document take_document() {
  if (spare_documents.empty()) { return simdbridge::document(); }
  simdbridge::document doc = std::move(spare_documents.back());
  spare_documents.pop_back();
  return doc;
}

PyObject *new_document(simdbridge::document &&doc) {
  auto *d = PyObject_New(document_object, &DocumentType);
  if (d == nullptr) { return nullptr; }
  new (&d->doc) simdbridge::document(std::move(doc));
  d->released = false;
  return reinterpret_cast<PyObject *>(d);
}

PyObject *make_view(PyObject *owner, const tape_view &tape, size_t i) {
  const tape_kind kind = tape.kind(i);
  if (kind == tape_kind::object) {
    auto *v = PyObject_New(object_view, &ObjectType);
    if (v == nullptr) { return nullptr; }
    Py_INCREF(owner);
    v->owner = owner;
    v->tape = tape;
    v->index = i;
    v->members = nullptr;
    v->lookups = 0;
    v->distinct_keys = -1;
    return reinterpret_cast<PyObject *>(v);
  }
  if (kind == tape_kind::array) {
    auto *v = PyObject_New(array_view, &ArrayType);
    if (v == nullptr) { return nullptr; }
    Py_INCREF(owner);
    v->owner = owner;
    v->tape = tape;
    v->index = i;
    v->elements = nullptr;
    return reinterpret_cast<PyObject *>(v);
  }
  return build_value(tape, i);
}

bool init_views(PyObject *module) {
  DocumentType.tp_name = "simdbridge._core.Document";
  DocumentType.tp_basicsize = sizeof(document_object);
  DocumentType.tp_dealloc = document_dealloc;
  DocumentType.tp_flags = Py_TPFLAGS_DEFAULT;
  DocumentType.tp_doc = "A parsed document: owns the tape its views read.";

  ObjectType.tp_name = "simdbridge.Object";
  ObjectType.tp_basicsize = sizeof(object_view);
  ObjectType.tp_dealloc = object_dealloc;
  ObjectType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_MAPPING;
  ObjectType.tp_doc = "A lazy, read-only view of a JSON object: a collections.abc.Mapping.";
  ObjectType.tp_as_mapping = &object_mapping;
  ObjectType.tp_as_sequence = &object_sequence;
  ObjectType.tp_iter = object_iter;
  ObjectType.tp_methods = object_methods;
  ObjectType.tp_richcompare = view_richcompare;
  ObjectType.tp_repr = object_repr;
  ObjectType.tp_hash = PyObject_HashNotImplemented;
  ObjectType.tp_getattro = object_getattro;
  ArrayType.tp_getattro = array_getattro;
  array_missing = PyDict_New();
  if (array_missing == nullptr) { return false; }
  class_name = PyUnicode_InternFromString("__class__");
  if (class_name == nullptr || !init_view_methods()) { return false; }

  ArrayType.tp_name = "simdbridge.Array";
  ArrayType.tp_basicsize = sizeof(array_view);
  ArrayType.tp_dealloc = array_dealloc;
  ArrayType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE;
  ArrayType.tp_doc = "A lazy, read-only view of a JSON array: a collections.abc.Sequence.";
  ArrayType.tp_as_mapping = &array_mapping;
  ArrayType.tp_as_sequence = &array_sequence;
  ArrayType.tp_iter = array_iter;
  ArrayType.tp_methods = array_methods;
  ArrayType.tp_richcompare = view_richcompare;
  ArrayType.tp_repr = array_repr;
  ArrayType.tp_hash = PyObject_HashNotImplemented;

  for (PyTypeObject *it : {&ObjectIteratorType, &ArrayIteratorType}) {
    it->tp_basicsize = sizeof(view_iterator);
    it->tp_dealloc = iterator_dealloc;
    it->tp_flags = Py_TPFLAGS_DEFAULT;
    it->tp_iter = iterator_self;
  }
  ObjectIteratorType.tp_name = "simdbridge._core.ObjectIterator";
  ObjectIteratorType.tp_iternext = object_iternext;
  ArrayIteratorType.tp_name = "simdbridge._core.ArrayIterator";
  ArrayIteratorType.tp_iternext = array_iternext;

  for (PyTypeObject *type : {&DocumentType, &ObjectType, &ArrayType, &ObjectIteratorType, &ArrayIteratorType}) {
    if (PyType_Ready(type) < 0) { return false; }
  }
  if (PyModule_AddObjectRef(module, "Object", reinterpret_cast<PyObject *>(&ObjectType)) < 0 ||
      PyModule_AddObjectRef(module, "Array", reinterpret_cast<PyObject *>(&ArrayType)) < 0) {
    return false;
  }
  PyObject *abc = PyImport_ImportModule("collections.abc");
  if (abc == nullptr) { return false; }
  {
    owned mapping_view(PyObject_GetAttrString(abc, "MappingView"));
    owned slot(mapping_view.p ? PyObject_GetAttrString(mapping_view.p, "_mapping") : nullptr);
    if (slot.p == nullptr || !Py_IS_TYPE(slot.p, &PyMemberDescr_Type)) {
      PyErr_SetString(PyExc_ImportError, "collections.abc.MappingView has no _mapping slot");
      Py_DECREF(abc);
      return false;
    }
    mapping_offset = reinterpret_cast<PyMemberDescrObject *>(slot.p)->d_member->offset;
  }
  keys_view_type = view_class(abc, "KeysView", "ObjectKeys", &keys_iter_def, view_class_tp_iter<0>);
  items_view_type = view_class(abc, "ItemsView", "ObjectItems", &items_iter_def, view_class_tp_iter<2>);
  values_view_type = view_class(abc, "ValuesView", "ObjectValues", &values_iter_def, view_class_tp_iter<1>);
  Py_DECREF(abc);
  return keys_view_type && items_view_type && values_view_type;
}

} // namespace simdbridge::python
