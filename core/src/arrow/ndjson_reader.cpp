// SPDX-License-Identifier: Apache-2.0
// NDJSON to Arrow: the input cut into blocks at line ends, each block read into one record
// batch (on as many threads as asked), each record parsed by simdjson's DOM parser and walked
// into the columns of the schema, given or inferred.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <simdjson.h>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "block_walk.h"
#include "builder.h"
#include "checksum_sink.h"
#include "big_integer.h"
#include "decimal.h"
#include "parser_state.h"
#include "scalar_parser.h"
#include "schema.h"
#include "stream/open_record.h"
#include "tape_walk.h"
#include "temporal.h"
#include "simdbridge/arrow.h"
#include "simdbridge/stack.h"
#include "simdbridge/stream.h"
#include "simdbridge/writer.h"

namespace simdbridge {

namespace {

using arrow::column;
using arrow::field;
using arrow::kind;
using arrow::parse_date;
using arrow::parse_timestamp;
using arrow::to_unit;
using element = simdjson::dom::element;
using element_type = simdjson::dom::element_type;

// ---------------------------------------------------------------------------------------------
// Values into columns.

/**
 * The name the corrupt-record field has while a batch is read: the byte 0xFF, which no key of
 * valid JSON holds (not even escaped: escapes give valid UTF-8), before the caller's name, so
 * that no key of a record is read into it.
 */
std::string corrupt_name(const std::string &name) { return "\xff" + name; }

/** Why a value did not fit its column. */
struct mismatch {
  std::string path;   // RFC 6901, from the record
  std::string reason; // "expected int64, found a string"
};

const char *json_type_name(element v) {
  switch (v.type()) {
  case element_type::ARRAY: return "an array";
  case element_type::OBJECT: return "an object";
  case element_type::INT64: case element_type::UINT64: return "an integer";
  case element_type::DOUBLE: return "a number with a fraction or an exponent";
  case element_type::STRING: return "a string";
  case element_type::BOOL: return "a boolean";
  case element_type::NULL_VALUE: return "null";
  }
  return "a value";
}

std::string escape_pointer_step(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * Walks one record (or value) into its column; false with `why` filled on a mismatch. Where bad
 * records are kept or dropped, a value that does not fit makes the innermost struct field
 * holding it null instead, and `bad` says that the record had one.
 */
class record_walker {
public:
  explicit record_walker(const arrow_read_options &options)
      : error_on_unknown_(options.error_on_unknown_fields), lenient_(options.on_bad_record != bad_records::fail),
        any_string_(options.any_value_as_string), spark_temporals_(options.spark_temporals) {}

  /** The record walked last had a value that did not fit (only where bad records are kept). */
  bool bad = false;

  bool append(column &c, element v, mismatch &why) {
    if (v.is_null()) {
      c.append_null();
      return true;
    }
    const field &f = *c.type;
    switch (f.type) {
    case kind::null: return fail(why, f, v);
    case kind::boolean: {
      bool b;
      if (v.get(b) != simdjson::SUCCESS) { return fail(why, f, v); }
      c.append_valid();
      c.booleans.push(b);
      return true;
    }
    case kind::float32: case kind::float64: {
      double d;
      if (v.get(d) != simdjson::SUCCESS) { return fail(why, f, v); }
      c.append_valid();
      if (f.type == kind::float32) {
        c.values.push(float(d));
      } else {
        c.values.push(d);
      }
      return true;
    }
    case kind::utf8: case kind::large_utf8: {
      std::string_view s;
      if (v.get(s) != simdjson::SUCCESS) {
        if (!any_string_) { return fail(why, f, v); }
        text_ = simdjson::minify(v);
        s = text_;
      }
      c.append_valid();
      c.values.append(s.data(), s.size());
      if (f.type == kind::utf8 && c.values.size() > size_t(INT32_MAX)) {
        why.reason = "more than 2 GB of strings in one batch of a utf8 column (use large_utf8, or a smaller block_size)";
        return false;
      }
      c.push_offset(int64_t(c.values.size()));
      return true;
    }
    case kind::date32: {
      int64_t days;
      std::string_view s;
      if (v.get(s) == simdjson::SUCCESS) {
        if (s.size() != 10 || !parse_date(s, days)) { return fail(why, f, v, "not a date (YYYY-MM-DD)"); }
      } else if (spark_temporals_ || v.get(days) != simdjson::SUCCESS) {
        return fail(why, f, v);
      }
      if (days < INT32_MIN || days > INT32_MAX) { return fail(why, f, v, "out of date32's range"); }
      c.append_valid();
      c.values.push(int32_t(days));
      return true;
    }
    case kind::timestamp: {
      int64_t t;
      std::string_view s;
      if (v.get(s) == simdjson::SUCCESS) {
        int64_t seconds, nanos;
        if (!parse_timestamp(s, seconds, nanos)) { return fail(why, f, v, "not an ISO 8601 timestamp"); }
        if (!to_unit(seconds, nanos, f.unit, t)) { return fail(why, f, v, "out of the timestamp's range"); }
      } else if (v.get(t) != simdjson::SUCCESS) {
        return fail(why, f, v);
      } else if (spark_temporals_ && !to_unit(t, 0, f.unit, t)) { // seconds
        return fail(why, f, v, "out of the timestamp's range");
      }
      c.append_valid();
      c.values.push(t);
      return true;
    }
    case kind::decimal128: {
      // The DOM keeps a number's value, not its text: a double's shortest decimal stands for it
      // (the same digits wherever the text had 15 or fewer).
      std::string text;
      std::string_view s;
      int64_t i;
      uint64_t u;
      double d;
      if (v.get(s) == simdjson::SUCCESS) {
        text = s;
      } else if (v.type() == element_type::INT64 && v.get(i) == simdjson::SUCCESS) {
        text = std::to_string(i);
      } else if (v.type() == element_type::UINT64 && v.get(u) == simdjson::SUCCESS) {
        text = std::to_string(u);
      } else if (v.get(d) == simdjson::SUCCESS) {
        const decimal shortest = shortest_decimal(std::fabs(d));
        text = (std::signbit(d) ? "-" : "") + std::to_string(shortest.significand) + "e" +
               std::to_string(shortest.exponent);
      } else {
        return fail(why, f, v);
      }
      arrow::int128 value;
      if (!arrow::parse_decimal(text, f.precision, f.scale, value)) {
        return fail(why, f, v, "not a number that fits the decimal");
      }
      c.append_valid();
      c.values.push(value);
      return true;
    }
    case kind::structure: {
      simdjson::dom::object o;
      if (v.get(o) != simdjson::SUCCESS) { return fail(why, f, v); }
      return append_object(c, o, why);
    }
    case kind::map: {
      simdjson::dom::object o;
      if (v.get(o) != simdjson::SUCCESS) { return fail(why, f, v); }
      c.append_valid();
      column &entries = c.children[0];
      column &keys = entries.children[0];
      for (simdjson::dom::key_value_pair kv : o) {
        keys.append_valid();
        keys.values.append(kv.key.data(), kv.key.size());
        keys.push_offset(int64_t(keys.values.size()));
        if (!append(entries.children[1], kv.value, why)) {
          why.path = "/" + escape_pointer_step(kv.key) + why.path;
          return false;
        }
        entries.append_valid();
      }
      c.push_offset(entries.length);
      return true;
    }
    case kind::list: case kind::large_list: {
      simdjson::dom::array a;
      if (v.get(a) != simdjson::SUCCESS) { return fail(why, f, v); }
      c.append_valid();
      column &items = c.children[0];
      size_t index = 0;
      for (element item : a) {
        if (!append(items, item, why)) {
          why.path = "/" + std::to_string(index) + why.path;
          return false;
        }
        index++;
      }
      c.push_offset(items.length);
      return true;
    }
    default: return append_integer(c, v, why);
    }
  }

  /** An object into a struct column: each key to its field, absent fields null (they lag). */
  bool append_object(column &c, simdjson::dom::object o, mismatch &why) {
    const field &f = *c.type;
    const std::unordered_map<std::string_view, size_t> &names = c.names;
    const int64_t row = c.length;
    size_t expected = 0; // the next field, where keys come in the schema's order
    for (simdjson::dom::key_value_pair kv : o) {
      size_t at;
      if (expected < f.children.size() && f.children[expected].name == kv.key) {
        at = expected;
      } else {
        const auto found = names.find(kv.key);
        if (found == names.end()) {
          if (error_on_unknown_) {
            if (lenient_) {
              bad = true;
              continue;
            }
            why.path = "/" + escape_pointer_step(kv.key);
            why.reason = "a key the schema does not have (error_on_unknown_fields)";
            return false;
          }
          continue; // validated by the parse, and skipped
        }
        at = found->second;
      }
      expected = at + 1;
      column &child = c.children[at];
      child.fill_to(row);
      if (child.length > row) {
        if (!lenient_) {
          why.path = "/" + escape_pointer_step(kv.key);
          why.reason = "the key appears twice in the object";
          return false;
        }
        child.truncate(row); // the last value wins, as in Spark's reader
      }
      if (!append(child, kv.value, why)) {
        if (!lenient_) {
          why.path = "/" + escape_pointer_step(kv.key) + why.path;
          return false;
        }
        bad = true;
        child.truncate(row); // (a list or struct half appended is taken back whole)
        child.append_null();
      }
    }
    c.append_valid(); // (the fields it lacked lag: null)
    return true;
  }

private:
  bool append_integer(column &c, element v, mismatch &why) {
    const field &f = *c.type;
    int64_t i = 0;
    uint64_t u = 0;
    bool negative = false;
    if (v.type() == element_type::INT64 && v.get(i) == simdjson::SUCCESS) {
      negative = i < 0;
      u = uint64_t(i);
    } else if (v.type() == element_type::UINT64 && v.get(u) == simdjson::SUCCESS) {
      // u holds it
    } else {
      return fail(why, f, v);
    }
    // Range of the column's type.
    const unsigned bits = unsigned(f.width() * 8);
    bool fits;
    if (f.is_signed()) {
      const int64_t high = bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
      const int64_t low = bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
      fits = negative ? i >= low : (u <= uint64_t(high));
      i = negative ? i : int64_t(u);
    } else {
      fits = !negative && (bits == 64 || u <= (uint64_t(1) << bits) - 1);
    }
    if (!fits) { return fail(why, f, v, "out of the type's range"); }
    c.append_valid();
    switch (f.type) {
    case kind::int8: c.values.push(int8_t(i)); break;
    case kind::int16: c.values.push(int16_t(i)); break;
    case kind::int32: c.values.push(int32_t(i)); break;
    case kind::int64: c.values.push(int64_t(i)); break;
    case kind::uint8: c.values.push(uint8_t(u)); break;
    case kind::uint16: c.values.push(uint16_t(u)); break;
    case kind::uint32: c.values.push(uint32_t(u)); break;
    default: c.values.push(uint64_t(u)); break;
    }
    return true;
  }

  static bool fail(mismatch &why, const field &f, element v, const char *detail = nullptr) {
    why.path.clear();
    why.reason = "expected " + arrow::describe(f) + ", found " + json_type_name(v);
    if (detail != nullptr) { why.reason += std::string(": ") + detail; }
    return false;
  }

  bool error_on_unknown_;
  bool lenient_;
  bool any_string_;
  bool spark_temporals_;
  std::string text_; // a non-string value's JSON text, for a utf8 column
};

// ---------------------------------------------------------------------------------------------
// Inference.

/** merge_type's reason where the thread's stack ran out: the depth limit's error, at the record. */
constexpr std::string_view out_of_stack = "nesting deeper than this thread's stack holds";

/**
 * What merge_type changed in a schema while it merged one record, so that a record whose types
 * conflict can be taken back whole (inference where bad records are kept or dropped: such a
 * record adds nothing). A change names its field by the child indices from the record's struct
 * down: children are only appended, so each index holds until the changes after it are undone.
 */
class schema_changes {
public:
  void start() {
    trail_.clear();
    changes_.clear();
  }
  void enter(size_t child) { trail_.push_back(uint32_t(child)); }
  void leave() { trail_.pop_back(); }
  /** Before `f` (the field the trail leads to) takes another type or a child. */
  void changing(const field &f) { changes_.push_back({trail_, f.type, f.children.size()}); }
  /** Puts `root` back as it was at start(). */
  void undo(field &root) {
    for (auto c = changes_.rbegin(); c != changes_.rend(); ++c) {
      field *f = &root;
      for (uint32_t i : c->trail) { f = &f->children[i]; }
      f->by_name.truncate(f->children, c->children);
      f->children.erase(f->children.begin() + std::ptrdiff_t(c->children), f->children.end());
      f->type = c->type;
    }
    changes_.clear();
  }

private:
  struct change {
    std::vector<uint32_t> trail;
    kind type;
    size_t children;
  };
  std::vector<uint32_t> trail_;
  std::vector<change> changes_;
};

/**
 * The type inferred so far for a value, as pyarrow's JSON reader infers it. `floor`:
 * stack_floor(), below which it stops (a level of recursion per level of nesting). `changes`,
 * where not null, records each change to `into` (at the trail it has entered).
 */
bool merge_type(field &into, element v, std::string &path, std::string &why, uintptr_t floor,
                schema_changes *changes) {
  if (!stack_has_room(floor)) {
    why = out_of_stack; // no path: finding its value again would recurse as deep
    return false;
  }
  kind seen;
  switch (v.type()) {
  case element_type::NULL_VALUE: return true;
  case element_type::BOOL: seen = kind::boolean; break;
  case element_type::INT64: seen = kind::int64; break;
  case element_type::UINT64: seen = kind::float64; break; // past int64: read as a double
  case element_type::DOUBLE: seen = kind::float64; break;
  case element_type::STRING: seen = kind::utf8; break;
  case element_type::ARRAY: seen = kind::list; break;
  case element_type::OBJECT: seen = kind::structure; break;
  default: seen = kind::null; break;
  }
  if (into.type == kind::null) {
    if (changes != nullptr) { changes->changing(into); }
    into.type = seen;
    if (seen == kind::list) { into.children.push_back(arrow::named("item")); }
  } else if (into.type != seen) {
    const bool numbers = (into.type == kind::int64 || into.type == kind::float64) &&
                         (seen == kind::int64 || seen == kind::float64);
    if (!numbers) {
      field other;
      other.type = seen;
      if (seen == kind::list) { other.children.push_back(arrow::named("item")); }
      why = "a value of type " + arrow::describe(other) + " where earlier records had " + arrow::describe(into);
      return false;
    }
    if (into.type != kind::float64 && changes != nullptr) { changes->changing(into); }
    into.type = kind::float64;
  }
  if (seen == kind::structure) {
    simdjson::dom::object object;
    if (v.get(object) != simdjson::SUCCESS) { return false; } // (its type was read above)
    for (simdjson::dom::key_value_pair kv : object) {
      const size_t at = into.by_name.find(into.children, kv.key);
      if (at == into.children.size()) {
        if (changes != nullptr) { changes->changing(into); }
        into.children.push_back(arrow::named(std::string(kv.key)));
      }
      if (changes != nullptr) { changes->enter(at); }
      if (!merge_type(into.children[at], kv.value, path, why, floor, changes)) {
        if (why != out_of_stack) { path = "/" + escape_pointer_step(kv.key) + path; }
        return false;
      }
      if (changes != nullptr) { changes->leave(); }
    }
  } else if (seen == kind::list) {
    size_t index = 0;
    simdjson::dom::array array;
    if (v.get(array) != simdjson::SUCCESS) { return false; }
    for (element item : array) {
      if (changes != nullptr) { changes->enter(0); }
      if (!merge_type(into.children[0], item, path, why, floor, changes)) {
        if (why != out_of_stack) { path = "/" + std::to_string(index) + path; }
        return false;
      }
      if (changes != nullptr) { changes->leave(); }
      index++;
    }
  }
  return true;
}

/** Merges a block's inferred type into the types of the blocks before it (false: a conflict). */
bool merge_fields(field &into, const field &from) {
  if (from.type == kind::null) { return true; }
  if (into.type == kind::null) {
    into = from;
    return true;
  }
  if (into.type != from.type) {
    const bool numbers = (into.type == kind::int64 || into.type == kind::float64) &&
                         (from.type == kind::int64 || from.type == kind::float64);
    if (!numbers) { return false; }
    into.type = kind::float64;
    return true;
  }
  if (into.type == kind::list) { return merge_fields(into.children[0], from.children[0]); }
  if (into.type == kind::structure) {
    for (const field &c : from.children) {
      const size_t at = into.by_name.find(into.children, c.name);
      if (at == into.children.size()) {
        into.children.push_back(c);
      } else if (!merge_fields(into.children[at], c)) {
        return false;
      }
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Blocks.

struct block {
  size_t begin = 0, end = 0;  // bytes of the input: whole lines
  const uint8_t *bytes = nullptr; // where they are: in the input, or the padded copy of the last block
  uint64_t records = 0;       // records read (or before the error)
  uint64_t bad = 0;           // of them, inference's bad records (where they are kept or dropped)
  column *batch = nullptr;    // the batch read (a struct column)
  arrow_error error;          // record numbers within the block until made global
  field inferred = arrow::named("", kind::structure);
};

/** An error's line and column, counted from `before` (the lines before `bytes`, at `base`). */
void place(arrow_error &e, line_count before, const uint8_t *bytes, uint64_t base) {
  if (e.ok() || e.offset < base) { return; }
  before.add(bytes, size_t(e.offset - base));
  e.line = before.line();
  e.column = before.column(e.offset);
}

/** The byte offset of the value at `path` (RFC 6901) in a record, or the record's start. */
size_t offset_of(const uint8_t *record, size_t length, const std::string &path) {
  simdjson::ondemand::parser on_demand;
  simdjson::padded_string copy(reinterpret_cast<const char *>(record), length);
  simdjson::ondemand::document doc;
  if (on_demand.iterate(copy).get(doc) != simdjson::SUCCESS) { return 0; }
  simdjson::ondemand::value value;
  if (path.empty()) { return 0; }
  if (doc.at_pointer(path).get(value) != simdjson::SUCCESS) { return 0; }
  const std::string_view token = value.raw_json_token();
  return size_t(token.data() - copy.data());
}

/** A thread's simdjson parsers: one at the depth limit, one a level deeper (see read_records). */
struct record_parser {
  simdjson::dom::parser dom;
  simdjson::dom::parser deep;
  std::vector<uint8_t> scopes;
  std::vector<uint8_t> scratch;
  std::vector<uint8_t> widened; // a record with its integers past 64 bits made doubles (padded)
  /** The last block this thread read (its batch sizes the next one's). */
  const block *previous = nullptr;
  /** Sizes `p` for records of up to `bytes` bytes at `depth`, where it is not already. */
  static bool fit(simdjson::dom::parser &p, size_t bytes, size_t depth) {
    if (p.capacity() >= bytes && p.max_depth() == depth && p.capacity() > 0) { return true; }
    return p.allocate(std::max<size_t>({bytes, p.capacity(), 64}), depth) == simdjson::SUCCESS;
  }
};

class reader {
public:
  reader(const uint8_t *data, size_t size, const arrow_read_options &options)
      : data_(data), size_(size), options_(options) {}

  /**
   * Cuts the input into blocks of whole lines. Each block is read in place, followed by the
   * next (at least `tail` bytes, which the parsers may read past a token), except the last,
   * which is copied with simdjson's padding after it: the input itself is never copied whole.
   */
  void cut() {
    constexpr size_t tail = 128;
    const size_t step = std::max<size_t>(options_.block_size, 1);
    for (size_t pos = 0; pos < size_;) {
      size_t end = std::min(size_, pos + step);
      if (end < size_) {
        const void *newline = std::memchr(data_ + end, '\n', size_ - end);
        end = newline ? size_t(static_cast<const uint8_t *>(newline) - data_) + 1 : size_;
      }
      if (size_ - end < tail) { end = size_; }
      block b;
      b.begin = pos;
      b.end = end;
      b.bytes = data_ + pos;
      blocks_.push_back(std::move(b));
      pos = end;
    }
    if (!blocks_.empty()) {
      block &last = blocks_.back();
      last_copy_.assign(last.bytes, last.bytes + (last.end - last.begin));
      last_copy_.resize(last.end - last.begin + SIMDBRIDGE_PADDING, 0);
      last.bytes = last_copy_.data();
    }
  }

  /** Runs `work` on every block, on the threads asked for; blocks taken in order. */
  template <typename Work> void each_block(Work &&work) {
    const unsigned threads = std::max(1u, std::min<unsigned>(options_.threads, unsigned(blocks_.size())));
    std::atomic<size_t> next{0};
    auto run = [&] {
      record_parser parser;
      for (size_t b = next++; b < blocks_.size(); b = next++) { work(parser, blocks_[b]); }
    };
    if (threads <= 1) {
      run();
      return;
    }
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; t++) { pool.emplace_back(run); }
    run();
    for (std::thread &t : pool) { t.join(); }
  }

  /**
   * Each record of a block: false (with the block's error set) to stop. A record that cannot be
   * parsed stops the read; with `on_bad` (where bad records are kept or dropped), it is given
   * the line (its bytes without the line end) instead, and the read goes on. With `fast` (the
   * batch), each record is first read by the block reader alone, and only one it refuses goes
   * to the DOM and `on_record`: the block reader's rows where it reads them (a non-string
   * value's text in a string column is its bytes in the input, which the DOM does not keep).
   */
  template <typename OnRecord, typename OnBad = std::nullptr_t, typename OnPartial = std::nullptr_t>
  void read_records(record_parser &parser, block &b, column *fast, OnRecord &&on_record, OnBad &&on_bad = nullptr,
                    OnPartial &&on_partial = nullptr) {
    constexpr bool lenient = !std::is_same_v<std::decay_t<OnBad>, std::nullptr_t>;
    const size_t depth = std::max<uint32_t>(options_.limits.max_depth, 1);
    if (!parser.fit(parser.dom, b.end - b.begin, depth)) {
      b.error = {error_code::out_of_memory, b.begin, 0, "", "out of memory", ""};
      return;
    }
    const uint8_t *data = b.bytes - b.begin; // input offsets to bytes (the block's only)
    for (size_t pos = b.begin; pos < b.end;) {
      const void *newline = std::memchr(data + pos, '\n', b.end - pos);
      const size_t line_end = newline ? size_t(static_cast<const uint8_t *>(newline) - data) : b.end;
      const size_t next = newline ? line_end + 1 : b.end;
      size_t first = pos, last = line_end;
      const std::string_view line(reinterpret_cast<const char *>(data + pos),
                                  line_end - pos - (line_end > pos && data[line_end - 1] == '\r'));
      while (first < last && internal::is_json_whitespace(data[first])) { first++; }
      while (last > first && internal::is_json_whitespace(data[last - 1])) { last--; }
      pos = next;
      if (first == last) { continue; } // a blank line is not a record
      b.records++;
      if (const error e = internal::length_error(options_.limits, first, last); !e.ok()) {
        if constexpr (lenient) {
          on_bad(line);
          continue;
        }
        b.error = {e.code, e.offset, b.records, "", "", ""};
        return;
      }
      if (fast != nullptr) {
        const int64_t row = fast->length;
        uint64_t one = 0;
        bool bad = false;
        if (arrow::read_block(parser.dom, data + first, last - first, options_, *fast, one, parser.scratch,
                              lenient ? &bad : nullptr)) {
          if constexpr (lenient) {
            if (bad) { on_partial(row, line); } // (values of the wrong type: their fields null)
          }
          continue;
        }
        fast->truncate(row);
      }
      element root;
      simdjson::error_code parsed = parser.dom.parse(data + first, last - first, false).get(root);
      if (parsed == simdjson::SUCCESS && internal::string_past_limit(options_.limits, last - first, parser.dom.doc)) {
        parsed = simdjson::STRING_ERROR; // the scalar parser names the string
      }
      if (parsed != simdjson::SUCCESS) {
        // The scalar parser names the error and its offset; or the record is valid JSON that
        // simdjson does not read (a number past the double range, a lone surrogate escape), or
        // reads once its integers past 64 bits are made doubles (".0" after each: read as
        // pyarrow reads them), or one level too deep for simdjson's count (a scalar in the
        // innermost container is a level more for it): then a parser one level deeper reads it.
        internal::validation_sink sink;
        internal::scalar_parser<internal::validation_sink> slow(data + first, last - first, options_.limits, sink,
                                                                parser.scopes);
        error e = slow.parse_document();
        bool read = false;
        if (e.ok()) {
          const uint8_t *doc = data + first;
          size_t doc_length = last - first;
          if (arrow::widen_big_integers(doc, doc_length, parser.widened)) { // (simdjson may have met the depth first)
            doc_length = parser.widened.size();
            parser.widened.resize(doc_length + simdjson::SIMDJSON_PADDING, 0);
            doc = parser.widened.data();
            parsed = parser.fit(parser.dom, doc_length, depth) ? parser.dom.parse(doc, doc_length, false).get(root)
                                                               : simdjson::MEMALLOC;
          }
          read = parsed == simdjson::SUCCESS ||
                 (parsed == simdjson::DEPTH_ERROR && parser.fit(parser.deep, doc_length, depth + 1) &&
                  parser.deep.parse(doc, doc_length, false).get(root) == simdjson::SUCCESS);
        }
        if (!read) {
          if constexpr (lenient) {
            on_bad(line);
            continue;
          }
          b.error = e.ok() ? arrow_error{error_code::unsupported_value, first, b.records, "", "", ""}
                           : arrow_error{e.code, first + e.offset, b.records, "", "", ""};
          return;
        }
      }
      mismatch why;
      if (!on_record(root, why, line)) {
        const size_t at = first + offset_of(data + first, last - first, why.path);
        // An integer past 64 bits was read as a double (see above): named as it is in the input.
        static constexpr std::string_view fraction = "a number with a fraction or an exponent";
        if (const size_t found = why.reason.find(fraction);
            found != std::string::npos && arrow::big_integer_length(data + at) != 0) {
          why.reason.replace(found, fraction.size(), "an integer past 64 bits");
        }
        b.error = {why.reason == out_of_stack ? error_code::depth_limit : error_code::type_mismatch, at, b.records,
                   why.path, why.reason, ""};
        return;
      }
    }
  }

  /**
   * The first error in the input's order, its record number made global (every block before it
   * read all its records); none where every block read.
   */
  arrow_error first_error() { return first_error_of(blocks_); }

  template <typename Blocks> static arrow_error first_error_of(Blocks &blocks) {
    uint64_t before = 0;
    for (block &b : blocks) {
      if (!b.error.ok()) {
        arrow_error e = b.error;
        if (e.record != 0) { e.record += before; }
        e.message = message(e);
        return e;
      }
      before += b.records;
    }
    return {};
  }

  static std::string message(arrow_error &e) {
    if (e.detail.empty()) {
      e.detail = e.code == error_code::unsupported_value
                     ? "a number past the double range, or a lone surrogate escape (which no UTF-8 string holds)"
                     : error_message(e.code);
    }
    std::string m = e.record != 0 ? "record " + std::to_string(e.record) : std::string("input");
    if (!e.path.empty()) { m += ", field " + e.path; }
    return m + ": " + e.detail + " at byte " + std::to_string(e.offset);
  }

  std::vector<block> &blocks() { return blocks_; }
  /** Whether bad records are kept or dropped. */
  bool lenient() const { return options_.on_bad_record != bad_records::fail; }
  const arrow_read_options &options() const { return options_; }

private:
  const uint8_t *data_;
  size_t size_;
  arrow_read_options options_;
  std::vector<block> blocks_;
  std::vector<uint8_t> last_copy_;
};

/**
 * A record's types merged into `into` (inference); false with `why` where it conflicts or is not
 * an object. With `changes` (bad records kept or dropped), such a record is a bad one instead:
 * counted in `bad`, whatever it had merged taken back, and the result true.
 */
bool merge_record(field &into, element root, mismatch &why, std::string &path, schema_changes *changes,
                  uint64_t &bad) {
  if (root.type() != element_type::OBJECT) {
    if (changes != nullptr) {
      bad++;
      return true;
    }
    why.reason = std::string("a record must be an object, found ") + json_type_name(root);
    return false;
  }
  if (changes != nullptr) { changes->start(); }
  if (merge_type(into, root, path, why.reason, stack_floor(), changes)) { return true; }
  if (changes != nullptr && why.reason != out_of_stack) {
    changes->undo(into);
    path.clear();
    why.reason.clear();
    bad++;
    return true;
  }
  why.path = path;
  return false;
}

/**
 * Block b's records inferred into `into`, from b's first record. Where bad records are kept or
 * dropped, one that is not JSON, not an object, past a limit, or of types that conflict with
 * those before it is counted in b.bad and adds nothing; else it is b.error.
 */
void infer_records(reader &r, record_parser &parser, block &b, field &into) {
  std::string path;
  b.records = 0;
  b.bad = 0;
  b.error = {};
  if (!r.lenient()) {
    uint64_t none = 0;
    r.read_records(parser, b, nullptr, [&](element root, mismatch &why, std::string_view) {
      return merge_record(into, root, why, path, nullptr, none);
    });
    return;
  }
  schema_changes changes;
  r.read_records(
      parser, b, nullptr,
      [&](element root, mismatch &why, std::string_view) {
        return merge_record(into, root, why, path, &changes, b.bad);
      },
      [&](std::string_view) { b.bad++; }, [](int64_t, std::string_view) {});
}

/** The types of block b's records into b.inferred (its error, if any, in b.error). */
void infer_block(reader &r, record_parser &parser, block &b) {
  b.inferred = arrow::named("", kind::structure);
  infer_records(r, parser, b, b.inferred);
}

/**
 * Merges block b's inferred types into `schema`, the blocks before it merged already. Where they
 * conflict, or b has an error, b is read again from the types so far, which finds what reading
 * the input in order finds first (a conflict with an earlier block may come before the block's
 * own error): that is b.error, and the result false; or, where bad records are kept or dropped,
 * the conflicting records are bad ones, and `schema` the types of the others.
 */
bool merge_block(reader &r, block &b, field &schema) {
  const field before = schema;
  if (b.error.ok() && merge_fields(schema, b.inferred)) { return true; }
  field so_far = before;
  record_parser parser;
  infer_records(r, parser, b, so_far);
  if (!r.lenient() || !b.error.ok()) { return false; }
  schema = std::move(so_far);
  return true;
}

/** Inference's bad records in `blocks`. */
template <typename Blocks> uint64_t bad_in(const Blocks &blocks) {
  uint64_t bad = 0;
  for (const block &b : blocks) { bad += b.bad; }
  return bad;
}

/**
 * Where bad records are kept with a corrupt-record field and inference met `bad` of them, that
 * field (a string) appended to the inferred schema, as Spark infers it; else nothing.
 */
void add_corrupt_field(field &schema, uint64_t bad, const arrow_read_options &o) {
  if (o.on_bad_record != bad_records::keep || o.corrupt_record_field.empty() || bad == 0) { return; }
  if (schema.by_name.find(schema.children, o.corrupt_record_field) != schema.children.size()) { return; }
  schema.children.push_back(arrow::named(o.corrupt_record_field, kind::utf8));
}

arrow_error infer(reader &r, field &schema) {
  r.each_block([&](record_parser &parser, block &b) { infer_block(r, parser, b); });
  schema = arrow::named("", kind::structure);
  schema.nullable = false;
  for (block &b : r.blocks()) {
    if (!merge_block(r, b, schema)) { return r.first_error(); }
  }
  add_corrupt_field(schema, bad_in(r.blocks()), r.options());
  return {};
}

/** The record batches, handed out in order by an ArrowArrayStream. */
struct batch_stream {
  field schema;  // as the caller named it
  field reading; // the batches' (see reading_schema)
  std::vector<std::unique_ptr<column>> batches;
  size_t next = 0;
};

int stream_get_schema(ArrowArrayStream *stream, ArrowSchema *out) {
  auto *s = static_cast<batch_stream *>(stream->private_data);
  try {
    arrow::export_schema(s->schema, out);
    return 0;
  } catch (...) {
    return ENOMEM;
  }
}

int stream_get_next(ArrowArrayStream *stream, ArrowArray *out) {
  auto *s = static_cast<batch_stream *>(stream->private_data);
  if (s->next == s->batches.size()) {
    std::memset(out, 0, sizeof *out); // the end: a released array
    return 0;
  }
  try {
    s->batches[s->next]->export_to(out);
    s->batches[s->next].reset();
    s->next++;
    return 0;
  } catch (...) {
    return ENOMEM;
  }
}

const char *stream_get_last_error(ArrowArrayStream *) { return nullptr; } // errors come before the stream

void stream_release(ArrowArrayStream *stream) {
  if (stream == nullptr || stream->release == nullptr) { return; }
  delete static_cast<batch_stream *>(stream->private_data);
  stream->release = nullptr;
}

/** Hands the batches over as `out`, which owns them from then on. */
arrow_error publish(std::unique_ptr<batch_stream> s, ArrowArrayStream *out) {
  out->get_schema = stream_get_schema;
  out->get_next = stream_get_next;
  out->get_last_error = stream_get_last_error;
  out->release = stream_release;
  out->private_data = s.release();
  return {};
}

arrow_error out_of_memory() {
  arrow_error e;
  e.code = error_code::out_of_memory;
  e.detail = e.message = "out of memory";
  return e;
}

/**
 * The arbiter's read of a block where bad records are kept or dropped: a kept record that is
 * not valid JSON or not an object is a row of nulls; the corrupt-record field (see
 * reading_schema) takes a kept bad record's line.
 */
void read_leniently(reader &r, record_parser &parser, block &b, record_walker &walker,
                    const arrow_read_options &options) {
  column &batch = *b.batch;
  column *corrupt = nullptr;
  if (!options.corrupt_record_field.empty()) {
    const auto found = batch.names.find(corrupt_name(options.corrupt_record_field));
    if (found != batch.names.end()) { corrupt = &batch.children[found->second]; }
  }
  const bool keep = options.on_bad_record == bad_records::keep;
  // A record read with bad values (their fields null), at `row`: kept with its line, or dropped.
  const auto partly_bad = [&](int64_t row, std::string_view line) {
    if (!keep) {
      batch.truncate(row);
    } else if (corrupt != nullptr) {
      corrupt->truncate(row);
      corrupt->fill_to(row);
      corrupt->append_valid();
      corrupt->values.append(line.data(), line.size());
      corrupt->push_offset(int64_t(corrupt->values.size()));
    }
  };
  // A record not read at all (not valid JSON, or not an object): a row of nulls, or nothing.
  const auto unread = [&](std::string_view line) {
    if (!keep) { return; }
    const int64_t row = batch.length;
    batch.append_valid(); // (its fields lag: null)
    partly_bad(row, line);
  };
  r.read_records(
      parser, b, &batch,
      [&](element root, mismatch &why, std::string_view line) {
        simdjson::dom::object o;
        if (root.get(o) != simdjson::SUCCESS) {
          unread(line);
          return true;
        }
        const int64_t row = batch.length;
        walker.bad = false;
        if (!walker.append_object(batch, o, why)) { return false; } // (only a string column past 2 GB)
        if (walker.bad) { partly_bad(row, line); }
        return true;
      },
      unread, partly_bad);
}

/**
 * One block into its batch: the block reader first; where it refuses, the record-at-a-time
 * reader again from an empty batch (which names any error). With `sampled`, a refusal is not
 * read again: false says the schema did not fit.
 */
bool read_one_block(reader &r, record_parser &parser, block &b, const field &schema, const arrow_read_options &options,
                    bool sampled) {
  arrow_read_options strict = options;
  strict.error_on_unknown_fields = options.error_on_unknown_fields || sampled;
  try {
    if (parser.previous != nullptr && parser.previous->records > 0) {
      const double scale = double(b.end - b.begin) / double(parser.previous->end - parser.previous->begin);
      b.batch->reserve_like(*parser.previous->batch, scale * 1.05);
    }
    parser.previous = &b;
    if (!options.reference_reader &&
        record_parser::fit(parser.dom, b.end - b.begin, std::max<uint32_t>(options.limits.max_depth, 1)) &&
        arrow::read_block(parser.dom, b.bytes, b.end - b.begin, strict, *b.batch, b.records, parser.scratch)) {
      return true;
    }
    if (sampled) { return false; }
    *b.batch = column(schema);
    b.records = 0;
    record_walker walker(options);
    if (options.on_bad_record == bad_records::fail) {
      r.read_records(parser, b, b.batch, [&](element root, mismatch &why, std::string_view) {
        simdjson::dom::object o;
        if (root.get(o) != simdjson::SUCCESS) {
          why.reason = std::string("a record must be an object, found ") + json_type_name(root);
          return false;
        }
        return walker.append_object(*b.batch, o, why);
      });
    } else {
      read_leniently(r, parser, b, walker, options);
    }
  } catch (const std::bad_alloc &) {
    b.error = {error_code::out_of_memory, b.begin, 0, "", "out of memory", ""};
  }
  return true;
}

/**
 * Reads every block into a batch of `schema` (in `batches`, one per block). With `sampled` (a
 * schema inferred from the first block), a block that does not fit it exactly (a key it lacks,
 * a value of another type, or anything the block reader declines) is not read again: false
 * says the schema must be inferred from the whole input instead.
 */
bool read_blocks(reader &r, const field &schema, const arrow_read_options &options,
                 std::vector<std::unique_ptr<column>> &batches, bool sampled) {
  batches.clear();
  batches.resize(r.blocks().size());
  for (size_t i = 0; i < batches.size(); i++) {
    block &b = r.blocks()[i];
    b.records = 0;
    b.error = {};
    batches[i] = std::make_unique<column>(schema);
    b.batch = batches[i].get();
  }
  std::atomic<bool> misfit{false};
  r.each_block([&](record_parser &parser, block &b) {
    if (!misfit && !read_one_block(r, parser, b, schema, options, sampled)) { misfit = true; }
  });
  return !misfit;
}

/**
 * Whether the line in [0, size) of `bytes` (padding past it), with no end yet, goes wrong before
 * its bytes end (internal::fails_before_its_end). Needs 3 bytes: the checks of a document's
 * first bytes read that many.
 */
bool open_line_fails(const uint8_t *bytes, size_t size, const parser_options &limits) {
  if (size < 3) { return false; }
  stream_reader probe(input{}, stream_format::lines, limits);
  return internal::fails_before_its_end(probe, input::padded(bytes, size, size + padding), false);
}

/**
 * A file's blocks, read one after another into the caller's buffer, cut where reader::cut cuts
 * the same bytes (the first line end past every block_size bytes; a tail under 128 bytes joins
 * the block before it), each followed by 128 zero bytes. A regular file is read with pread from
 * its start; anything else (a pipe, a device) with read from where it is, its size unknown until
 * it ends. A line with no end yet is read as it is once the block holds two steps and twice the
 * last such try (as block_reader reads a record): an error before its bytes end makes the block
 * the file's last, so that bytes that are not JSON (a device of zeros) are an error within a few
 * blocks rather than read into memory to a line end that may never come.
 */
class file_blocks {
public:
  file_blocks(int fd, uint64_t size, bool regular, size_t block_size, const parser_options &limits)
      : fd_(fd), size_(regular ? size : UINT64_MAX), regular_(regular), step_(std::max<size_t>(block_size, 1)),
        limits_(limits) {}

  /**
   * The next block into `buf` (its bytes `length`, from file offset `begin`, and where the file
   * is not regular, its lines before it `lines`); false at the end or on a failed read (`failed`).
   */
  bool next(std::vector<uint8_t> &buf, size_t &length, uint64_t &begin, int &failed, line_count *lines = nullptr) {
    constexpr size_t tail = 128;
    if (pos_ >= size_) { return false; }
    begin = pos_;
    buf.assign(carry_.begin(), carry_.end());
    carry_.clear();
    if (!fill(buf, std::min<uint64_t>(size_ - pos_, step_), failed)) { return false; }
    if (buf.empty()) { return false; } // (not a regular file: it ended here)
    size_t end = buf.size();
    if (pos_ + step_ < size_) {
      size_t tried = 0; // the block size at the last try of its open line
      for (size_t from = step_;;) {
        if (const void *nl = std::memchr(buf.data() + from, '\n', buf.size() - from)) {
          end = size_t(static_cast<const uint8_t *>(nl) - buf.data()) + 1;
          break;
        }
        from = buf.size();
        if (pos_ + buf.size() >= size_) {
          end = buf.size();
          break;
        }
        if (internal::due_a_try(buf.size(), step_, tried)) {
          tried = buf.size();
          const uint8_t *nl = static_cast<const uint8_t *>(memrchr(buf.data(), '\n', step_));
          const size_t line = nl != nullptr ? size_t(nl - buf.data()) + 1 : 0;
          buf.resize(buf.size() + padding, 0);
          const bool fails = open_line_fails(buf.data() + line, buf.size() - padding - line, limits_);
          buf.resize(buf.size() - padding);
          if (fails) { // the file's last block: nothing past it is read
            size_ = pos_ + buf.size();
            end = buf.size();
            break;
          }
        }
        if (!fill(buf, std::min<uint64_t>(size_ - pos_, buf.size() + (size_t(1) << 16)), failed)) { return false; }
      }
    }
    if (!regular_ && size_ == UINT64_MAX && !fill(buf, end + tail, failed)) { return false; } // whether a tail is left
    if (size_ - (pos_ + end) < tail) {
      if (!fill(buf, size_ - pos_, failed)) { return false; }
      end = buf.size();
    }
    carry_.assign(buf.begin() + std::ptrdiff_t(end), buf.end());
    length = end;
    buf.resize(end);
    buf.resize(end + tail, 0);
    if (lines != nullptr) { *lines = lines_; }
    if (!regular_) { lines_.add(buf.data(), end); } // (a regular file is read again for them)
    pos_ += end;
    return true;
  }

  /** Whether a block may follow (the bytes read so far end before the file does, or its end is not known). */
  bool more() const noexcept { return pos_ < size_; }

private:
  /** Reads until `buf` holds `want` bytes from pos_ (fewer at the end of the file, which then ends there). */
  bool fill(std::vector<uint8_t> &buf, uint64_t want, int &failed) {
    size_t have = buf.size();
    if (have >= want) { return true; }
    buf.resize(size_t(want)); // once: a pipe gives 64 KB a read
    while (have < want) {
      const ssize_t got = regular_ ? ::pread(fd_, buf.data() + have, size_t(want) - have, off_t(pos_ + have))
                                   : ::read(fd_, buf.data() + have, size_t(want) - have);
      if (got < 0 && errno == EINTR) { continue; }
      if (got < 0) {
        buf.resize(have);
        failed = errno;
        return false;
      }
      if (got == 0) { // the file ended (sooner than its size said)
        size_ = pos_ + have;
        break;
      }
      have += size_t(got);
    }
    buf.resize(have);
    return true;
  }

  int fd_;
  uint64_t size_; // UINT64_MAX: not known yet
  bool regular_;
  size_t step_;
  parser_options limits_;
  uint64_t pos_ = 0;
  std::vector<uint8_t> carry_; // bytes read past the last block
  line_count lines_;           // the lines before pos_
};

/** A failed read of a file (`failed` its errno) at byte `at`. */
arrow_error read_failure(int failed, uint64_t at) {
  arrow_error e;
  e.code = error_code::read_failed;
  e.offset = at;
  e.detail = std::string("the file could not be read: ") + std::strerror(failed);
  e.message = e.detail + " at byte " + std::to_string(at);
  return e;
}

/**
 * The block of `length` bytes at `bytes`, from file offset `begin`, appended to `blocks` and
 * given to `take` (which may throw std::bad_alloc).
 */
template <typename Take>
block &append_block(std::deque<block> &blocks, uint64_t begin, size_t length, const uint8_t *bytes, Take &take) {
  block &b = blocks.emplace_back();
  b.begin = begin;
  b.end = begin + length;
  b.bytes = bytes;
  take(b);
  return b;
}

/** One job at a time run on a thread of its own (started at the first), and waited for. */
class helper_thread {
public:
  helper_thread() = default;
  helper_thread(const helper_thread &) = delete;
  helper_thread &operator=(const helper_thread &) = delete;
  ~helper_thread() {
    {
      std::lock_guard<std::mutex> hold(lock_);
      quit_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) { thread_.join(); } // (after the job it has)
  }

  /** Runs `job` there, or here where no thread can be started; wait() before the next. */
  void run(std::function<void()> job) {
    {
      std::lock_guard<std::mutex> hold(lock_);
      job_ = std::move(job);
      pending_ = true;
    }
    if (thread_.joinable()) {
      changed_.notify_all();
      return;
    }
    try {
      thread_ = std::thread([this] { loop(); });
    } catch (const std::system_error &) {
      std::function<void()> here = std::move(job_);
      pending_ = false;
      here();
    }
  }

  void wait() {
    std::unique_lock<std::mutex> hold(lock_);
    changed_.wait(hold, [this] { return !pending_; });
  }

private:
  void loop() {
    std::unique_lock<std::mutex> hold(lock_);
    for (;;) {
      changed_.wait(hold, [this] { return pending_ || quit_; });
      if (!pending_) { return; }
      std::function<void()> job = std::move(job_);
      hold.unlock();
      job();
      hold.lock();
      pending_ = false;
      changed_.notify_all();
    }
  }

  std::mutex lock_;
  std::condition_variable changed_;
  std::function<void()> job_;
  bool pending_ = false;
  bool quit_ = false;
  std::thread thread_;
};

/**
 * each_file_block on one thread: the blocks worked here in turn while a helper thread reads the
 * next one, so that reading the file (a copy out of the page cache, or the disk's wait) overlaps
 * the work instead of adding to it.
 */
template <typename Take, typename Work>
void each_file_block_read_ahead(file_blocks &source, bool count_lines, std::deque<block> &blocks, int &failed,
                                uint64_t &failed_at, Take &&take, Work &&work) {
  struct fetched {
    bool got = false;
    bool out_of_memory = false;
    int failed = 0;
    size_t length = 0;
    uint64_t begin = 0;
  };
  std::vector<uint8_t> buffers[2];
  line_count lines[2];
  fetched current, ahead;
  auto fetch = [&](int k, fetched &into) {
    try {
      into.got = source.next(buffers[k], into.length, into.begin, into.failed, count_lines ? &lines[k] : nullptr);
    } catch (const std::bad_alloc &) {
      into.out_of_memory = true;
    }
  };
  record_parser parser;
  helper_thread helper; // (after what its job uses: its end waits for the job)
  fetch(0, current);
  for (int k = 0;; k = 1 - k) {
    if (current.out_of_memory) {
      failed = ENOMEM;
      return;
    }
    if (!current.got) {
      failed = current.failed;
      failed_at = current.begin;
      return;
    }
    block *b;
    try {
      b = &append_block(blocks, current.begin, current.length, buffers[k].data(), take);
    } catch (const std::bad_alloc &) {
      failed = ENOMEM;
      return;
    }
    const bool more = source.more();
    ahead = fetched{};
    if (more) {
      helper.run([&fetch, &ahead, next = 1 - k] { fetch(next, ahead); });
    }
    const bool go_on = work(parser, *b, buffers[k], lines[k]);
    helper.wait();
    if (!go_on || !more) { return; } // (a block read ahead of a failed one is dropped)
    current = ahead;
  }
}

/**
 * A file's blocks (`source`) taken in order by the threads asked for, each into its own buffer
 * (reused), where `work(parser, block, buffer, lines)` reads it outside the lock; false stops
 * the read (the blocks taken before it are worked to their end). Each block is appended to
 * `blocks` under the lock, where `take(block)` adds to it what the caller keeps (which may
 * throw std::bad_alloc); with `count_lines`, `lines` are the lines before the block. A failed
 * read, or memory that ran out, sets `failed` (ENOMEM for the latter) and `failed_at`.
 */
template <typename Take, typename Work>
void each_file_block(file_blocks &source, unsigned threads, bool count_lines, std::deque<block> &blocks, int &failed,
                     uint64_t &failed_at, Take &&take, Work &&work) {
  if (threads <= 1) {
    each_file_block_read_ahead(source, count_lines, blocks, failed, failed_at, take, work);
    return;
  }
  std::mutex lock;
  bool stop = false;
  auto run = [&] {
    record_parser parser;
    std::vector<uint8_t> buf;
    line_count lines;
    for (;;) {
      block *b;
      {
        std::lock_guard<std::mutex> hold(lock);
        size_t length = 0;
        uint64_t begin = 0;
        if (stop) { return; }
        try {
          if (!source.next(buf, length, begin, failed, count_lines ? &lines : nullptr)) {
            stop = true;
            failed_at = begin;
            return;
          }
          b = &append_block(blocks, begin, length, buf.data(), take);
        } catch (const std::bad_alloc &) {
          stop = true;
          failed = ENOMEM;
          return;
        }
      }
      if (!work(parser, *b, buf, lines)) {
        std::lock_guard<std::mutex> hold(lock);
        stop = true; // (blocks before this one are worked to their end)
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::max(1u, threads); t++) { pool.emplace_back(run); }
  run();
  for (std::thread &t : pool) { t.join(); }
}

/**
 * The bytes of a pipe (or anything else that cannot be read again) into `copy`, followed by
 * SIMDBRIDGE_PADDING zero bytes, and the schema of its records into `schema`. Its blocks are
 * inferred on the threads asked for as they are read (file_blocks), so that a block whose
 * records fail stops the read there, and merged in order once it ends (merge_block, as infer
 * merges them). The error comes with its line and column.
 */
arrow_error infer_pipe(int fd, const arrow_read_options &options, field &schema, std::vector<uint8_t> &copy) {
  file_blocks source(fd, 0, false, options.block_size, options.limits);
  reader r(nullptr, 0, options);
  std::deque<block> blocks;
  int failed = 0;
  uint64_t failed_at = 0;
  each_file_block(
      source, options.threads, false, blocks, failed, failed_at,
      [&](block &b) { copy.insert(copy.end(), b.bytes, b.bytes + (b.end - b.begin)); },
      [&](record_parser &parser, block &b, std::vector<uint8_t> &, line_count &) {
        infer_block(r, parser, b);
        return b.error.ok();
      });
  const size_t length = copy.size();
  copy.resize(length + SIMDBRIDGE_PADDING, 0);
  schema = arrow::named("", kind::structure);
  schema.nullable = false;
  for (block &b : blocks) {
    b.bytes = copy.data() + b.begin; // (merge_block may read a block again)
    if (!merge_block(r, b, schema)) {
      arrow_error e = reader::first_error_of(blocks);
      place(e, {}, copy.data(), 0);
      return e;
    }
  }
  if (failed != 0) { return failed == ENOMEM ? out_of_memory() : read_failure(failed, failed_at); }
  add_corrupt_field(schema, bad_in(blocks), options);
  copy.resize(length);
  return {};
}

/**
 * The line and column of an error's offset in a regular file, counted by reading the file again
 * up to it a MB at a time (its blocks were not kept). Left at 0 where the error has no offset in
 * the file or the file cannot be read again.
 */
void place_in_file(arrow_error &e, int fd) {
  if (e.ok() || e.line != 0 || e.code == error_code::invalid_argument || e.code == error_code::out_of_memory ||
      e.code == error_code::read_failed) {
    return;
  }
  std::vector<uint8_t> buf(size_t(1) << 20);
  line_count count;
  while (count.at < e.offset) {
    const ssize_t got = ::pread(fd, buf.data(), size_t(std::min<uint64_t>(buf.size(), e.offset - count.at)),
                                off_t(count.at));
    if (got < 0 && errno == EINTR) { continue; }
    if (got <= 0) { return; }
    count.add(buf.data(), size_t(got));
  }
  e.line = count.line();
  e.column = count.column(e.offset);
}

/**
 * The whole of a file into `out`: a regular file from its start (pread), anything else (a pipe,
 * a terminal) from where it is to its end (read). Returns 0, or the errno of a failed read. Its
 * last line, with no end yet, is read as it is each time `out` doubles (open_line_fails): an
 * error before its bytes end stops the read there, the error it is wherever the line ends.
 */
int read_all(int fd, bool from_start, const parser_options &limits, std::vector<uint8_t> &out) {
  out.clear();
  size_t size = 0; // bytes read into out (which holds room past them: a pipe gives 64 KB a read)
  size_t line = 0;  // where the last line starts
  size_t tried = 0; // its length at the last try (0: none yet)
  for (;;) {
    if (out.size() < size + (size_t(1) << 16) + padding) {
      out.resize(std::max<size_t>(size * 2, size_t(1) << 16) + padding);
    }
    const size_t room = out.size() - padding - size;
    const ssize_t got =
        from_start ? ::pread(fd, out.data() + size, room, off_t(size)) : ::read(fd, out.data() + size, room);
    if (got < 0 && errno == EINTR) { continue; }
    if (got <= 0) {
      out.resize(size);
      return got < 0 ? errno : 0;
    }
    const size_t before = size;
    size += size_t(got);
    if (const void *nl = memrchr(out.data() + before, '\n', size_t(got))) {
      line = size_t(static_cast<const uint8_t *>(nl) - out.data()) + 1;
      tried = 0;
    } else if (internal::due_a_try(size - line, size_t(1) << 16, tried)) {
      tried = size - line;
      std::memset(out.data() + size, 0, padding);
      if (open_line_fails(out.data() + line, size - line, limits)) {
        out.resize(size);
        return 0;
      }
    }
  }
}

/**
 * A file read with a schema, block by block, on the threads asked for; each thread reuses its
 * buffer. With `sampled` (a schema inferred from the first block), a block that does not fit
 * stops the read and sets `misfit`.
 */
arrow_error read_file(int fd, uint64_t size, bool regular, const field &schema, const arrow_read_options &options,
                      std::unique_ptr<batch_stream> &s, bool sampled, bool &misfit) {
  file_blocks source(fd, size, regular, options.block_size, options.limits);
  reader r(nullptr, 0, options);
  std::deque<block> blocks;
  std::vector<std::unique_ptr<column>> batches;
  int failed = 0;
  uint64_t failed_at = 0;
  std::atomic<bool> misfits{false};
  each_file_block(
      source, options.threads, !regular, blocks, failed, failed_at,
      [&](block &b) {
        batches.push_back(std::make_unique<column>(schema));
        b.batch = batches.back().get();
      },
      [&](record_parser &parser, block &b, std::vector<uint8_t> &buf, line_count &lines) {
        const bool fits = read_one_block(r, parser, b, schema, options, sampled);
        // Where the file cannot be read again (a pipe), its error's line and column, while its
        // block is here.
        if (!regular) { place(b.error, lines, buf.data(), b.begin); }
        if (!fits) { misfits = true; }
        return fits && b.error.ok(); // (the first error in order is reported)
      });
  misfit = misfit || misfits;
  if (misfit) { return {}; }
  if (arrow_error e = reader::first_error_of(blocks); !e.ok()) { return e; }
  if (failed != 0) { return failed == ENOMEM ? out_of_memory() : read_failure(failed, failed_at); }
  s->batches = std::move(batches);
  return {};
}

arrow_error usage(const std::string &why);

/**
 * The schema a given one is read as: the same, but for the corrupt-record field (where the
 * schema has it), renamed by corrupt_name. It must be a string.
 */
arrow_error reading_schema(const field &given, const arrow_read_options &options, field &reading) {
  reading = given;
  if (options.corrupt_record_field.empty()) { return {}; }
  for (field &f : reading.children) {
    if (f.name != options.corrupt_record_field) { continue; }
    if (f.type != kind::utf8 && f.type != kind::large_utf8) {
      return usage("the corrupt-record field '" + f.name + "' must be a string (utf8), not " + arrow::describe(f));
    }
    f.name = corrupt_name(f.name);
  }
  return {};
}

/**
 * The read of `in` into `out`: with the `given` schema, or else with the schema `inferred`
 * from all of it already, or else inferred here. Where bad records are kept or dropped, an
 * inferred schema is read as a given one (its corrupt-record field taking the bad lines).
 */
arrow_error read_into(const input &in, const field *given, const arrow_read_options &options,
                      ArrowArrayStream *out, const field *inferred = nullptr) {
  reader r(in.data, in.size, options);
  r.cut();
  auto s = std::make_unique<batch_stream>();
  std::vector<std::unique_ptr<column>> batches;
  field inferred_here;
  if (given == nullptr && r.lenient()) {
    if (inferred == nullptr) {
      if (arrow_error e = infer(r, inferred_here); !e.ok()) { return e; }
      inferred = &inferred_here;
    }
    given = inferred;
  }
  if (given != nullptr) {
    s->schema = *given;
    if (arrow_error e = reading_schema(*given, options, s->reading); !e.ok()) { return e; }
    read_blocks(r, s->reading, options, batches, false);
  } else if (inferred != nullptr) {
    s->schema = *inferred;
    read_blocks(r, s->schema, options, batches, false);
  } else {
    // Inferred from the first block, then every record checked to fit that schema exactly as
    // it is read: for data of one shape, inference costs a block's read. Where a record does
    // not fit, the schema is inferred from the whole input, which is read again.
    bool fitted = false;
    if (r.blocks().size() > 1 && !options.reference_reader) {
      reader first(in.data, r.blocks()[0].end, options);
      first.cut();
      fitted = infer(first, s->schema).ok() && read_blocks(r, s->schema, options, batches, true);
    }
    if (!fitted) {
      if (arrow_error e = infer(r, s->schema); !e.ok()) { return e; }
      read_blocks(r, s->schema, options, batches, false);
    }
  }
  if (arrow_error e = r.first_error(); !e.ok()) { return e; }
  s->batches = std::move(batches);
  return publish(std::move(s), out);
}

const field *find_kind(const field &f, kind k) {
  if (f.type == k) { return &f; }
  for (const field &c : f.children) {
    if (const field *found = find_kind(c, k)) { return found; }
  }
  return nullptr;
}

arrow_error usage(const std::string &why) {
  arrow_error e;
  e.code = error_code::invalid_argument;
  e.detail = e.message = why;
  return e;
}

/** A caller's schema as the reader's field: a struct of types it reads. */
arrow_error import_given(const ArrowSchema &schema, field &given) {
  std::string why;
  if (!arrow::import_schema(schema, given, why)) { return usage(why); }
  if (given.type != kind::structure) { return usage("the schema must be a struct (format \"+s\") of the record's fields"); }
  if (const field *view = find_kind(given, kind::utf8_view)) {
    return usage("field '" + view->name + "' is a string_view, which this reader writes but does not read yet: use string");
  }
  return {};
}

} // namespace

/**
 * The options a read runs under: max_depth at most the default. Inference, the readers, the types
 * they make and their export and release each take a level of recursion per level of nesting,
 * and an Arrow type nested thousands deep is one no consumer reads: a record nested past it is
 * the depth limit's error.
 */
static arrow_read_options bounded(const arrow_read_options &options) {
  arrow_read_options o = options;
  o.limits.max_depth = std::min<uint32_t>(o.limits.max_depth, SIMDBRIDGE_DEFAULT_MAX_DEPTH);
  return o;
}

arrow_error ndjson_to_arrow(input in, const ArrowSchema *schema, const arrow_read_options &given_options,
                            ArrowArrayStream *out) noexcept {
  const arrow_read_options options = bounded(given_options);
  if (out == nullptr || !in.well_formed()) { return usage("invalid argument"); }
  out->release = nullptr;
  try {
    field given;
    if (schema != nullptr) {
      if (arrow_error e = import_given(*schema, given); !e.ok()) { return e; }
    }
    return read_into(in, schema != nullptr ? &given : nullptr, options, out);
  } catch (const std::bad_alloc &) {
    return out_of_memory();
  } catch (...) {
    return usage("unexpected failure");
  }
}

/** ndjson_file_to_arrow of a file whose stat is `st`, its error not yet placed in a regular file. */
static arrow_error file_to_arrow(int fd, const struct stat &st, const ArrowSchema *schema,
                                 const arrow_read_options &options, ArrowArrayStream *out) noexcept {
  const uint64_t size = uint64_t(st.st_size);
  if (schema == nullptr && !options.reference_reader && options.on_bad_record == bad_records::fail &&
      S_ISREG(st.st_mode) && size > options.block_size) {
    // Inferred from the first block, then every record checked to fit as it is read (see
    // read_into); where one does not, the file is read as bytes below, inferred whole.
    try {
      std::vector<uint8_t> first_block;
      size_t length = 0;
      uint64_t begin = 0;
      int failed = 0;
      file_blocks source(fd, size, true, options.block_size, options.limits);
      auto s = std::make_unique<batch_stream>();
      bool misfit = false;
      if (source.next(first_block, length, begin, failed)) {
        reader first(first_block.data(), length, options);
        first.cut();
        if (infer(first, s->schema).ok()) {
          arrow_error e = read_file(fd, size, true, s->schema, options, s, true, misfit);
          if (!misfit) {
            if (!e.ok()) { return e; }
            return publish(std::move(s), out);
          }
        }
      }
    } catch (const std::bad_alloc &) {
      // (read as bytes below)
    }
  }
  if (schema == nullptr && !S_ISREG(st.st_mode)) {
    // Inferred from a pipe, which cannot be read again: each block inferred as it comes, so that
    // an error stops the read at its block, and kept; then read as bytes with that schema.
    std::vector<uint8_t> copy;
    field inferred;
    try {
      arrow_error e = infer_pipe(fd, options, inferred, copy);
      if (!e.ok()) { return e; }
      e = read_into(input::padded(copy.data(), copy.size(), copy.size()), nullptr, options, out, &inferred);
      place(e, {}, copy.data(), 0);
      return e;
    } catch (const std::bad_alloc &) {
      return out_of_memory();
    }
  }
  if (schema == nullptr || options.reference_reader) {
    // Inferred from a regular file (which may be read twice), or the reference reader: its
    // bytes, mapped or read.
    std::vector<uint8_t> copy;
    void *mapped = MAP_FAILED;
    if (S_ISREG(st.st_mode) && size > 0) { mapped = ::mmap(nullptr, size_t(size), PROT_READ, MAP_PRIVATE, fd, 0); }
    if (mapped == MAP_FAILED) {
      int failed = 0;
      try {
        failed = read_all(fd, S_ISREG(st.st_mode), options.limits, copy);
      } catch (const std::bad_alloc &) {
        return out_of_memory();
      }
      if (failed != 0) { return read_failure(failed, copy.size()); }
    }
    const uint8_t *bytes = mapped != MAP_FAILED ? static_cast<const uint8_t *>(mapped) : copy.data();
    const size_t length = mapped != MAP_FAILED ? size_t(size) : copy.size();
    arrow_error e = ndjson_to_arrow(input::padded(bytes, length, length), schema, options, out);
    if (mapped != MAP_FAILED) { ::munmap(mapped, size_t(size)); }
    if (!S_ISREG(st.st_mode)) { place(e, {}, bytes, 0); } // (a pipe cannot be read again for them)
    return e;
  }
  try {
    field given;
    if (arrow_error e = import_given(*schema, given); !e.ok()) { return e; }
    auto s = std::make_unique<batch_stream>();
    s->schema = given;
    if (arrow_error e = reading_schema(given, options, s->reading); !e.ok()) { return e; }
    bool misfit = false;
    if (arrow_error e = read_file(fd, size, S_ISREG(st.st_mode), s->reading, options, s, false, misfit); !e.ok()) {
      return e;
    }
    return publish(std::move(s), out);
  } catch (const std::bad_alloc &) {
    return out_of_memory();
  } catch (...) {
    return usage("unexpected failure");
  }
}

arrow_error ndjson_file_to_arrow(int fd, const ArrowSchema *schema, const arrow_read_options &given_options,
                                 ArrowArrayStream *out) noexcept {
  const arrow_read_options options = bounded(given_options);
  if (out == nullptr) { return usage("invalid argument"); }
  out->release = nullptr;
  struct stat st;
  if (::fstat(fd, &st) != 0) { return read_failure(errno, 0); }
  arrow_error e = file_to_arrow(fd, st, schema, options, out);
  if (S_ISREG(st.st_mode)) { place_in_file(e, fd); }
  return e;
}

arrow_error infer_arrow_schema_file(int fd, const arrow_read_options &given_options, ArrowSchema *out) noexcept {
  const arrow_read_options options = bounded(given_options);
  if (out == nullptr) { return usage("invalid argument"); }
  out->release = nullptr;
  struct stat st;
  if (::fstat(fd, &st) != 0) { return read_failure(errno, 0); }
  const bool regular = S_ISREG(st.st_mode);
  try {
    // The blocks infer cuts over the bytes, one at a time, each inferred and merged in order as
    // infer does (infer_block, merge_block).
    file_blocks source(fd, uint64_t(st.st_size), regular, options.block_size, options.limits);
    reader r(nullptr, 0, options);
    record_parser parser;
    field schema = arrow::named("", kind::structure);
    schema.nullable = false;
    std::vector<uint8_t> buf;
    line_count lines;
    uint64_t records = 0, begin = 0;
    size_t length = 0;
    int failed = 0;
    uint64_t bad = 0;
    while (source.next(buf, length, begin, failed, &lines)) {
      block b;
      b.begin = begin;
      b.end = begin + length;
      b.bytes = buf.data();
      infer_block(r, parser, b);
      if (!merge_block(r, b, schema)) {
        arrow_error e = b.error;
        if (e.record != 0) { e.record += records; }
        e.message = reader::message(e);
        if (regular) {
          place_in_file(e, fd);
        } else {
          place(e, lines, buf.data(), b.begin);
        }
        return e;
      }
      records += b.records;
      bad += b.bad;
    }
    if (failed != 0) { return read_failure(failed, begin); }
    add_corrupt_field(schema, bad, options);
    arrow::export_schema(schema, out);
    return {};
  } catch (const std::bad_alloc &) {
    return out_of_memory();
  }
}

arrow_error infer_arrow_schema(input in, const arrow_read_options &given_options, ArrowSchema *out) noexcept {
  const arrow_read_options options = bounded(given_options);
  if (out == nullptr || !in.well_formed()) { return usage("invalid argument"); }
  out->release = nullptr;
  try {
    reader r(in.data, in.size, options);
    r.cut();
    field schema;
    if (arrow_error e = infer(r, schema); !e.ok()) { return e; }
    arrow::export_schema(schema, out);
    return {};
  } catch (const std::bad_alloc &) {
    return out_of_memory();
  }
}

std::string describe_arrow_schema(const ArrowSchema &schema) {
  field f;
  std::string why;
  if (!arrow::import_schema(schema, f, why)) { return why; }
  return arrow::describe(f);
}

} // namespace simdbridge
