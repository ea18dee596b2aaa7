// SPDX-License-Identifier: Apache-2.0
// The Arrow types this reader and writer know, as a tree of fields: read from an ArrowSchema
// (its format strings), written back into one, described for messages.
#ifndef SIMDBRIDGE_SRC_ARROW_SCHEMA_H
#define SIMDBRIDGE_SRC_ARROW_SCHEMA_H

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "simdbridge/arrow_c_data.h"

namespace simdbridge::arrow {

enum class kind : uint8_t {
  null, boolean, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64,
  utf8, large_utf8, timestamp, date32, structure, list, large_list,
  decimal128, // from a number or a string, as BigDecimal reads it (decimal.h)
  map,        // from an object: one child, "entries", a struct of a utf8 "key" and a "value"
  utf8_view, // written (polars hands strings over as views), not read
};

struct field;

/**
 * A struct's children by name, for inference, which looks up each key of each record among
 * them (a linear search would make one wide object take time growing with the square of its
 * keys): built on first need past 16 children, kept up as children are appended. A cache, not
 * part of the value: a copy starts empty, and it is built again where the children's array has
 * moved.
 */
class child_index {
public:
  child_index() = default;
  child_index(const child_index &) noexcept {}
  child_index &operator=(const child_index &) noexcept {
    clear();
    return *this;
  }
  child_index(child_index &&) noexcept = default;
  child_index &operator=(child_index &&) noexcept = default;

  /** The first child named `name` in `children` (only ever appended to): its index, or children.size(). */
  size_t find(const std::vector<field> &children, std::string_view name);

  /** Forgets the children from `size` on, before they are erased from `children`. */
  void truncate(const std::vector<field> &children, size_t size);

private:
  void clear() noexcept {
    names_.clear();
    base_ = nullptr;
    indexed_ = 0;
  }
  std::unordered_map<std::string_view, size_t> names_; // views of the children's names
  const field *base_ = nullptr;                         // children.data() when they were taken
  size_t indexed_ = 0;
};

struct field {
  std::string name;
  kind type = kind::null;
  bool nullable = true;
  char unit = 'u';         // timestamp: 's', 'm' (milli), 'u' (micro), 'n' (nano)
  std::string timezone;    // timestamp: "" (none), "UTC", "+01:00", ...
  uint8_t precision = 0;   // decimal128: 1 to 38 digits
  uint8_t scale = 0;       // decimal128: 0 to precision digits after the point
  std::vector<field> children; // struct: its fields; list: one, its items
  child_index by_name;         // a struct's children by name (inference's lookups)

  bool is_integer() const noexcept { return type >= kind::int8 && type <= kind::uint64; }
  bool is_signed() const noexcept { return type >= kind::int8 && type <= kind::int64; }
  /** Bytes per value for fixed-width types (bit-packed booleans: 0). */
  size_t width() const noexcept;
};

inline size_t child_index::find(const std::vector<field> &children, std::string_view name) {
  if (children.size() <= 16) {
    for (size_t i = 0; i < children.size(); i++) {
      if (children[i].name == name) { return i; }
    }
    return children.size();
  }
  if (base_ != children.data() || indexed_ > children.size()) { clear(); }
  base_ = children.data();
  for (; indexed_ < children.size(); indexed_++) { names_.emplace(children[indexed_].name, indexed_); }
  const auto found = names_.find(name);
  return found == names_.end() ? children.size() : found->second;
}

inline void child_index::truncate(const std::vector<field> &children, size_t size) {
  if (base_ != children.data()) { return; } // (built again on its next find)
  for (; indexed_ > size; indexed_--) {
    const auto found = names_.find(children[indexed_ - 1].name);
    if (found != names_.end() && found->second == indexed_ - 1) { names_.erase(found); }
  }
}

/** A field of this name and type (nullable, no children yet). */
inline field named(std::string name, kind type = kind::null) {
  field f;
  f.name = std::move(name);
  f.type = type;
  return f;
}

/**
 * The field an ArrowSchema describes; false (with `why`) for a type this reader cannot take, or
 * for structs, lists and maps nesting deeper than SIMDBRIDGE_DEFAULT_MAX_DEPTH (the record's
 * struct is level 1, a map's entries struct a level of its own).
 */
bool import_schema(const ArrowSchema &schema, field &out, std::string &why);

/** Writes `f` into `out` (its release frees what it allocated). */
void export_schema(const field &f, ArrowSchema *out);

/** "int64", "list<utf8>", "struct<a: int64, b: timestamp[us, UTC]>". */
std::string describe(const field &f);

} // namespace simdbridge::arrow

#endif // SIMDBRIDGE_SRC_ARROW_SCHEMA_H
