// SPDX-License-Identifier: Apache-2.0
#include "block_walk.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string_view>

#include "big_integer.h"
#include "decimal.h"
#include "scalar_parser.h"
#include "stream/newlines.h"
#include "structural_walk.h"
#include "temporal.h"

namespace simdbridge::arrow {

namespace {

using internal::atom_at;
using internal::parse_number_at;
using internal::parsed_number;

/**
 * The first `c` in [p, p + n), or null. A short run (most keys and values) is scanned 16 bytes a
 * step inline, reading up to 15 bytes past it (a block is followed by 128 readable bytes); from
 * 64 bytes on, memchr, whose call then costs less than the scan. (memchr for every string was
 * 12% of a projection's read of GH Archive, most of it the calls.)
 */
inline const uint8_t *find_byte(const uint8_t *p, size_t n, uint8_t c) noexcept {
#if defined(__SSE2__)
  if (n <= 64) {
    const __m128i wanted = _mm_set1_epi8(char(c));
    for (size_t k = 0; k < n; k += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + k));
      unsigned mask = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, wanted)));
      if (n - k < 16) { mask &= (1u << (n - k)) - 1; }
      if (mask != 0) { return p + k + __builtin_ctz(mask); }
    }
    return nullptr;
  }
#endif
  return static_cast<const uint8_t *>(std::memchr(p, c, n));
}

/** Bytes parse_string may write past what it unescapes (it copies whole SIMD registers). */
constexpr size_t unescape_slack = 128;

/** The most backslashes list_backslashes lists (256 KB of offsets, kept by each thread). */
constexpr size_t most_backslashes = size_t(1) << 16;

/**
 * The offsets of the backslashes in [p, p + n) into `out`, ascending, then UINT32_MAX; false
 * where there are more than most_backslashes (a block of escaped text: its strings are scanned).
 */
bool list_backslashes(const uint8_t *p, size_t n, std::vector<uint32_t> &out) {
  out.clear();
  const auto too_many = [&] {
    if (out.size() <= most_backslashes) { return false; }
    out.clear();
    return true;
  };
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i slash = _mm_set1_epi8('\\');
  for (; i + 64 <= n; i += 64) {
    const __m128i *v = reinterpret_cast<const __m128i *>(p + i);
    const __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128(v), slash), b = _mm_cmpeq_epi8(_mm_loadu_si128(v + 1), slash),
                  c = _mm_cmpeq_epi8(_mm_loadu_si128(v + 2), slash), d = _mm_cmpeq_epi8(_mm_loadu_si128(v + 3), slash);
    if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) == 0) { continue; }
    uint64_t bits = uint64_t(uint32_t(_mm_movemask_epi8(a))) | uint64_t(uint32_t(_mm_movemask_epi8(b))) << 16 |
                    uint64_t(uint32_t(_mm_movemask_epi8(c))) << 32 | uint64_t(uint32_t(_mm_movemask_epi8(d))) << 48;
    for (; bits != 0; bits &= bits - 1) { out.push_back(uint32_t(i + size_t(__builtin_ctzll(bits)))); }
    if (too_many()) { return false; } // checked as it grows: the list stays bounded
  }
#endif
  for (; i < n; i++) {
    if (p[i] == '\\') { out.push_back(uint32_t(i)); }
  }
  if (too_many()) { return false; }
  out.push_back(UINT32_MAX);
  return true;
}

class block_walk {
public:
  block_walk(const uint8_t *buf, size_t size, const uint32_t *index, size_t count,
             const simdjson::internal::dom_parser_implementation &impl, const arrow_read_options &options,
             std::vector<uint8_t> &scratch, bool *bad, const uint32_t *slashes)
      : buf_(buf), size_(size), index_(index), count_(count), impl_(impl), scratch_(scratch),
        max_depth_(options.limits.max_depth), max_record_(options.limits.max_document_length),
        max_string_(options.limits.max_string_length), error_on_unknown_(options.error_on_unknown_fields),
        validate_(options.validate_skipped), any_string_(options.any_value_as_string),
        spark_temporals_(options.spark_temporals), bad_(bad), slashes_(slashes), slash_(slashes) {}

