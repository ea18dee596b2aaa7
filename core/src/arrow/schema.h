// SPDX-License-Identifier: Apache-2.0
// The Arrow types this reader and writer know, as a tree of fields: read from an ArrowSchema
// (its format strings), written back into one, described for messages.
#ifndef SIMDBRIDGE_SRC_ARROW_SCHEMA_H
#define SIMDBRIDGE_SRC_ARROW_SCHEMA_H

#include <cstdint>
#include <string>
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

struct field {
  std::string name;
  kind type = kind::null;
  bool nullable = true;
  char unit = 'u';         // timestamp: 's', 'm' (milli), 'u' (micro), 'n' (nano)
  std::string timezone;    // timestamp: "" (none), "UTC", "+01:00", ...
  uint8_t precision = 0;   // decimal128: 1 to 38 digits
  uint8_t scale = 0;       // decimal128: 0 to precision digits after the point
  std::vector<field> children; // struct: its fields; list: one, its items

  bool is_integer() const noexcept { return type >= kind::int8 && type <= kind::uint64; }
  bool is_signed() const noexcept { return type >= kind::int8 && type <= kind::int64; }
  /** Bytes per value for fixed-width types (bit-packed booleans: 0). */
  size_t width() const noexcept;
};

/** A field of this name and type (nullable, no children yet). */
inline field named(std::string name, kind type = kind::null) {
  field f;
  f.name = std::move(name);
  f.type = type;
  return f;
}

/** The field an ArrowSchema describes; false (with `why`) for a type this reader cannot take. */
bool import_schema(const ArrowSchema &schema, field &out, std::string &why);

/** Writes `f` into `out` (its release frees what it allocated). */
void export_schema(const field &f, ArrowSchema *out);

/** "int64", "list<utf8>", "struct<a: int64, b: timestamp[us, UTC]>". */
std::string describe(const field &f);

} // namespace simdbridge::arrow

#endif // SIMDBRIDGE_SRC_ARROW_SCHEMA_H
