// SPDX-License-Identifier: Apache-2.0
// JSON Pointer extraction over NDJSON batches, as the JVM drives it: columns chosen by the
// input's first byte, rows and string room by the next two, then calls that go on from where
// the last stopped. Checked: nothing written past a column's buffers, offsets that only grow,
// progress on every call, and each record's verdict that of the document read alone.
#include <cstring>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "simdbridge/columns.h"
#include "simdbridge/parser.h"

using namespace simdbridge;
using simdbridge::fuzz::outcome;

namespace {

struct spec {
  const char *pointer;
  column_type type;
};

const spec specs[] = {
    {"/a", column_type::int64},        {"/b", column_type::float64},     {"/c", column_type::boolean},
    {"/d", column_type::string},       {"/a/b", column_type::string},    {"/0", column_type::int64},
    {"", column_type::string},         {"/x~1y", column_type::float64},  {"/~0", column_type::boolean},
    {"/a/0/b", column_type::int64},    {"/d", column_type::int64},       {"/é", column_type::string},
    {"/a/", column_type::string},      {"/-", column_type::int64},       {"/b/1", column_type::float64},
    {"bad", column_type::int64},       {"/a~2", column_type::string},    {"/c", column_type::string},
};
constexpr size_t spec_count = sizeof specs / sizeof specs[0];
constexpr size_t guard = 16; // bytes past each buffer that must stay untouched

struct column_buffers {
  std::vector<uint8_t> values, validity, strings;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3) { return 0; }
  const uint8_t selector = data[0];
  const size_t count = 1 + selector % 4;
  const uint64_t max_rows = 1 + data[1] % 9;
  const size_t string_room = data[2] % 48;
  data += 3;
  size -= 3;
  std::vector<column> columns(count);
  std::vector<column_buffers> buffers(count);
  for (size_t c = 0; c < count; c++) {
    const spec &s = specs[(size_t(selector) / 4 + c * 7) % spec_count];
    column_buffers &b = buffers[c];
    const size_t value_bytes = s.type == column_type::string ? 4 * (max_rows + 1) : s.type == column_type::boolean ? max_rows : 8 * max_rows;
    b.values.assign(value_bytes + guard, 0xA5);
    b.validity.assign((max_rows + 7) / 8 + guard, 0xA5);
    b.strings.assign(string_room + guard, 0xA5);
    columns[c] = column{};
    columns[c].pointer = s.pointer;
    columns[c].pointer_length = std::strlen(s.pointer);
    columns[c].type = int32_t(s.type);
    columns[c].values = b.values.data();
    columns[c].validity = b.validity.data();
    if (s.type == column_type::string) {
      columns[c].string_bytes = b.strings.data();
      columns[c].string_capacity = string_room;
    }
  }
  static parser p;
  const fuzz::padded_bytes in(data, size);
  size_t at = 0;
  for (int calls = 0; at < size; calls++) {
    fuzz::expect(calls < int(size) + 2, "extract: no progress");
    extract_status status;
    const input rest = input::padded(in.bytes.data() + at, size - at, in.bytes.size() - at);
    const error e = p.extract(rest, columns.data(), count, max_rows, status);
    fuzz::expect(status.rows <= max_rows, "extract: more rows than asked for");
    fuzz::expect(status.consumed <= size - at, "extract: consumed past the input");
    for (size_t c = 0; c < count; c++) {
      const column_buffers &b = buffers[c];
      for (const std::vector<uint8_t> *v : {&b.values, &b.validity, &b.strings}) {
        for (size_t i = v->size() - guard; i < v->size(); i++) { fuzz::expect((*v)[i] == 0xA5, "extract wrote past a buffer"); }
      }
      fuzz::expect(columns[c].string_size <= columns[c].string_capacity, "extract: string bytes past the capacity");
      if (e.ok() && columns[c].type == int32_t(column_type::string)) {
        int32_t previous = 0;
        for (uint64_t r = 0; r <= status.rows; r++) {
          int32_t offset;
          std::memcpy(&offset, b.values.data() + 4 * r, 4);
          fuzz::expect(offset >= previous && uint64_t(offset) <= columns[c].string_size, "extract: string offsets out of order");
          previous = offset;
        }
      }
    }
    if (!e.ok()) {
      if (e.code == error_code::invalid_pointer || e.code == error_code::output_too_small) { break; }
      // A record's error: the record alone, parsed as one document, has an error too (or is
      // valid but holds what extraction cannot read, or is of another type than its column).
      const uint64_t line_start = at + status.consumed;
      const void *newline = std::memchr(data + line_start, '\n', size - line_start);
      const size_t line_end = newline ? size_t(static_cast<const uint8_t *>(newline) - data) : size;
      const outcome alone = fuzz::slow_checksum(data + line_start, line_end - line_start, p.options());
      if (e.code == error_code::type_mismatch || e.code == error_code::unsupported_value) {
        fuzz::expect(alone.ok, "extract: a type error in a record that is not valid JSON");
      } else {
        outcome shifted = outcome::of(e);
        shifted.offset -= line_start - at;
        if (!shifted.same_verdict(alone)) { fuzz::fail("extract's record error against the record alone", shifted, alone); }
      }
      break;
    }
    if (status.consumed == 0) { break; } // nothing more fits (an empty tail)
    at += status.consumed;
  }
  return 0;
}
