// SPDX-License-Identifier: Apache-2.0
// Batch field extraction: JSON Pointers into every record of an NDJSON batch, written as columns.
//
// Each record (line) is parsed by simdjson's DOM parser, which validates it fully, then walked
// once along a trie of the pointers: a subtree no pointer enters is skipped in O(1), since a
// container's tape word holds the index past its end.
#include <cstring>
#include <string>
#include <vector>

#include <simdjson.h>

#include "checksum_sink.h"
#include "parser_state.h"
#include "scalar_parser.h"
#include "tape_walk.h"
#include "simdbridge/json_pointer.h"
#include "simdbridge/parser.h"

namespace simdbridge {

namespace {

using simdjson::internal::JSON_VALUE_MASK;

struct trie_node {
  std::string token;       // an object key, unescaped (RFC 6901's ~0 and ~1 undone)
  int64_t index = -1;      // the token as an array index, or -1 where it is not one
  std::vector<int> children;
  std::vector<int> columns; // the columns whose pointer ends here
};


enum class visit_status { ok, mismatch, string_full };

class record_walker {
public:
  record_walker(const std::vector<trie_node> &trie, column *columns, size_t count)
      : trie_(trie), columns_(columns), count_(count), row_string_start_(count) {}

  /** Clears row `row` in every column, so that a pointer leading nowhere leaves it null. */
  void begin_row(uint64_t row) {
    row_ = row;
    for (size_t c = 0; c < count_; c++) {
      column &col = columns_[c];
      col.validity[row / 8] &= uint8_t(~(1u << (row % 8)));
      switch (column_type(col.type)) {
      case column_type::int64: static_cast<int64_t *>(col.values)[row] = 0; break;
      case column_type::float64: static_cast<double *>(col.values)[row] = 0; break;
      case column_type::boolean: static_cast<uint8_t *>(col.values)[row] = 0; break;
      case column_type::string:
        row_string_start_[c] = col.string_size;
        break;
      }
    }
  }

  /** Ends the row: string offsets. */
  void end_row() {
    for (size_t c = 0; c < count_; c++) {
      column &col = columns_[c];
      if (column_type(col.type) == column_type::string) {
        static_cast<int32_t *>(col.values)[row_ + 1] = int32_t(col.string_size);
      }
    }
  }

  /** Takes back what a row that did not fit wrote into the string columns. */
  void undo_row() {
    for (size_t c = 0; c < count_; c++) {
      if (column_type(columns_[c].type) == column_type::string) { columns_[c].string_size = row_string_start_[c]; }
    }
  }

  visit_status walk(const simdjson::dom::document &doc) {
    tape_ = doc.tape.get();
    strings_ = doc.string_buf.get();
    size_t next = 0;
    return visit(1, 0, next);
  }

  int failed_column() const { return failed_column_; }

private:
  static uint8_t type_of(uint64_t word) { return uint8_t(word >> 56); }

  /** The tape index after the value at i. */
  size_t skip(size_t i) const {
    const uint64_t word = tape_[i];
    switch (type_of(word)) {
    case '{':
    case '[': return size_t(word & 0xFFFFFFFF); // the index after the matching end
    case 'l':
    case 'u':
    case 'd': return i + 2;
    default: return i + 1;
    }
  }

  std::string_view string_at(size_t i) const {
    const uint8_t *p = strings_ + (tape_[i] & JSON_VALUE_MASK);
    uint32_t length;
    std::memcpy(&length, p, sizeof length);
    return {reinterpret_cast<const char *>(p + sizeof length), length};
  }

  visit_status assign(int c, size_t i) {
    column &col = columns_[c];
    const uint64_t word = tape_[i];
    const uint8_t type = type_of(word);
    if (type == 'n') { return visit_status::ok; } // null: stays invalid
    switch (column_type(col.type)) {
    case column_type::int64:
      if (type != 'l') { return mismatch(c); }
      std::memcpy(&static_cast<int64_t *>(col.values)[row_], &tape_[i + 1], sizeof(int64_t));
      break;
    case column_type::float64: {
      double d;
      if (type == 'd') {
        std::memcpy(&d, &tape_[i + 1], sizeof d);
      } else if (type == 'l') {
        d = double(int64_t(tape_[i + 1]));
      } else if (type == 'u') {
        d = double(tape_[i + 1]);
      } else {
        return mismatch(c);
      }
      static_cast<double *>(col.values)[row_] = d;
      break;
    }
    case column_type::boolean:
      if (type != 't' && type != 'f') { return mismatch(c); }
      static_cast<uint8_t *>(col.values)[row_] = type == 't';
      break;
    case column_type::string: {
      if (type != '"') { return mismatch(c); }
      const std::string_view s = string_at(i);
      // A duplicate key overwrites: the row's string starts where the row started.
      const uint64_t start = row_string_start_[c];
      if (s.size() > col.string_capacity - start || start + s.size() > uint64_t(INT32_MAX)) {
        return visit_status::string_full;
      }
      std::memcpy(col.string_bytes + start, s.data(), s.size());
      col.string_size = start + s.size();
      break;
    }
    }
    col.validity[row_ / 8] |= uint8_t(1u << (row_ % 8));
    return visit_status::ok;
  }

