// SPDX-License-Identifier: Apache-2.0
#include "schema.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

#include "simdbridge/simdbridge_c.h"

namespace simdbridge::arrow {

size_t field::width() const noexcept {
  switch (type) {
  case kind::int8: case kind::uint8: return 1;
  case kind::int16: case kind::uint16: return 2;
  case kind::int32: case kind::uint32: case kind::float32: case kind::date32: return 4;
  case kind::int64: case kind::uint64: case kind::float64: case kind::timestamp: return 8;
  case kind::decimal128: return 16;
  default: return 0;
  }
}

namespace {

struct simple_format {
  const char *format;
  kind type;
};
const simple_format simple_formats[] = {
    {"n", kind::null},    {"b", kind::boolean}, {"c", kind::int8},     {"s", kind::int16},
    {"i", kind::int32},   {"l", kind::int64},   {"C", kind::uint8},    {"S", kind::uint16},
    {"I", kind::uint32},  {"L", kind::uint64},  {"f", kind::float32},  {"g", kind::float64},
    {"u", kind::utf8},    {"U", kind::large_utf8}, {"vu", kind::utf8_view}, {"tdD", kind::date32}, {"+s", kind::structure},
    {"+l", kind::list},   {"+L", kind::large_list}, {"+m", kind::map},
};

/** import_schema for a field `level` deep (the record's struct is level 1). */
bool import_at(const ArrowSchema &schema, field &out, std::string &why, uint32_t level) {
  if (schema.release == nullptr || schema.format == nullptr) {
    why = "a released or empty ArrowSchema";
    return false;
  }
  out = field{};
  out.name = schema.name != nullptr ? schema.name : "";
  out.nullable = (schema.flags & ARROW_FLAG_NULLABLE) != 0;
  const std::string_view format = schema.format;
  bool known = false;
  for (const simple_format &f : simple_formats) {
    if (format == f.format) {
      out.type = f.type;
      known = true;
      break;
    }
  }
  if (!known && format.size() >= 4 && format.compare(0, 2, "ts") == 0 && format[3] == ':' &&
      std::strchr("smun", format[2]) != nullptr) {
    out.type = kind::timestamp;
    out.unit = format[2];
    out.timezone = format.substr(4);
    known = true;
  }
  if (!known && format.compare(0, 2, "d:") == 0) { // d:precision,scale[,bitwidth]
    unsigned precision = 0, bits = 128;
    int scale = 0, used = 0;
    const int got = std::sscanf(schema.format, "d:%u,%d%n,%u%n", &precision, &scale, &used, &bits, &used);
    if (got < 2 || size_t(used) != format.size() || bits != 128 || precision < 1 || precision > 38 || scale < 0 ||
        unsigned(scale) > precision) {
      why = "field '" + out.name + "' is '" + std::string(format) +
            "': this reader takes decimal128 with 1 to 38 digits and 0 to that many after the point";
      return false;
    }
    out.type = kind::decimal128;
    out.precision = uint8_t(precision);
    out.scale = uint8_t(scale);
    known = true;
  }
  if (!known) {
    why = "the Arrow type '" + std::string(format) + "' of field '" + out.name + "' is not one this reader takes";
    return false;
  }
  if (schema.dictionary != nullptr) {
    why = "field '" + out.name + "' is dictionary-encoded, which this reader does not take";
    return false;
  }
  const bool nested = out.type == kind::structure || out.type == kind::list || out.type == kind::large_list ||
                      out.type == kind::map;
  // The readers and the writer walk a schema's fields by recursion, as this does: structs, lists
  // and maps nesting past the limit the readers keep for records (a caller's schema, or a cycle
  // of children) are refused. Each level is one, a map's entries struct too.
  if (nested && level > SIMDBRIDGE_DEFAULT_MAX_DEPTH) {
    why = "the schema nests deeper than " + std::to_string(SIMDBRIDGE_DEFAULT_MAX_DEPTH) + " levels (at field '" +
          out.name + "')";
    return false;
  }
  if (!nested && schema.n_children != 0) {
    why = "field '" + out.name + "' of type '" + std::string(format) + "' has children";
    return false;
  }
  if ((out.type == kind::list || out.type == kind::large_list) && schema.n_children != 1) {
    why = "list field '" + out.name + "' must have one child";
    return false;
  }
  if (schema.n_children > 0 && schema.children == nullptr) {
    why = "field '" + out.name + "' has a missing child";
    return false;
  }
  out.children.resize(size_t(std::max<int64_t>(schema.n_children, 0)));
  for (int64_t c = 0; c < schema.n_children; c++) {
    if (schema.children[c] == nullptr) {
      why = "field '" + out.name + "' has a missing child";
      return false;
    }
    if (!import_at(*schema.children[c], out.children[size_t(c)], why, level + 1)) { return false; }
  }
  if (out.type == kind::map &&
      (out.children.size() != 1 || out.children[0].type != kind::structure || out.children[0].children.size() != 2 ||
       (out.children[0].children[0].type != kind::utf8 && out.children[0].children[0].type != kind::large_utf8))) {
    why = "map field '" + out.name + "' must have string keys (a JSON object's): an entries struct of a string key "
          "and a value";
    return false;
  }
  return true;
}

} // namespace

bool import_schema(const ArrowSchema &schema, field &out, std::string &why) { return import_at(schema, out, why, 1); }

namespace {

/** What an exported ArrowSchema owns. */
struct schema_data {
  std::string format;
  std::string name;
  std::vector<ArrowSchema *> children;
};

void release_schema(ArrowSchema *schema) {
  if (schema == nullptr || schema->release == nullptr) { return; }
  auto *data = static_cast<schema_data *>(schema->private_data);
  for (ArrowSchema *child : data->children) {
    if (child->release != nullptr) { child->release(child); }
    delete child;
  }
  delete data;
  schema->release = nullptr;
}

std::string format_of(const field &f) {
  for (const simple_format &s : simple_formats) {
    if (s.type == f.type) { return s.format; }
  }
  if (f.type == kind::decimal128) { return "d:" + std::to_string(f.precision) + "," + std::to_string(f.scale); }
  return std::string("ts") + f.unit + ":" + f.timezone; // timestamp
}

} // namespace

void export_schema(const field &f, ArrowSchema *out) {
  auto data = std::make_unique<schema_data>();
  data->format = format_of(f);
  data->name = f.name;
  for (const field &c : f.children) {
    auto child = std::make_unique<ArrowSchema>();
    export_schema(c, child.get());
    data->children.push_back(child.release());
  }
  out->format = data->format.c_str();
  out->name = data->name.c_str();
  out->metadata = nullptr;
  out->flags = f.nullable ? ARROW_FLAG_NULLABLE : 0;
  out->n_children = int64_t(data->children.size());
  out->children = data->children.empty() ? nullptr : data->children.data();
  out->dictionary = nullptr;
  out->release = release_schema;
  out->private_data = data.release();
}

std::string describe(const field &f) {
  switch (f.type) {
  case kind::null: return "null";
  case kind::boolean: return "bool";
  case kind::int8: return "int8";
  case kind::int16: return "int16";
  case kind::int32: return "int32";
  case kind::int64: return "int64";
  case kind::uint8: return "uint8";
  case kind::uint16: return "uint16";
  case kind::uint32: return "uint32";
  case kind::uint64: return "uint64";
  case kind::float32: return "float";
  case kind::float64: return "double";
  case kind::utf8: return "string";
  case kind::large_utf8: return "large_string";
  case kind::utf8_view: return "string_view";
  case kind::date32: return "date32[day]";
  case kind::decimal128: return "decimal128(" + std::to_string(f.precision) + ", " + std::to_string(f.scale) + ")";
  case kind::timestamp: {
    const char *unit = f.unit == 's' ? "s" : f.unit == 'm' ? "ms" : f.unit == 'u' ? "us" : "ns";
    return std::string("timestamp[") + unit + (f.timezone.empty() ? "" : ", tz=" + f.timezone) + "]";
  }
  case kind::list: return "list<" + (f.children.empty() ? std::string("?") : describe(f.children[0])) + ">";
  case kind::large_list: return "large_list<" + (f.children.empty() ? std::string("?") : describe(f.children[0])) + ">";
  case kind::map:
    if (f.children.size() != 1 || f.children[0].children.size() != 2) { return "map<?>"; }
    return "map<" + describe(f.children[0].children[0]) + ", " + describe(f.children[0].children[1]) + ">";
  case kind::structure: {
    std::string s = "struct<";
    for (size_t i = 0; i < f.children.size(); i++) {
      if (i) { s += ", "; }
      s += f.children[i].name + ": " + describe(f.children[i]);
    }
    return s + ">";
  }
  }
  return "?";
}

} // namespace simdbridge::arrow
