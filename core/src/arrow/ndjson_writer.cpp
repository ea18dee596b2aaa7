// SPDX-License-Identifier: Apache-2.0
// Arrow record batches to NDJSON: each row an object on a line of its own, written value by
// value from the arrays' buffers (no object built), the numbers and strings as dumpb writes them.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "builder.h"
#include "decimal.h"
#include "schema.h"
#include "simdbridge/arrow.h"
#include "simdbridge/writer.h"

namespace simdbridge {

namespace {

using arrow::field;
using arrow::kind;

/** Where one array's values are: its buffers, its offset, its children (same shape as field). */
struct view {
  const field *type = nullptr;
  const ArrowArray *array = nullptr;
  std::vector<view> children;
  std::string key; // ',' and the field's name as a JSON key, quoted and escaped, and its ':'
  char key_head[48] = {}; // the key again, zero-padded, where it fits: copied 32 bytes at once

  /** The validity bitmap, null where every value is valid (no nulls, or none counted). */
  const uint8_t *validity = nullptr;
  bool all_null = false; // a null column

  bool valid(int64_t i) const noexcept {
    if (validity == nullptr) { return !all_null; }
    const int64_t at = array->offset + i;
    return validity[at >> 3] >> (at & 7) & 1;
  }
  template <typename T> T value(int64_t i) const noexcept {
    T v;
    std::memcpy(&v, static_cast<const uint8_t *>(array->buffers[1]) + (array->offset + i) * int64_t(sizeof(T)), sizeof v);
    return v;
  }
  /** A string's or list's extent: [begin, end) in its data or child. */
  void extent(int64_t i, int64_t &begin, int64_t &end) const noexcept {
    const int64_t at = array->offset + i;
    if (type->type == kind::large_utf8 || type->type == kind::large_list) {
      begin = value<int64_t>(i);
      end = static_cast<const int64_t *>(array->buffers[1])[at + 1];
    } else {
      begin = value<int32_t>(i);
      end = static_cast<const int32_t *>(array->buffers[1])[at + 1];
    }
  }
};

/**
 * Whether the offsets of a string, list or map array start at 0 or later and never decrease,
 * and, for a list or map, end within its child: what the writer reads and the room it reserves
 * for strings (a batch's first to last offset) rely on. A string's bytes cannot be checked
 * further: the C data interface gives no buffer's size.
 */
template <typename Offset> bool offsets_ordered(const field &f, const ArrowArray &a, std::string &why) {
  const auto *offsets = static_cast<const Offset *>(a.buffers[1]) + a.offset;
  bool ordered = offsets[0] >= 0;
  for (int64_t i = 0; i < a.length; i++) { ordered &= offsets[i + 1] >= offsets[i]; }
  if (!ordered) {
    why = "the offsets of field '" + f.name + "' decrease or are negative";
    return false;
  }
  if ((f.type == kind::list || f.type == kind::large_list || f.type == kind::map) &&
      int64_t(offsets[a.length]) > a.children[0]->length) {
    why = "the offsets of field '" + f.name + "' point past the end of its values";
    return false;
  }
  return true;
}

bool offsets_in_bounds(const field &f, const ArrowArray &a, std::string &why) {
  if (a.length == 0) { return true; }
  switch (f.type) {
  case kind::utf8: case kind::list: case kind::map: return offsets_ordered<int32_t>(f, a, why);
  case kind::large_utf8: case kind::large_list: return offsets_ordered<int64_t>(f, a, why);
  default: return true;
  }
}

/** Checks an array against its field (buffers and children there) and builds its view. */
bool make_view(const field &f, const ArrowArray &a, view &out, std::string &why) {
  // (A string view has its variadic data buffers, and their sizes, past its views: 3 at least.)
  const int64_t buffers = f.type == kind::null ? 0 : f.type == kind::structure ? 1
                          : (f.type == kind::utf8 || f.type == kind::large_utf8 || f.type == kind::utf8_view) ? 3 : 2;
  if (a.release == nullptr || a.n_buffers < buffers || (buffers > 0 && a.buffers == nullptr) || a.length < 0 ||
      a.offset < 0 || int64_t(f.children.size()) != a.n_children || (a.n_children > 0 && a.children == nullptr)) {
    why = "the array of field '" + f.name + "' does not match its type " + arrow::describe(f);
    return false;
  }
  for (int64_t b = 1; b < (f.type == kind::utf8_view ? 2 : buffers); b++) {
    if (a.length > 0 && a.buffers[b] == nullptr) {
      why = "the array of field '" + f.name + "' lacks a buffer";
      return false;
    }
  }
  if (a.length > INT64_MAX - a.offset) {
    why = "the array of field '" + f.name + "' has an offset and length past 2^63";
    return false;
  }
  for (int64_t c = 0; c < a.n_children; c++) {
    // A struct's row i is row offset + i of each child.
    if (a.children[c] == nullptr || (f.type == kind::structure && a.children[c]->length < a.offset + a.length)) {
      why = "the array of field '" + f.name + "' has a child missing or shorter than itself";
      return false;
    }
  }
  if (!offsets_in_bounds(f, a, why)) { return false; }
  if (f.type == kind::utf8_view && a.length > 0) {
    // Each long view names a data buffer and a range in it: both checked here, once.
    const int64_t data_buffers = a.n_buffers - 3;
    const auto *sizes = static_cast<const int64_t *>(a.buffers[a.n_buffers - 1]);
    const auto *views = static_cast<const uint8_t *>(a.buffers[1]);
    for (int64_t i = 0; i < a.length; i++) {
      int32_t length, index, offset;
      std::memcpy(&length, views + (a.offset + i) * 16, 4);
      if (length <= 12) { continue; }
      std::memcpy(&index, views + (a.offset + i) * 16 + 8, 4);
      std::memcpy(&offset, views + (a.offset + i) * 16 + 12, 4);
      if (index < 0 || index >= data_buffers || offset < 0 || sizes == nullptr ||
          int64_t(offset) + length > sizes[index] || a.buffers[2 + index] == nullptr) {
        why = "a string view of field '" + f.name + "' points outside its data buffers";
        return false;
      }
    }
  }
  out.type = &f;
  out.array = &a;
  out.all_null = f.type == kind::null;
  if (!out.all_null && a.null_count != 0 && a.n_buffers > 0) { out.validity = static_cast<const uint8_t *>(a.buffers[0]); }
  out.key.resize(1 + json_string_capacity_utf8(f.name.size()));
  out.key[0] = ',';
  out.key.resize(1 + write_json_string_utf8(reinterpret_cast<const uint8_t *>(f.name.data()), f.name.size(),
                                            reinterpret_cast<uint8_t *>(&out.key[1])));
  out.key += ':';
  if (out.key.size() <= 33) { std::memcpy(out.key_head, out.key.data(), out.key.size()); }
  out.children.resize(f.children.size());
  for (size_t c = 0; c < f.children.size(); c++) {
    if (!make_view(f.children[c], *a.children[c], out.children[c], why)) { return false; }
  }
  return true;
}

/** Days since the epoch to a civil date. */
void civil_from_days(int64_t z, int64_t &y, unsigned &m, unsigned &d) noexcept {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = unsigned(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = int64_t(yoe) + era * 400 + (m <= 2);
}

/** Bytes a scalar of this kind takes at most as JSON (a string: its own bound, see below). */
size_t most_bytes(kind k) noexcept {
  switch (k) {
  case kind::boolean: case kind::null: return 5;
  case kind::date32: return 32;
  case kind::timestamp: return 64;
  case kind::float32: case kind::float64: return 48;
  case kind::decimal128: return 42;
  default: return 25; // an integer
  }
}

bool is_scalar(kind k) noexcept {
  return k != kind::structure && k != kind::list && k != kind::large_list && k != kind::utf8_view && k != kind::map;
}

class row_writer {
public:
  explicit row_writer(bool write_nulls) : write_nulls_(write_nulls) {}

  arrow::buffer &out() { return out_; }

  /** The rows [from, to) of a record batch, each an object on a line. */
  void rows(const view &batch, int64_t from, int64_t to) {
    if (flat(batch)) {
      flat_rows(batch, from, to);
      return;
    }
    for (int64_t i = from; i < to; i++) {
      object(batch, batch.array->offset + i);
      out_.push<uint8_t>('\n');
    }
  }

private:
  void put(const char *text, size_t n) { out_.append(text, n); }

  /** Whether every field of the record is a scalar or a string (and nulls are written). */
  bool flat(const view &batch) const noexcept {
    if (!write_nulls_) { return false; }
    for (const view &c : batch.children) {
      if (!is_scalar(c.type->type)) { return false; }
    }
    return true;
  }

  /**
   * Rows of scalars, into room reserved once for all of them: the most each field can take
   * (a string six bytes a byte, for \u escapes), so that no value checks for room.
   */
  void flat_rows(const view &batch, int64_t from, int64_t to) {
    const int64_t base = batch.array->offset;
    size_t bound = 3; // '{', '}', '\n'
    size_t strings = 0;
    for (const view &c : batch.children) {
      bound += std::max<size_t>(32, c.key.size()) + most_bytes(c.type->type) + 10; // the key, copied 32 bytes at once
      if (c.type->type == kind::utf8 || c.type->type == kind::large_utf8) {
        int64_t first, ignored, last;
        c.extent(base + from, first, ignored);
        c.extent(base + to - 1, ignored, last);
        strings += 6 * size_t(std::max<int64_t>(last - first, 0));
      }
    }
    char *const start = reinterpret_cast<char *>(out_.room(bound * size_t(to - from) + strings));
    char *at = start;
    for (int64_t i = base + from; i < base + to; i++) {
      *at++ = '{';
      bool first = true;
      for (const view &c : batch.children) {
        at += key(c, first, at);
        first = false;
        at += scalar(c, i, at);
      }
      *at++ = '}';
      *at++ = '\n';
    }
    out_.commit(size_t(at - start));
  }

  /**
   * ",\"key\":" at `at` (the comma dropped for an object's first member), which has room for
   * 32 bytes and for the key; returns its length. A short key is copied 32 bytes at once.
   */
  static size_t key(const view &c, bool first, char *at) noexcept {
    const size_t skip = first ? 1 : 0, n = c.key.size() - skip;
    std::memcpy(at, n <= 32 ? c.key_head + skip : c.key.data() + skip, n <= 32 ? 32 : n);
    return n;
  }

  /** The struct's members at child index i (the struct's offset already added). */
  void object(const view &s, int64_t i) {
    out_.push<uint8_t>('{');
    bool first = true;
    for (const view &c : s.children) {
      if (!write_nulls_ && !c.valid(i)) { continue; }
      out_.commit(key(c, first, reinterpret_cast<char *>(out_.room(std::max<size_t>(32, c.key.size())))));
      first = false;
      value(c, i);
    }
    out_.push<uint8_t>('}');
  }

  /** The value at logical index i of the array (its own offset added in view). */
  void value(const view &v, int64_t i) {
    const kind k = v.type->type;
    if (is_scalar(k)) {
      size_t room = most_bytes(k);
      if ((k == kind::utf8 || k == kind::large_utf8) && v.valid(i)) {
        int64_t begin, end;
        v.extent(i, begin, end);
        room = json_string_capacity_utf8(size_t(std::max<int64_t>(end - begin, 0)));
      }
      out_.commit(scalar(v, i, reinterpret_cast<char *>(out_.room(room))));
      return;
    }
    if (!v.valid(i)) {
      put("null", 4);
      return;
    }
    switch (k) {
    case kind::utf8_view: {
      // 16 bytes a view: the length, then the bytes themselves up to 12, or a prefix, the
      // index of the data buffer (the third buffer on) and the offset in it.
      const uint8_t *views = static_cast<const uint8_t *>(v.array->buffers[1]) + (v.array->offset + i) * 16;
      int32_t length, buffer_index, offset;
      std::memcpy(&length, views, 4);
      const uint8_t *bytes = views + 4;
      if (length > 12) {
        std::memcpy(&buffer_index, views + 8, 4);
        std::memcpy(&offset, views + 12, 4);
        bytes = static_cast<const uint8_t *>(v.array->buffers[2 + buffer_index]) + offset;
      }
      const size_t n = size_t(std::max(length, 0));
      const size_t at = out_.size();
      out_.shrink_to(at + write_json_string_utf8(bytes, n, out_.grow(json_string_capacity_utf8(n))));
      return;
    }
    case kind::structure: object(v, v.array->offset + i); return;
    case kind::map: { // an object of the entries, in order
      int64_t begin, end;
      v.extent(i, begin, end);
      const view &entries = v.children[0];
      out_.push<uint8_t>('{');
      for (int64_t k2 = begin; k2 < end; k2++) {
        if (k2 > begin) { out_.push<uint8_t>(','); }
        // (an entry's index in the struct, plus the struct's offset: its children's own are added by value())
        value(entries.children[0], entries.array->offset + k2);
        out_.push<uint8_t>(':');
        value(entries.children[1], entries.array->offset + k2);
      }
      out_.push<uint8_t>('}');
      return;
    }
    case kind::list: case kind::large_list: {
      int64_t begin, end;
      v.extent(i, begin, end);
      out_.push<uint8_t>('[');
      for (int64_t k2 = begin; k2 < end; k2++) {
        if (k2 > begin) { out_.push<uint8_t>(','); }
        value(v.children[0], k2);
      }
      out_.push<uint8_t>(']');
      return;
    }
    default: return;
    }
  }

  /** A scalar or string value at `at`, which has room for it; returns the bytes written. */
  size_t scalar(const view &v, int64_t i, char *at) {
    if (!v.valid(i)) {
      std::memcpy(at, "null", 4);
      return 4;
    }
    switch (v.type->type) {
    case kind::boolean: {
      const int64_t bit = v.array->offset + i;
      if (static_cast<const uint8_t *>(v.array->buffers[1])[bit >> 3] >> (bit & 7) & 1) {
        std::memcpy(at, "true", 4);
        return 4;
      }
      std::memcpy(at, "false", 5);
      return 5;
    }
    case kind::int8: return integer(v.value<int8_t>(i), at);
    case kind::int16: return integer(v.value<int16_t>(i), at);
    case kind::int32: return integer(v.value<int32_t>(i), at);
    case kind::int64: return integer(v.value<int64_t>(i), at);
    case kind::uint8: return write_decimal_digits(v.value<uint8_t>(i), at);
    case kind::uint16: return write_decimal_digits(v.value<uint16_t>(i), at);
    case kind::uint32: return write_decimal_digits(v.value<uint32_t>(i), at);
    case kind::uint64: return write_decimal_digits(v.value<uint64_t>(i), at);
    case kind::float32: return floating(double(v.value<float>(i)), at);
    case kind::float64: return floating(v.value<double>(i), at);
    case kind::utf8: case kind::large_utf8: {
      int64_t begin, end;
      v.extent(i, begin, end);
      const auto *bytes = static_cast<const uint8_t *>(v.array->buffers[2]) + begin;
      return write_json_string_utf8(bytes, size_t(std::max<int64_t>(end - begin, 0)), reinterpret_cast<uint8_t *>(at));
    }
    case kind::date32: {
      at[0] = '"';
      const size_t n = 1 + put_date(v.value<int32_t>(i), at + 1);
      at[n] = '"';
      return n + 1;
    }
    case kind::timestamp: return timestamp(*v.type, v.value<int64_t>(i), at);
    case kind::decimal128: return arrow::write_decimal128(v.value<arrow::int128>(i), v.type->scale, at);
    default: std::memcpy(at, "null", 4); return 4; // a null column
    }
  }

  static size_t integer(int64_t v, char *at) {
    size_t n = 0;
    if (v < 0) { at[n++] = '-'; }
    return n + write_decimal_digits(v < 0 ? 0 - uint64_t(v) : uint64_t(v), at + n);
  }

  /** orjson's float text (dumpb's); NaN and infinities as null, as orjson writes them. */
  static size_t floating(double d, char *at) {
    if (!std::isfinite(d)) {
      std::memcpy(at, "null", 4);
      return 4;
    }
    return write_double(d, at, -4, false);
  }

  /** `value`'s last `width` digits, leading zeros kept. */
  static void fixed_digits(char *at, uint64_t value, int width) {
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    int k = width;
    for (; k >= 2; k -= 2) { // two digits a step, from the right
      std::memcpy(at + k - 2, pairs + 2 * (value % 100), 2);
      value /= 100;
    }
    if (k == 1) { at[0] = char('0' + value % 10); }
  }

  /** "YYYY-MM-DD" (a year past 9999 or before 0 in full, with its sign); returns the bytes. */
  static size_t put_date(int64_t days, char *at) {
    int64_t y;
    unsigned m, d;
    civil_from_days(days, y, m, d);
    size_t n = 0;
    if (y >= 0 && y <= 9999) {
      fixed_digits(at, uint64_t(y), 4);
      n = 4;
    } else {
      if (y < 0) { at[n++] = '-'; }
      n += write_decimal_digits(y < 0 ? 0 - uint64_t(y) : uint64_t(y), at + n);
    }
    at[n] = '-';
    fixed_digits(at + n + 1, m, 2);
    at[n + 3] = '-';
    fixed_digits(at + n + 4, d, 2);
    return n + 6;
  }

  /** ISO 8601 in UTC: "YYYY-MM-DDTHH:MM:SS[.fraction]" and 'Z' where the type has a zone. */
  size_t timestamp(const field &f, int64_t t, char *at) {
    const int64_t per_second = f.unit == 's' ? 1 : f.unit == 'm' ? 1000 : f.unit == 'u' ? 1000000 : 1000000000;
    int64_t seconds = t / per_second, fraction = t % per_second;
    if (fraction < 0) {
      fraction += per_second;
      seconds--;
    }
    int64_t days = seconds / 86400, rest = seconds % 86400;
    if (rest < 0) {
      rest += 86400;
      days--;
    }
    size_t n = 0;
    at[n++] = '"';
    if (days != cached_days_) { // timestamps in a column mostly share their day with the one before
      cached_days_ = days;
      cached_date_length_ = put_date(days, cached_date_);
    }
    std::memcpy(at + n, cached_date_, sizeof cached_date_);
    n += cached_date_length_;
    at[n] = 'T';
    fixed_digits(at + n + 1, uint64_t(rest / 3600), 2);
    at[n + 3] = ':';
    fixed_digits(at + n + 4, uint64_t(rest / 60 % 60), 2);
    at[n + 6] = ':';
    fixed_digits(at + n + 7, uint64_t(rest % 60), 2);
    n += 9;
    const int width = f.unit == 's' ? 0 : f.unit == 'm' ? 3 : f.unit == 'u' ? 6 : 9;
    if (width > 0) {
      at[n++] = '.';
      fixed_digits(at + n, uint64_t(fraction), width);
      n += size_t(width);
    }
    if (!f.timezone.empty()) { at[n++] = 'Z'; }
    at[n++] = '"';
    return n;
  }

  bool write_nulls_;
  arrow::buffer out_;
  int64_t cached_days_ = INT64_MIN;
  char cached_date_[32] = {};
  size_t cached_date_length_ = 0;
};

arrow_error failure(error_code code, const std::string &why) {
  arrow_error e;
  e.code = code;
  e.detail = e.message = why;
  return e;
}

/**
 * Writes record batches in chunks of rows, each chunk into one thread's buffer (kept from chunk
 * to chunk, so the output's memory is touched once, where the sink puts it), handed to the sink
 * in row order from the calling thread.
 */
class batch_writer {
public:
  batch_writer(const arrow_write_options &options, const ndjson_sink &sink)
      : options_(options), sink_(sink), threads_(std::max(1u, options.threads)) {
    for (unsigned t = 0; t < threads_; t++) { writers_.emplace_back(options.write_nulls); }
  }

  arrow_error batch(const field &schema, const ArrowArray &array) {
    view root;
    std::string why;
    if (!make_view(schema, array, root, why)) { return failure(error_code::invalid_argument, why); }
    const int64_t rows = array.length;
    for (int64_t from = 0; from < rows;) {
      // A round: up to one chunk a thread, then each chunk to the sink in order.
      // (A batch smaller than a chunk a thread is shared out evenly.)
      const int64_t chunk = std::max<int64_t>(1, std::min<int64_t>(rows_per_chunk_, (rows - from + threads_ - 1) / threads_));
      const unsigned busy = unsigned(std::min<int64_t>(threads_, (rows - from + chunk - 1) / chunk));
      std::vector<std::thread> pool;
      std::atomic<bool> failed{false};
      const auto write = [&](unsigned t) {
        try {
          writers_[t].out().clear();
          writers_[t].rows(root, from + chunk * t, std::min(rows, from + chunk * (t + 1)));
        } catch (...) {
          failed = true;
        }
      };
      try {
        for (unsigned t = 1; t < busy; t++) { pool.emplace_back(write, t); }
      } catch (...) {
        failed = true;
      }
      write(0);
      for (std::thread &t : pool) { t.join(); }
      if (failed) { return failure(error_code::out_of_memory, "out of memory"); }
      size_t bytes = 0;
      for (unsigned t = 0; t < busy; t++) {
        const arrow::buffer &b = writers_[t].out();
        bytes += b.size();
        if (!sink_(reinterpret_cast<const char *>(b.data()), b.size())) {
          return failure(error_code::write_failed, "the output could not be written");
        }
      }
      const int64_t written = std::min(rows - from, chunk * busy);
      from += written;
      // About 256 KB a chunk: the buffers stay in cache, where the sink copies from them
      // (1 MB chunks wrote at half the speed).
      rows_per_chunk_ = std::clamp<int64_t>(int64_t((size_t(1) << 18) * size_t(written) / std::max<size_t>(bytes, 1)), 16, 1 << 20);
    }
    return {};
  }

private:
  arrow_write_options options_;
  const ndjson_sink &sink_;
  unsigned threads_;
  std::vector<row_writer> writers_;
  int64_t rows_per_chunk_ = 4096;
};

} // namespace

arrow_error arrow_batch_to_ndjson(const ArrowSchema &schema, const ArrowArray &batch,
                                  const arrow_write_options &options, const ndjson_sink &sink) noexcept {
  try {
    field f;
    std::string why;
    if (!arrow::import_schema(schema, f, why)) { return failure(error_code::invalid_argument, why); }
    if (f.type != kind::structure) { return failure(error_code::invalid_argument, "a record batch is a struct array (format \"+s\")"); }
    batch_writer writer(options, sink);
    return writer.batch(f, batch);
  } catch (const std::bad_alloc &) {
    return failure(error_code::out_of_memory, "out of memory");
  }
}

arrow_error arrow_to_ndjson(ArrowArrayStream *stream, const arrow_write_options &options, const ndjson_sink &sink) noexcept {
  if (stream == nullptr || stream->release == nullptr) { return failure(error_code::invalid_argument, "a released stream"); }
  try {
    ArrowSchema schema{};
    if (stream->get_schema(stream, &schema) != 0) {
      const char *why = stream->get_last_error ? stream->get_last_error(stream) : nullptr;
      return failure(error_code::invalid_argument, why ? why : "the stream gave no schema");
    }
    field f;
    std::string why;
    const bool known = arrow::import_schema(schema, f, why);
    schema.release(&schema);
    if (!known) { return failure(error_code::invalid_argument, why); }
    if (f.type != kind::structure) { return failure(error_code::invalid_argument, "record batches are struct arrays (format \"+s\")"); }
    batch_writer writer(options, sink);
    for (;;) {
      ArrowArray batch{};
      if (stream->get_next(stream, &batch) != 0) {
        const char *last = stream->get_last_error ? stream->get_last_error(stream) : nullptr;
        return failure(error_code::invalid_argument, last ? last : "the stream failed");
      }
      if (batch.release == nullptr) { return {}; }
      arrow_error e = writer.batch(f, batch);
      batch.release(&batch);
      if (!e.ok()) { return e; }
    }
  } catch (const std::bad_alloc &) {
    return failure(error_code::out_of_memory, "out of memory");
  }
}

/** A sink appending to a string. */
static ndjson_sink appending_to(std::string &out) {
  return [&out](const char *data, size_t size) {
    out.append(data, size);
    return true;
  };
}

arrow_error arrow_batch_to_ndjson(const ArrowSchema &schema, const ArrowArray &batch,
                                  const arrow_write_options &options, std::string &out) noexcept {
  try {
    return arrow_batch_to_ndjson(schema, batch, options, appending_to(out));
  } catch (const std::bad_alloc &) {
    return failure(error_code::out_of_memory, "out of memory");
  }
}

arrow_error arrow_to_ndjson(ArrowArrayStream *stream, const arrow_write_options &options, std::string &out) noexcept {
  try {
    return arrow_to_ndjson(stream, options, appending_to(out));
  } catch (const std::bad_alloc &) {
    return failure(error_code::out_of_memory, "out of memory");
  }
}

} // namespace simdbridge