  visit_status mismatch(int c) {
    failed_column_ = c;
    return visit_status::mismatch;
  }

  visit_status visit(size_t i, int node, size_t &next) {
    const trie_node &n = trie_[node];
    for (int c : n.columns) {
      if (visit_status s = assign(c, i); s != visit_status::ok) { return s; }
    }
    const uint8_t type = type_of(tape_[i]);
    if (n.children.empty() || (type != '{' && type != '[')) {
      next = skip(i);
      return visit_status::ok;
    }
    size_t j = i + 1;
    if (type == '{') {
      while (type_of(tape_[j]) != '}') {
        const std::string_view key = string_at(j);
        int child = -1;
        for (int k : n.children) {
          if (trie_[k].token.size() == key.size() && std::memcmp(trie_[k].token.data(), key.data(), key.size()) == 0) {
            child = k;
            break;
          }
        }
        if (child < 0) {
          j = skip(j + 1);
        } else if (visit_status s = visit(j + 1, child, j); s != visit_status::ok) {
          return s;
        }
      }
    } else {
      int64_t index = 0;
      while (type_of(tape_[j]) != ']') {
        int child = -1;
        for (int k : n.children) {
          if (trie_[k].index == index) {
            child = k;
            break;
          }
        }
        if (child < 0) {
          j = skip(j);
        } else if (visit_status s = visit(j, child, j); s != visit_status::ok) {
          return s;
        }
        index++;
      }
    }
    next = j + 1;
    return visit_status::ok;
  }