  /**
   * Every record of the block into `batch`; false where it refuses. A record is an object alone
   * on its line: the white space between two records holds a line end, and the records hold
   * none, which is checked once for the block: every line end of the block is between records.
   */
  bool records(column &batch, uint64_t &n) {
    size_t between = 0; // line ends outside the records
    size_t previous_end = 0;
    while (i_ < count_) {
      const uint32_t at = index_[i_++];
      const size_t gap = internal::count_newlines(buf_ + previous_end, at - previous_end);
      if (buf_[at] != '{' || (n != 0 && gap == 0)) { return false; }
      between += gap;
      n++;
      if (!object(batch, 1)) { return false; }
      const uint32_t close = index_[i_ - 1];
      if (max_record_ != 0 && close + 1 - at > max_record_) { return false; }
      previous_end = close + 1;
    }
    between += internal::count_newlines(buf_ + previous_end, size_ - previous_end);
    return between == internal::count_newlines(buf_, size_);
  }

private:
  /** The next structural's position; false at the end of the block. */
  bool next(uint32_t &at) noexcept {
    if (i_ >= count_) { return false; }
    at = index_[i_++];
    return true;
  }

  /** After an object's '{': its members into the struct column `c`, absent fields null (they lag). */
  bool object(column &c, uint32_t depth) {
    if (depth >= max_depth_) { return false; }
    const int64_t row = c.length;
    const size_t fields = c.children.size();
    size_t expected = 0; // the field the next key probably is: records keep the schema's order
    uint32_t at;
    if (!next(at)) { return false; }
    if (buf_[at] != '}') {
      while (true) {
        uint32_t colon;
        if (buf_[at] != '"' || !next(colon) || buf_[colon] != ':') { return false; }
        // The key's raw bytes end at the last quote before the colon (only white space between).
        uint32_t close = colon - 1;
        while (buf_[close] != '"') { close--; }
        const uint8_t *key = buf_ + at + 1;
        const size_t key_length = close - at - 1;
        size_t k = fields;
        if (expected < fields && c.plain_names[expected] && same(c, expected, key, key_length)) {
          k = expected;
        } else if (!find(c, key, key_length, k)) {
          return false;
        }
        if (k == fields) {
          if (error_on_unknown_ || !skip(depth)) { return false; }
        } else {
          column &child = c.children[k];
          child.fill_to(row);
          if (child.length != row) { // a key twice: the arbiter's, or (bad records kept) the last value
            if (bad_ == nullptr) { return false; }
            child.truncate(row);
          }
          const size_t start = i_;
          if (!value(child, depth)) {
            // Bad records kept or dropped: a valid value of the wrong type makes the field null.
            if (bad_ == nullptr) { return false; }
            i_ = start;
            if (!skip_validated(depth)) { return false; }
            child.truncate(row);
            child.append_null();
            *bad_ = true;
          }
          expected = k + 1;
        }
        uint32_t separator;
        if (!next(separator)) { return false; }
        if (buf_[separator] == '}') { break; }
        if (buf_[separator] != ',' || !next(at)) { return false; }
      }
    }
    c.append_valid(); // (the fields it lacked lag: null)
    return true;
  }

  /** Whether field k's name is the raw key (the input is readable 16 bytes past any key). */
  static bool same(const column &c, size_t k, const uint8_t *key, size_t length) noexcept {
    const std::string &name = c.type->children[k].name;
    if (name.size() != length) { return false; }
#if defined(__SSE2__)
    if (length <= 16) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(key));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(c.short_names[k].data()));
      const unsigned equal = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)));
      const unsigned wanted = length == 16 ? 0xFFFFu : (1u << length) - 1;
      return (equal & wanted) == wanted;
    }
