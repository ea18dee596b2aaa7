// SPDX-License-Identifier: Apache-2.0
// The slow path: a byte-at-a-time RFC 8259 parser. It reads only what simdjson refuses, and it
// is the arbiter there: it finds the first error and its byte offset, or it reads what the
// checksum contract defines but simdjson refuses (integers past 64 bits, numbers past the
// double range, lone surrogate escapes). It never reads at or past `size`.
#ifndef SIMDBRIDGE_SRC_SCALAR_PARSER_H
#define SIMDBRIDGE_SRC_SCALAR_PARSER_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "checksum_sink.h"
#include "simdbridge/error.h"
#include "simdbridge/input.h"
#include "simdbridge/parser.h"
#include "simdbridge/binding_tape.h"

namespace simdbridge::internal {

/** The correctly rounded double of a JSON number token (+/-infinity past the range). */
double number_token_to_double(const uint8_t *token, size_t length);

inline bool is_json_whitespace(uint8_t c) noexcept {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

inline bool is_digit(uint8_t c) noexcept { return c >= '0' && c <= '9'; }

/** A byte that can continue a number or a literal (true, false, null). */
inline bool continues_token(uint8_t c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '+' ||
         c == '-';
}

/**
 * Whether simdjson may read `in` where it is, with no copy: it is padded, and no number or
 * literal ending the input can run on into the padding. simdjson scans a number or literal up to
 * the first byte that cannot continue it, and the padding's content is the caller's (a padding
 * of digits let it read past the end, found by AddressSanitizer on "[1,2,3" + "111..."): such
 * an input is copied next to zeros instead.
 */
inline bool readable_in_place(const input &in) noexcept {
  return in.parsed_in_place() && (in.size == 0 || !continues_token(in.data[in.size]));
}

/** Where a number or literal at the root of a stream may end: white space or a structural. */
inline bool ends_stream_token(uint8_t c) noexcept {
  return is_json_whitespace(c) || c == '[' || c == ']' || c == '{' || c == '}' || c == ',' ||
         c == ':';
}

/**
 * An error found before parsing: a byte order mark, or the NUL bytes that UTF-16 and UTF-32
 * put in the first two bytes of any JSON text (a NUL byte is never valid JSON, so this only
 * names the error better).
 */
inline error_code leading_bytes_error(const uint8_t *data, size_t size) noexcept {
  if (size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF) {
    return error_code::byte_order_mark;
  }
  if (size >= 2 && ((data[0] == 0xFE && data[1] == 0xFF) || (data[0] == 0xFF && data[1] == 0xFE))) {
    return error_code::wrong_encoding;
  }
  if ((size >= 1 && data[0] == 0) || (size >= 2 && data[1] == 0 && data[0] < 0x80)) {
    return error_code::wrong_encoding;
  }
  return error_code::success;
}

/**
 * Bytes of white space a stream reader keeps of a record or line that is white space alone so
 * far, with no end yet: more than leading_bytes_error reads, so that its checks of a stream's
 * first bytes come out the same, and the rest need not be held.
 */
inline constexpr size_t blank_kept = 4;

/**
 * A stream document's error `e`, or the length limit's where `e` lies past the first `limit`
 * bytes of the document that starts at `begin` (past white space): the document passed the
 * limit before it went wrong, and the first error in the input is the one named. The rule of
 * the scalar parser's streams; stream_reader and the block reader (which stops there rather than
 * read on through a document that may never end) follow it.
 */
inline error length_first(uint64_t limit, size_t begin, error e) noexcept {
  if (limit != 0 && e.code != error_code::document_too_long && e.offset > begin + limit) {
    return {error_code::document_too_long, begin + limit};
  }
  return e;
}

template <typename Sink> class scalar_parser {
public:
  /** max_number_length: see parser_options (0: no limit). */
  scalar_parser(const uint8_t *data, size_t size, uint32_t max_depth, Sink &sink,
                std::vector<uint8_t> &scope_stack,
                uint32_t max_number_length = SIMDBRIDGE_DEFAULT_MAX_NUMBER_LENGTH) noexcept
      : d_(data), n_(size), max_depth_(max_depth), max_number_length_(max_number_length), sink_(sink),
        scopes_(scope_stack) {}

  /** With a parser's limits: its depth, number length, and (streams) record length. */
  scalar_parser(const uint8_t *data, size_t size, const parser_options &options, Sink &sink,
                std::vector<uint8_t> &scope_stack) noexcept
      : scalar_parser(data, size, options.max_depth, sink, scope_stack, options.max_number_length) {
    max_record_length_ = options.max_document_length;
    max_string_length_ = options.max_string_length;
  }

  /** One document that must fill the whole input, white space aside. */
  error parse_document() {
    if (error_code e = leading_bytes_error(d_, n_); e != error_code::success) { return {e, 0}; }
    size_t p = skip_whitespace(0);
    if (p == n_) { return {error_code::empty_input, p}; }
    if (error e = parse_value(p); !e.ok()) { return e; }
    p = skip_whitespace(p);
    if (p != n_) { return {error_code::trailing_content, p}; }
    return {};
  }

  /**
   * Documents of a stream, from `pos` (a document boundary) until the first document that ends
   * at or past `stop_after`, or the end of the input. Folds `document_end` after each.
   * On success `pos` is where the next document may begin.
   */
  error parse_stream(size_t &pos, size_t stop_after, uint64_t &documents) {
    if (pos == 0) {
      if (error_code e = leading_bytes_error(d_, n_); e != error_code::success) { return {e, 0}; }
    }
    size_t p = skip_whitespace(pos);
    while (p < n_) {
      // "truefalse" or "1x" must not read as two documents; "{}{}" and "[1]2" may.
      const size_t begin = p;
      if (error e = parse_stream_document(p); !e.ok()) { return length_first(max_record_length_, begin, e); }
      if (max_record_length_ != 0 && p - begin > max_record_length_) {
        return {error_code::document_too_long, begin + max_record_length_};
      }
      sink_.document_end();
      documents++;
      p = skip_whitespace(p);
      if (p >= stop_after) { break; }
    }
    pos = p;
    return {};
  }

  /**
   * One document of a stream at `pos` (white space before it skipped): on success `pos` is just
   * past its value. A number or literal must not run into what follows ("truefalse").
   */
  error parse_stream_document(size_t &pos) {
    size_t p = skip_whitespace(pos);
    if (p == n_) { return {error_code::empty_input, p}; }
    const uint8_t first = d_[p];
    if (error e = parse_value(p); !e.ok()) { return e; }
    if (p < n_ && first != '{' && first != '[' && first != '"' && !ends_stream_token(d_[p])) {
      return {first == '-' || is_digit(first) ? error_code::invalid_number : error_code::invalid_literal, p};
    }
    pos = p;
    return {};
  }

private:
  enum scope : uint8_t { in_array = 0, in_object = 1 };
  static constexpr bool tape = records_tape<Sink>::value;

  void begin(binding_tape_entry kind, size_t at) {
    if constexpr (tape) {
      sink_.container_begin(kind, at);
    } else if (kind == binding_tape_entry::object) {
      sink_.object_begin();
    } else {
      sink_.array_begin();
    }
  }

  void end(scope kind) {
    if constexpr (tape) {
      sink_.container_end();
    } else if (kind == in_object) {
      sink_.object_end();
    } else {
      sink_.array_end();
    }
  }

  void literal(binding_tape_entry kind, size_t at) {
    if constexpr (tape) {
      if (kind == binding_tape_entry::null_value) {
        sink_.null(at);
      } else {
        sink_.boolean(kind == binding_tape_entry::true_value, at);
      }
    } else if (kind == binding_tape_entry::null_value) {
      sink_.null();
    } else {
      sink_.boolean(kind == binding_tape_entry::true_value);
    }
  }

  size_t skip_whitespace(size_t p) const noexcept {
    while (p < n_ && is_json_whitespace(d_[p])) { p++; }
    return p;
  }

  error parse_value(size_t &pos) {
    size_t p = pos;
    scopes_.clear();
  value:
    p = skip_whitespace(p);
    if (p == n_) { return {error_code::unexpected_end, p}; }
    switch (d_[p]) {
    case '{':
      if (scopes_.size() >= max_depth_) { return {error_code::depth_limit, p}; }
      begin(binding_tape_entry::object, p);
      p = skip_whitespace(p + 1);
      if (p == n_) { return {error_code::unexpected_end, p}; }
      if (d_[p] == '}') {
        end(in_object);
        p++;
        goto after_value;
      }
      scopes_.push_back(in_object);
      goto key;
    case '[':
      if (scopes_.size() >= max_depth_) { return {error_code::depth_limit, p}; }
      begin(binding_tape_entry::array, p);
      p = skip_whitespace(p + 1);
      if (p == n_) { return {error_code::unexpected_end, p}; }
      if (d_[p] == ']') {
        end(in_array);
        p++;
        goto after_value;
      }
      scopes_.push_back(in_array);
      goto value;
    case '"': {
      uint64_t length = 0;
      const size_t start = p;
      if (error e = parse_string(p, length); !e.ok()) { return e; }
      if (max_string_length_ != 0 && length > max_string_length_) { return {error_code::string_too_long, start}; }
      if constexpr (tape) {
        sink_.raw_string(d_ + start, p - start, start, false);
      } else {
        sink_.string(length);
      }
      goto after_value;
    }
    case 't':
      if (error e = parse_literal(p, "true", 4); !e.ok()) { return e; }
      literal(binding_tape_entry::true_value, p - 4);
      goto after_value;
    case 'f':
      if (error e = parse_literal(p, "false", 5); !e.ok()) { return e; }
      literal(binding_tape_entry::false_value, p - 5);
      goto after_value;
    case 'n':
      if (error e = parse_literal(p, "null", 4); !e.ok()) { return e; }
      literal(binding_tape_entry::null_value, p - 4);
      goto after_value;
    default:
      if (d_[p] == '-' || is_digit(d_[p])) {
        if (error e = parse_number(p); !e.ok()) { return e; }
        goto after_value;
      }
      return {error_code::expected_value, p};
    }

  key:
    // p is at the first non-white-space byte after '{' or ','.
    if (p == n_) { return {error_code::unexpected_end, p}; }
    if (d_[p] != '"') { return {error_code::expected_key, p}; }
    {
      uint64_t length = 0;
      const size_t start = p;
      if (error e = parse_string(p, length); !e.ok()) { return e; }
      if (max_string_length_ != 0 && length > max_string_length_) { return {error_code::string_too_long, start}; }
      if constexpr (tape) {
        sink_.raw_string(d_ + start, p - start, start, true);
      } else {
        sink_.key(length);
      }
    }
    p = skip_whitespace(p);
    if (p == n_) { return {error_code::unexpected_end, p}; }
    if (d_[p] != ':') { return {error_code::expected_colon, p}; }
    p++;
    goto value;

  after_value:
    while (!scopes_.empty()) {
      p = skip_whitespace(p);
      if (p == n_) { return {error_code::unexpected_end, p}; }
      const uint8_t c = d_[p];
      if (scopes_.back() == in_array) {
        if (c == ',') {
          p++;
          goto value;
        }
        if (c != ']') { return {error_code::expected_comma_or_bracket, p}; }
        end(in_array);
      } else {
        if (c == ',') {
          p = skip_whitespace(p + 1);
          goto key;
        }
        if (c != '}') { return {error_code::expected_comma_or_brace, p}; }
        end(in_object);
      }
      p++;
      scopes_.pop_back();
    }
    pos = p;
    return {};
  }

  error parse_literal(size_t &p, const char *word, size_t length) noexcept {
    for (size_t i = 1; i < length; i++) {
      if (p + i == n_) { return {error_code::unexpected_end, n_}; }
      if (d_[p + i] != uint8_t(word[i])) { return {error_code::invalid_literal, p}; }
    }
    p += length;
    return {};
  }

  error parse_number(size_t &pos) {
    const size_t start = pos;
    size_t p = pos;
    const bool negative = d_[p] == '-';
    if (negative) { p++; }
    if (p == n_) { return {error_code::unexpected_end, p}; }
    uint64_t magnitude = 0;
    bool overflow = false;
    if (d_[p] == '0') {
      p++;
      if (p < n_ && is_digit(d_[p])) { return {error_code::invalid_number, p}; }
    } else if (is_digit(d_[p])) {
      while (p < n_ && is_digit(d_[p])) {
        const uint64_t digit = d_[p] - '0';
        if (magnitude > (UINT64_MAX - digit) / 10) { overflow = true; }
        magnitude = magnitude * 10 + digit;
        p++;
      }
    } else {
      return {error_code::invalid_number, p};
    }
    bool integral = true;
    if (p < n_ && d_[p] == '.') {
      integral = false;
      p++;
      if (p == n_) { return {error_code::unexpected_end, p}; }
      if (!is_digit(d_[p])) { return {error_code::invalid_number, p}; }
      while (p < n_ && is_digit(d_[p])) { p++; }
    }
    if (p < n_ && (d_[p] == 'e' || d_[p] == 'E')) {
      integral = false;
      p++;
      if (p < n_ && (d_[p] == '+' || d_[p] == '-')) { p++; }
      if (p == n_) { return {error_code::unexpected_end, p}; }
      if (!is_digit(d_[p])) { return {error_code::invalid_number, p}; }
      while (p < n_ && is_digit(d_[p])) { p++; }
    }
    pos = p;
    const bool exact = integral && !overflow && (!negative || magnitude <= (uint64_t(1) << 63));
    if (!exact && max_number_length_ != 0 && p - start > max_number_length_) {
      // Past 64 bits or past the double range, such a number is kept as text: its length is
      // limited. A long number that reads as a double is not (its conversion is linear).
      const double d = integral ? 0.0 : number_token_to_double(d_ + start, p - start);
      if (integral || d - d != 0.0) { return {error_code::number_too_long, start}; }
    }
    if constexpr (tape) {
      if (exact) {
        if (negative) {
          sink_.int64(int64_t(~magnitude + 1), start);
        } else if (magnitude <= uint64_t(INT64_MAX)) {
          sink_.int64(int64_t(magnitude), start);
        } else {
          sink_.uint64(magnitude, start);
        }
        return {};
      }
      const double d = integral ? 0.0 : number_token_to_double(d_ + start, p - start);
      if (integral || d - d != 0.0) { // past 64 bits, or past the double range
        sink_.big_number(start, p - start);
      } else {
        sink_.float64(d, start);
      }
    } else if (exact) {
      // Integral tokens in [-2^63, 2^64) fold their 64-bit pattern; all else the rounded double.
      sink_.integer(negative ? ~magnitude + 1 : magnitude);
    } else {
      sink_.floating(number_token_to_double(d_ + start, p - start));
    }
    return {};
  }

  static int hex_value(uint8_t c) noexcept {
    if (c >= '0' && c <= '9') { return c - '0'; }
    if (c >= 'a' && c <= 'f') { return c - 'a' + 10; }
    if (c >= 'A' && c <= 'F') { return c - 'A' + 10; }
    return -1;
  }

  /** Reads the four hex digits after "\u" at p; -1 when one is not hex, -2 at the end. */
  int32_t read_unicode_escape(size_t p) const noexcept {
    int32_t code = 0;
    for (size_t i = 2; i < 6; i++) {
      if (p + i >= n_) { return -2; }
      const int v = hex_value(d_[p + i]);
      if (v < 0) { return -1; }
      code = code * 16 + v;
    }
    return code;
  }

  /** p at the opening quote; on success p is past the closing quote. */
  error parse_string(size_t &pos, uint64_t &utf8_length) noexcept {
    size_t p = pos + 1;
    uint64_t length = 0;
    for (;;) {
      if (p == n_) { return {error_code::unexpected_end, p}; }
      const uint8_t c = d_[p];
      if (c == '"') {
        break;
      } else if (c == '\\') {
        if (p + 1 == n_) { return {error_code::unexpected_end, n_}; }
        switch (d_[p + 1]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
          length += 1;
          p += 2;
          break;
        case 'u': {
          const int32_t code = read_unicode_escape(p);
          if (code == -2) { return {error_code::unexpected_end, n_}; }
          if (code < 0) { return {error_code::invalid_unicode_escape, p}; }
          p += 6;
          if (code >= 0xD800 && code <= 0xDBFF && p + 1 < n_ && d_[p] == '\\' &&
              d_[p + 1] == 'u') {
            const int32_t low = read_unicode_escape(p);
            if (low >= 0xDC00 && low <= 0xDFFF) {
              length += 4; // a surrogate pair is one supplementary character
              p += 6;
              break;
            }
          }
          // A lone surrogate counts the 3 bytes of its generalized UTF-8 encoding.
          length += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
          break;
        }
        default:
          return {error_code::invalid_escape, p};
        }
      } else if (c < 0x20) {
        return {error_code::control_character, p};
      } else if (c < 0x80) {
        length += 1;
        p += 1;
      } else {
        size_t sequence = 0;
        if (error e = check_utf8_sequence(p, sequence); !e.ok()) { return e; }
        length += sequence;
        p += sequence;
      }
    }
    utf8_length = length;
    pos = p + 1;
    return {};
  }

  /** A multi-byte UTF-8 sequence at p (RFC 3629: no overlongs, surrogates or past U+10FFFF). */
  error check_utf8_sequence(size_t p, size_t &sequence) const noexcept {
    const uint8_t lead = d_[p];
    uint8_t low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      sequence = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      sequence = 3;
      if (lead == 0xE0) { low = 0xA0; }
      if (lead == 0xED) { high = 0x9F; }
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      sequence = 4;
      if (lead == 0xF0) { low = 0x90; }
      if (lead == 0xF4) { high = 0x8F; }
    } else {
      return {error_code::invalid_utf8, p};
    }
    for (size_t i = 1; i < sequence; i++) {
      if (p + i == n_) { return {error_code::unexpected_end, n_}; }
      const uint8_t c = d_[p + i];
      const uint8_t lo = i == 1 ? low : 0x80, hi = i == 1 ? high : 0xBF;
      if (c < lo || c > hi) { return {error_code::invalid_utf8, p}; }
    }
    return {};
  }

  const uint8_t *d_;
  size_t n_;
  uint32_t max_depth_;
  uint32_t max_number_length_;
  uint64_t max_record_length_ = 0; // parse_stream: a document's bytes (0: no limit)
  uint64_t max_string_length_ = 0; // a string's unescaped bytes (0: no limit)
  Sink &sink_;
  std::vector<uint8_t> &scopes_;
};

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_SRC_SCALAR_PARSER_H