  const std::vector<trie_node> &trie_;
  column *columns_;
  size_t count_;
  std::vector<uint64_t> row_string_start_;
  const uint64_t *tape_ = nullptr;
  const uint8_t *strings_ = nullptr;
  uint64_t row_ = 0;
  int failed_column_ = -1;
};

/** The pointers as a trie; false (and the column in `status`) where one is not RFC 6901. */
bool build_trie(const column *columns, size_t count, std::vector<trie_node> &trie,
                extract_status &status) {
  trie.assign(1, trie_node{});
  std::vector<std::string> tokens;
  for (size_t c = 0; c < count; c++) {
    if (!parse_json_pointer(std::string_view(columns[c].pointer, columns[c].pointer_length), tokens)) {
      status.error_column = int32_t(c);
      return false;
    }
    int node = 0;
    for (const std::string &token : tokens) {
      int found = -1;
      for (int k : trie[node].children) {
        if (trie[k].token == token) { found = k; }
      }
      if (found < 0) {
        found = int(trie.size());
        trie_node child;
        child.token = token;
        child.index = json_pointer_index(token);
        trie.push_back(std::move(child));
        trie[node].children.push_back(found);
      }
      node = found;
    }
    trie[node].columns.push_back(int(c));
  }
  return true;
}

bool well_formed(const column &c) {
  const bool known = c.type >= SIMDBRIDGE_COLUMN_INT64 && c.type <= SIMDBRIDGE_COLUMN_STRING;
  const bool buffers = c.values != nullptr && c.validity != nullptr &&
                       (c.type != SIMDBRIDGE_COLUMN_STRING || c.string_bytes != nullptr || c.string_capacity == 0);
  return known && buffers && (c.pointer != nullptr || c.pointer_length == 0);
}

} // namespace

error parser::extract(input in, column *columns, size_t count, uint64_t max_rows,
                      extract_status &status) noexcept {
  status = extract_status{};
  if (!in.well_formed() || (count > 0 && columns == nullptr)) { return {error_code::invalid_argument, 0}; }
  for (size_t c = 0; c < count; c++) {
    if (!well_formed(columns[c])) {
      status.error_column = int32_t(c);
      return {error_code::invalid_argument, 0};
    }
    columns[c].string_size = 0;
    // A string column's offsets are rows + 1: the first is there even when no row is.
    if (columns[c].type == SIMDBRIDGE_COLUMN_STRING) { static_cast<int32_t *>(columns[c].values)[0] = 0; }
  }
  if (!state_) { return {error_code::out_of_memory, 0}; }
  state_->document_kept = false;
  if (!state_->fit_depth(options_.max_depth, in.size)) { return {error_code::out_of_memory, 0}; }
  try {
    std::vector<trie_node> trie;
    if (!build_trie(columns, count, trie, status)) { return {error_code::invalid_pointer, 0}; }
    const uint8_t *data = in.size > 0 ? state_->padded(in) : in.data;
    if (in.size > 0 && data == nullptr) { return {error_code::out_of_memory, 0}; }
    record_walker walker(trie, columns, count);
    size_t pos = 0;
    while (pos < in.size) {
      const void *newline = std::memchr(data + pos, '\n', in.size - pos);
      const size_t line_end = newline ? size_t(static_cast<const uint8_t *>(newline) - data) : in.size;
      const size_t next = newline ? line_end + 1 : in.size;
      size_t first = pos;
      while (first < line_end && internal::is_json_whitespace(data[first])) { first++; }
      if (first == line_end) { // a blank line is not a record
        pos = next;
        status.consumed = pos;
        continue;
      }
      if (status.rows == max_rows) { break; }
      const size_t length = line_end - pos;
      if (state_->dom.parse(data + pos, length, false).error() != simdjson::SUCCESS ||
          internal::string_past_limit(options_, length, state_->dom.doc)) {
        internal::validation_sink sink;
        internal::scalar_parser<internal::validation_sink> slow(data + pos, length, options_, sink,
                                                                state_->slow_scopes);
        error e = slow.parse_document();
        if (e.ok()) { return {error_code::unsupported_value, pos}; } // valid, but not on simdjson's tape
        e.offset += pos;
        return e;
      }
      size_t last = line_end; // the record's bytes: white space around it aside
      while (last > first && internal::is_json_whitespace(data[last - 1])) { last--; }
      if (error e = internal::length_error(options_, first, last); !e.ok()) { return e; }
      walker.begin_row(status.rows);
      const visit_status s = walker.walk(state_->dom.doc);
      if (s == visit_status::mismatch) {
        status.error_column = walker.failed_column();
        return {error_code::type_mismatch, pos};
      }
      if (s == visit_status::string_full) {
        walker.undo_row();
        if (status.rows == 0) { return {error_code::output_too_small, pos}; }
        break;
      }
      walker.end_row();
      status.rows++;
      pos = next;
      status.consumed = pos;
    }
    return {};
  } catch (...) {
    return {error_code::out_of_memory, 0};
  }
}

error parser::document_field(std::string_view pointer, column_type type, uint8_t *out,
                             size_t out_capacity, bool &present, size_t &size) noexcept {
  present = false;
  size = 0;
  if (!state_ || !state_->document_kept || out == nullptr) { return {error_code::invalid_argument, 0}; }
  try {
    // One column, one row: the extraction walk over the kept document.
    uint8_t values[16] = {};
    uint8_t validity = 0;
    column col{};
    col.pointer = pointer.data();
    col.pointer_length = pointer.size();
    col.type = int32_t(type);
    col.values = type == column_type::string ? static_cast<void *>(values) : static_cast<void *>(out);
    col.validity = &validity;
    col.string_bytes = out;
    col.string_capacity = out_capacity;
    if (!well_formed(col) || (type != column_type::string && out_capacity < (type == column_type::boolean ? 1u : 8u))) {
      return {error_code::invalid_argument, 0};
    }
    extract_status status;
    std::vector<trie_node> trie;
    if (!build_trie(&col, 1, trie, status)) { return {error_code::invalid_pointer, 0}; }
    record_walker walker(trie, &col, 1);
    walker.begin_row(0);
    switch (walker.walk(state_->dom.doc)) {
    case visit_status::mismatch: return {error_code::type_mismatch, 0};
    case visit_status::string_full: return {error_code::output_too_small, 0};
    case visit_status::ok: break;
    }
    present = validity & 1;
    size = type == column_type::string ? size_t(col.string_size) : 0;
    return {};
  } catch (...) {
    return {error_code::out_of_memory, 0};
  }
}

} // namespace simdbridge