#endif
    return std::memcmp(name.data(), key, length) == 0;
  }

  /** The field a key names (`fields` where none); false for a key with a bad escape. */
  bool find(const column &c, const uint8_t *key, size_t length, size_t &k) {
    std::string_view name(reinterpret_cast<const char *>(key), length);
    if (find_byte(key, length, '\\') != nullptr) {
      scratch_.resize(length + unescape_slack);
      const uint8_t *end = impl_.parse_string(key, scratch_.data());
      if (end == nullptr) { return false; }
      name = std::string_view(reinterpret_cast<const char *>(scratch_.data()), size_t(end - scratch_.data()));
    }
    const std::vector<field> &children = c.type->children;
    k = children.size();
    if (children.size() <= 16) {
      for (size_t j = 0; j < children.size(); j++) {
        if (children[j].name == name) {
          k = j;
          break;
        }
      }
    } else if (const auto found = c.names.find(name); found != c.names.end()) {
      k = found->second;
    }
    return true;
  }

  /** The value at the next structural into column `c`, in a container `depth` deep. */
  bool value(column &c, uint32_t depth) {
    uint32_t at;
    if (!next(at)) { return false; }
    const uint8_t ch = buf_[at];
    if (ch == 'n') {
      if (!atom_at(buf_ + at, "null", 4)) { return false; }
      c.append_null();
      return true;
    }
    const kind type = c.type->type;
    switch (type) {
    case kind::boolean: {
      bool b;
      if (ch == 't' && atom_at(buf_ + at, "true", 4)) {
        b = true;
      } else if (ch == 'f' && atom_at(buf_ + at, "false", 5)) {
        b = false;
      } else {
        return false;
      }
      c.append_valid();
      c.booleans.push(b);
      return true;
    }
    case kind::float32: case kind::float64: {
      parsed_number number;
      double d;
      if (parse_number_at(buf_ + at, number)) {
        d = number.as_double();
      } else if (!parse_big_integer(buf_ + at, d)) {
        return false;
      }
      c.append_valid();
      if (type == kind::float32) {
        c.values.push(float(d));
      } else {
        c.values.push(d);
      }
      return true;
    }
    case kind::utf8: case kind::large_utf8:
      if (ch == '"') { return string(c, at); }
      return any_string_ && text(c, at, depth);
    case kind::timestamp: case kind::date32: return temporal(c, at, ch);
    case kind::decimal128: return decimal(c, at, ch);
    case kind::structure: return ch == '{' && object(c, depth + 1);
    case kind::list: case kind::large_list: return ch == '[' && list(c, depth + 1);
    case kind::map: return ch == '{' && map(c, depth + 1);
    case kind::null: return false;
    default: return integer(c, at);
    }
  }

  bool integer(column &c, uint32_t at) {
    parsed_number number;
    if (!parse_number_at(buf_ + at, number) || number.kind == binding_tape_entry::float64) { return false; }
    const int64_t i = int64_t(number.bits);
    const uint64_t u = number.bits;
    const bool negative = number.kind == binding_tape_entry::int64 && i < 0;
    const field &f = *c.type;
    const unsigned bits = unsigned(f.width() * 8);
    if (f.is_signed()) {
      const int64_t high = bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
      const int64_t low = bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
      if (negative ? i < low : u > uint64_t(high)) { return false; }
    } else if (negative || (bits < 64 && u > (uint64_t(1) << bits) - 1)) {
      return false;
    }
    c.append_valid();
    switch (f.type) {
    case kind::int8: c.values.push(int8_t(i)); break;
    case kind::int16: c.values.push(int16_t(i)); break;
    case kind::int32: c.values.push(int32_t(i)); break;
    case kind::int64: c.values.push(i); break;
    case kind::uint8: c.values.push(uint8_t(u)); break;
    case kind::uint16: c.values.push(uint16_t(u)); break;
    case kind::uint32: c.values.push(uint32_t(u)); break;
    default: c.values.push(u); break;
    }
    return true;
  }

  /** The string at `at`, unescaped into the column's bytes. */
  bool string(column &c, uint32_t at) {
    if (i_ >= count_) { return false; }
    // The raw string ends before the next structural: an upper bound on its unescaped length.
    const size_t bound = index_[i_] - at;
    uint8_t *to = c.values.room(bound + unescape_slack);
    const uint8_t *end = impl_.parse_string(buf_ + at + 1, to);
    if (end == nullptr) { return false; }
    const size_t length = size_t(end - to);
    if (max_string_ != 0 && length > max_string_) { return false; }
    c.values.commit(length);
    if (c.type->type == kind::utf8 && c.values.size() > size_t(INT32_MAX)) { return false; }
    c.append_valid();
    c.push_offset(int64_t(c.values.size()));
    return true;
  }

  /**
   * The raw bytes of the string whose quote is at `at` (escapes left as they are), up to its
   * closing quote; the next structural is the one after the string. False where none is found.
   */
  bool quoted(uint32_t at, std::string_view &s) const noexcept {
    if (i_ >= count_) { return false; }
    const uint8_t *from = buf_ + at + 1;
    const uint8_t *quote = find_byte(from, index_[i_] - at, '"');
    if (quote == nullptr) { return false; }
    s = std::string_view(reinterpret_cast<const char *>(from), size_t(quote - from));
    return true;
  }

  /** Where the scalar at `at` ends: before the white space before the next structural. */
  size_t scalar_end(uint32_t at) const noexcept {
    size_t end = i_ < count_ ? index_[i_] : size_;
    while (end > at && internal::is_json_whitespace(buf_[end - 1])) { end--; }
    return end;
  }

  /** A value of another type than string at `at`, as its JSON text (its bytes in the input). */
  bool text(column &c, uint32_t at, uint32_t depth) {
    i_--; // (the value again, for the validating skip)
    if (!skip_validated(depth)) { return false; }
    const uint32_t last = index_[i_ - 1];
    const size_t end = buf_[last] == '}' || buf_[last] == ']' ? last + 1 : scalar_end(at); // (a container: its bracket)
    c.append_valid();
    c.values.append(buf_ + at, end - at);
    if (c.type->type == kind::utf8 && c.values.size() > size_t(INT32_MAX)) { return false; }
    c.push_offset(int64_t(c.values.size()));
    return true;
  }

  /** A decimal: a number, or a string holding one (as BigDecimal reads it), at the column's scale. */
  bool decimal(column &c, uint32_t at, uint8_t ch) {
    std::string_view text;
    if (ch == '"') {
      if (!quoted(at, text)) { return false; } // (with an escape it is no number: refused)
    } else {
      parsed_number number; // (the grammar checked: a JSON number is one BigDecimal reads)
      if (!parse_number_at(buf_ + at, number) && big_integer_length(buf_ + at) == 0) { return false; }
      text = std::string_view(reinterpret_cast<const char *>(buf_ + at), scalar_end(at) - at);
    }
    int128 v;
    if (!parse_decimal(text, c.type->precision, c.type->scale, v)) { return false; }
    c.append_valid();
    c.values.push(v);
    return true;
  }

  /** A date or timestamp: a string in its format, or a number in its unit. */
  bool temporal(column &c, uint32_t at, uint8_t ch) {
    const field &f = *c.type;
    int64_t value;
    if (ch == '"') {
      std::string_view s;
      if (!quoted(at, s)) { return false; }
      if (s.find('\\') != std::string_view::npos) { return false; } // escaped: the arbiter's
      if (f.type == kind::date32) {
        if (s.size() != 10 || !parse_date(s, value)) { return false; }
      } else {
        int64_t seconds, nanos;
        if (!parse_timestamp(s, seconds, nanos) || !to_unit(seconds, nanos, f.unit, value)) { return false; }
      }
    } else {
      parsed_number number;
      if (!parse_number_at(buf_ + at, number) || number.kind != binding_tape_entry::int64) { return false; }
      value = int64_t(number.bits);
      if (spark_temporals_ && (f.type == kind::date32 || !to_unit(value, 0, f.unit, value))) { return false; }
    }
    if (f.type == kind::date32 && (value < INT32_MIN || value > INT32_MAX)) { return false; }
    c.append_valid();
    if (f.type == kind::date32) {
      c.values.push(int32_t(value));
    } else {
      c.values.push(value);
    }
    return true;
  }

  /** After a list's '[': its items into the list column `c`. */
  bool list(column &c, uint32_t depth) {
    if (depth >= max_depth_) { return false; }
    column &items = c.children[0];
    c.append_valid();
    if (i_ < count_ && buf_[index_[i_]] == ']') {
      i_++;
    } else {
      while (true) {
        if (!value(items, depth)) { return false; }
        uint32_t separator;
        if (!next(separator)) { return false; }
        if (buf_[separator] == ']') { break; }
        if (buf_[separator] != ',') { return false; }
      }
    }
    c.push_offset(items.length);
    return true;
  }

  /** After an object's '{': its members as the map column `c`'s entries, in order. */
  bool map(column &c, uint32_t depth) {
    if (depth >= max_depth_) { return false; }
    column &entries = c.children[0];
    column &keys = entries.children[0];
    c.append_valid();
    uint32_t at;
    if (!next(at)) { return false; }
    if (buf_[at] != '}') {
      while (true) {
        if (buf_[at] != '"' || !string(keys, at)) { return false; }
        uint32_t colon;
        if (!next(colon) || buf_[colon] != ':') { return false; }
        if (!value(entries.children[1], depth)) { return false; }
        entries.append_valid();
        uint32_t separator;
        if (!next(separator)) { return false; }
        if (buf_[separator] == '}') { break; }
        if (buf_[separator] != ',' || !next(at)) { return false; }
      }
    }
    c.push_offset(entries.length);
    return true;
  }

  /** Passes over the value at the next structural (a member of a container `depth` deep). */
  bool skip(uint32_t depth) {
    return validate_ ? skip_validated(depth) : skip_unvalidated(depth);
  }

  bool skip_unvalidated(uint32_t depth) {
    uint32_t at;
    if (!next(at)) { return false; }
    if (buf_[at] != '{' && buf_[at] != '[') { return true; }
    for (uint32_t open = 1; open > 0;) {
      if (!next(at)) { return false; }
      const uint8_t ch = buf_[at];
      if (ch == '{' || ch == '[') {
        if (depth + ++open >= max_depth_) { return false; }
      } else if (ch == '}' || ch == ']') {
        open--;
      }
    }
    return true;
  }

  /** The grammar of the skipped value checked over the index, its scalars read (and dropped). */
  bool skip_validated(uint32_t depth) {
    scopes_.clear(); // per open container: 1 an object, 0 an array
    uint32_t at;
    uint8_t ch;
  value:
    if (!next(at)) { return false; }
    ch = buf_[at];
    switch (ch) {
    case '{':
      if (depth + scopes_.size() + 1 >= max_depth_) { return false; }
      scopes_.push_back(1);
      if (!next(at)) { return false; }
      if (buf_[at] == '}') {
        scopes_.pop_back();
        goto after;
      }
      goto key;
    case '[':
      if (depth + scopes_.size() + 1 >= max_depth_) { return false; }
      scopes_.push_back(0);
      if (i_ < count_ && buf_[index_[i_]] == ']') {
        i_++;
        scopes_.pop_back();
        goto after;
      }
      goto value;
    case '"':
      if (!valid_string(at)) { return false; }
      goto after;
    case 't':
      if (!atom_at(buf_ + at, "true", 4)) { return false; }
      goto after;
    case 'f':
      if (!atom_at(buf_ + at, "false", 5)) { return false; }
      goto after;
    case 'n':
      if (!atom_at(buf_ + at, "null", 4)) { return false; }
      goto after;
    default: {
      parsed_number number;
      if (!parse_number_at(buf_ + at, number) && big_integer_length(buf_ + at) == 0) { return false; }
      goto after;
    }
    }
  key:
    if (buf_[at] != '"' || !valid_string(at)) { return false; }
    if (!next(at) || buf_[at] != ':') { return false; }
    goto value;
  after:
    if (scopes_.empty()) { return true; }
    if (!next(at)) { return false; }
    if (buf_[at] == ',') {
      if (scopes_.back() == 0) { goto value; }
      if (!next(at)) { return false; }
      goto key;
    }
    if (buf_[at] != (scopes_.back() ? '}' : ']')) { return false; }
    scopes_.pop_back();
    goto after;
  }

  /** A string's escapes (its UTF-8 was checked by stage 1). */
  bool valid_string(uint32_t at) {
    if (i_ >= count_) { return false; }
    const size_t bound = index_[i_] - at;
    // The block's backslashes, listed before the walk (where there are not too many): none up to
    // the next structural, none in the string. The walk goes forward, and so does the list, but
    // for a value walked again (a bad one skipped where bad records are kept): then the list is
    // searched. Unlisted, the string's bytes are scanned.
    if (slashes_ == nullptr) {
      if (find_byte(buf_ + at + 1, bound - 1, '\\') == nullptr) { return true; }
    } else {
      if (slash_ != slashes_ && slash_[-1] > at) { slash_ = std::upper_bound(slashes_, slash_, at); }
      while (*slash_ <= at) { slash_++; }
      if (*slash_ >= index_[i_]) { return true; }
    }
    if (scratch_.size() < bound + unescape_slack) { scratch_.resize(bound + unescape_slack); }
    return impl_.parse_string(buf_ + at + 1, scratch_.data()) != nullptr;
  }

  const uint8_t *buf_;
  size_t size_;
  const uint32_t *index_;
  size_t count_;
  size_t i_ = 0;
  const simdjson::internal::dom_parser_implementation &impl_;
  std::vector<uint8_t> &scratch_;
  std::vector<uint8_t> scopes_;
  uint32_t max_depth_;
  uint64_t max_record_;
  uint64_t max_string_;
  bool error_on_unknown_;
  bool validate_;
  bool any_string_;
  bool spark_temporals_;
  bool *bad_; // where bad records are kept or dropped, one record at a time: it had a bad value
  const uint32_t *slashes_; // the block's backslashes, ascending, then UINT32_MAX (null: not listed)
  const uint32_t *slash_;   // the next of them
};

} // namespace

bool read_block(simdjson::dom::parser &dom, const uint8_t *bytes, size_t size, const arrow_read_options &options,
                column &batch, uint64_t &records, std::vector<uint8_t> &scratch, bool *bad) {
  records = 0;
  simdjson::internal::dom_parser_implementation &impl = *dom.implementation;
  const simdjson::error_code scanned = impl.stage1(bytes, size, simdjson::stage1_mode::regular);
  if (scanned == simdjson::EMPTY) { return true; } // white space alone: no record
  if (scanned != simdjson::SUCCESS) { return false; }
  thread_local std::vector<uint32_t> slashes;
  const uint32_t *listed = list_backslashes(bytes, size, slashes) ? slashes.data() : nullptr;
  block_walk walk(bytes, size, impl.structural_indexes.get(), impl.n_structural_indexes, impl, options, scratch, bad,
                  listed);
  return walk.records(batch, records);
}

} // namespace simdbridge::arrow
