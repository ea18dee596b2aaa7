// SPDX-License-Identifier: Apache-2.0
// MessagePack to compact JSON in one pass, with an explicit stack (no recursion), every length
// checked against the bytes left before it is read or used. A stream of values is cut into
// blocks at value boundaries by a skim (headers only) and the blocks converted on threads.
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include <simdjson.h>

#include "../parser_state.h"
#include "../stream/open_record.h"
#include "blocks.h"
#include "simdbridge/msgpack.h"
#include "simdbridge/stream.h"
#include "simdbridge/writer.h"

namespace simdbridge {

void internal::destroy(msgpack_json_workspace *w) noexcept { delete w; }

namespace {

/** The output, grown as it is written (never by what a header claims). */
class json_out {
public:
  explicit json_out(internal::output_bytes &v) : v_(v), pos_(v.size()) {}
  /** Room for n more bytes: where to write them. */
  uint8_t *room(size_t n) {
    if (pos_ + n > v_.size()) { v_.resize(std::max(v_.size() * 2, pos_ + n + 256)); }
    return v_.data() + pos_;
  }
  void advance(size_t n) noexcept { pos_ += n; }
  void put(uint8_t c) {
    *room(1) = c;
    pos_++;
  }
  void put(const char *s, size_t n) {
    std::memcpy(room(n), s, n);
    pos_ += n;
  }
  void finish() { v_.resize(pos_); }
  /** Bytes written so far; back_to(n) drops those past the first n. */
  size_t size() const noexcept { return pos_; }
  void back_to(size_t n) noexcept { pos_ = n; }

private:
  internal::output_bytes &v_;
  size_t pos_;
};

inline uint16_t be16(const uint8_t *p) noexcept { return uint16_t(p[0] << 8 | p[1]); }
inline uint32_t be32(const uint8_t *p) noexcept {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}
inline uint64_t be64(const uint8_t *p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

constexpr char base64_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Bytes as a quoted base64 string (RFC 4648, padded: Python's base64.b64encode). */
void put_base64(json_out &out, const uint8_t *p, size_t n) {
  uint8_t *t = out.room(4 * ((n + 2) / 3) + 2), *start = t;
  *t++ = '"';
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const uint32_t v = uint32_t(p[i]) << 16 | uint32_t(p[i + 1]) << 8 | p[i + 2];
    t[0] = uint8_t(base64_digits[v >> 18]);
    t[1] = uint8_t(base64_digits[(v >> 12) & 63]);
    t[2] = uint8_t(base64_digits[(v >> 6) & 63]);
    t[3] = uint8_t(base64_digits[v & 63]);
    t += 4;
  }
  if (i < n) {
    const uint32_t v = uint32_t(p[i]) << 16 | (i + 1 < n ? uint32_t(p[i + 1]) << 8 : 0);
    t[0] = uint8_t(base64_digits[v >> 18]);
    t[1] = uint8_t(base64_digits[(v >> 12) & 63]);
    t[2] = i + 1 < n ? uint8_t(base64_digits[(v >> 6) & 63]) : '=';
    t[3] = '=';
    t += 4;
  }
  *t++ = '"';
  out.advance(size_t(t - start));
}

void put_unsigned(json_out &out, uint64_t v, bool quoted) {
  uint8_t *t = out.room(26), *start = t;
  if (quoted) { *t++ = '"'; }
  t += write_decimal_digits(v, reinterpret_cast<char *>(t));
  if (quoted) { *t++ = '"'; }
  out.advance(size_t(t - start));
}

void put_signed(json_out &out, int64_t v, bool quoted) {
  if (v >= 0) { return put_unsigned(out, uint64_t(v), quoted); }
  uint8_t *t = out.room(27), *start = t;
  if (quoted) { *t++ = '"'; }
  *t++ = '-';
  t += write_decimal_digits(uint64_t(0) - uint64_t(v), reinterpret_cast<char *>(t));
  if (quoted) { *t++ = '"'; }
  out.advance(size_t(t - start));
}

/** A float as Python's repr writes it (1.0, 1e-05); NaN and the infinities as null. */
void put_double(json_out &out, double d, bool quoted) {
  if (!std::isfinite(d)) {
    out.put(quoted ? "\"null\"" : "null", quoted ? 6 : 4);
    return;
  }
  uint8_t *t = out.room(52), *start = t;
  if (quoted) { *t++ = '"'; }
  t += write_double(d, reinterpret_cast<char *>(t), -3, true);
  if (quoted) { *t++ = '"'; }
  out.advance(size_t(t - start));
}

/**
 * Whether n bytes are valid UTF-8. Most strings are short and ASCII, where simdjson's validator
 * (a call through its dispatch, then 64-byte blocks) cost more than the conversion of the rest
 * of the value: so ASCII is checked here eight bytes at a time, short strings past ASCII are
 * checked here byte by byte, and only long ones go to simdjson.
 */
bool valid_utf8(const uint8_t *s, size_t n) noexcept {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, s + i, 8);
    if (w & 0x8080808080808080ull) { break; }
  }
  if (n - i >= 64) { return simdjson::validate_utf8(reinterpret_cast<const char *>(s + i), n - i); }
  while (i < n) {
    const uint8_t c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    const auto follows = [&](size_t k) { return i + k < n && (s[i + k] & 0xC0) == 0x80; };
    if (c >= 0xC2 && c <= 0xDF) {
      if (!follows(1)) { return false; }
      i += 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      if (!follows(1) || !follows(2)) { return false; }
      if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] >= 0xA0)) { return false; } // overlong, surrogate
      i += 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      if (!follows(1) || !follows(2) || !follows(3)) { return false; }
      if ((c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] >= 0x90)) { return false; } // overlong, past U+10FFFF
      i += 4;
    } else {
      return false;
    }
  }
  return true;
}

/** An open array or map: the entries left (a map's keys and values counted apart), and its kind. */
struct frame {
  uint64_t left;
  bool map;
};

/** Converts MessagePack values to JSON, one at a time. */
class converter {
public:
  converter(const uint8_t *data, size_t size, const msgpack_options &options)
      : data_(data), size_(size), o_(options) {}

  /** The value at `pos` as JSON into `out`; `pos` moves past it. An error where it is not one. */
  error value(size_t &pos, json_out &out) {
    stack_.clear();
    size_t p = pos;
    while (true) {
      const bool key = !stack_.empty() && stack_.back().map && (stack_.back().left & 1) == 0;
      bool opened = false;
      if (error e = item(p, out, key, opened); !e.ok()) { return e; }
      if (opened) { continue; } // a non-empty container: its first entry next
      // A value is complete: close what it completes, or write the separator before the next.
      while (!stack_.empty()) {
        frame &f = stack_.back();
        if (--f.left == 0) {
          out.put(f.map ? '}' : ']');
          stack_.pop_back();
          continue;
        }
        out.put(f.map && (f.left & 1) == 1 ? ':' : ',');
        break;
      }
      if (stack_.empty()) { break; }
    }
    pos = p;
    return {};
  }

private:
  error truncated(size_t at) const noexcept { return {error_code::msgpack_truncated, at}; }

  /** Whether n bytes are left from p. */
  bool has(size_t p, uint64_t n) const noexcept { return n <= size_ - p; }

  /** Opens an array or map of n entries (2n items for a map), or writes an empty one. */
  error open(size_t at, size_t p, uint64_t n, bool map, json_out &out, bool key, bool &opened) {
    if (key) { return {error_code::msgpack_unsupported, at}; }
    if (stack_.size() + 1 > o_.max_depth) { return {error_code::depth_limit, at}; }
    const uint64_t items = map ? 2 * n : n;
    if (!has(p, items)) { return truncated(at); } // every item takes a byte at least
    if (n == 0) {
      out.put(map ? "{}" : "[]", 2);
      return {};
    }
    out.put(map ? '{' : '[');
    stack_.push_back({items, map});
    opened = true;
    return {};
  }

  error string(size_t at, size_t &p, uint64_t n, json_out &out) {
    if (!has(p, n)) { return truncated(at); }
    const uint8_t *s = data_ + p;
    if (o_.validate_utf8 && !valid_utf8(s, n)) {
      return {error_code::invalid_utf8, at};
    }
    uint8_t *t = out.room(json_string_capacity_utf8(n));
    out.advance(write_json_string_utf8(s, n, t));
    p += n;
    return {};
  }

  error binary(size_t at, size_t &p, uint64_t n, json_out &out) {
    if (!has(p, n)) { return truncated(at); }
    if (!o_.binary_as_base64) { return {error_code::msgpack_unsupported, at}; }
    put_base64(out, data_ + p, n);
    p += n;
    return {};
  }

  /** An ext value of n data bytes (its type byte at p). */
  error ext(size_t at, size_t &p, uint64_t n, json_out &out, bool key) {
    if (!has(p, n + 1)) { return truncated(at); }
    if (!o_.ext_as_null) { return {error_code::msgpack_unsupported, at}; }
    out.put(key ? "\"null\"" : "null", key ? 6 : 4);
    p += n + 1;
    return {};
  }

  /** The item at p (a map key where `key`): written, or opened (a non-empty container). */
  error item(size_t &p, json_out &out, bool key, bool &opened) {
    const size_t at = p;
    if (p >= size_) { return truncated(at); }
    const uint8_t b = data_[p++];
    if (b <= 0x7f) {
      put_unsigned(out, b, key);
      return {};
    }
    if (b >= 0xe0) {
      put_signed(out, int8_t(b), key);
      return {};
    }
    if (b <= 0x8f) { return open(at, p, b & 0x0f, true, out, key, opened); }
    if (b <= 0x9f) { return open(at, p, b & 0x0f, false, out, key, opened); }
    if (b <= 0xbf) { return string(at, p, b & 0x1f, out); }
    // The fixed widths that follow each tag (0xc0 to 0xdf), for the bounds check below.
    static constexpr uint8_t follows[32] = {0, 0, 0, 0, 1, 2, 4, 1, 2, 4, 4, 8, 1, 2, 4, 8,
                                            1, 2, 4, 8, 1, 1, 1, 1, 1, 1, 2, 4, 2, 4, 2, 4};
    if (!has(p, follows[b - 0xc0])) { return truncated(at); }
    const uint8_t *q = data_ + p;
    p += follows[b - 0xc0];
    switch (b) {
    case 0xc0: out.put(key ? "\"null\"" : "null", key ? 6 : 4); return {};
    case 0xc1: return {error_code::msgpack_invalid, at};
    case 0xc2: out.put(key ? "\"false\"" : "false", key ? 7 : 5); return {};
    case 0xc3: out.put(key ? "\"true\"" : "true", key ? 6 : 4); return {};
    case 0xc4: return binary(at, p, q[0], out);
    case 0xc5: return binary(at, p, be16(q), out);
    case 0xc6: return binary(at, p, be32(q), out);
    case 0xc7: return ext(at, p, q[0], out, key);
    case 0xc8: return ext(at, p, be16(q), out, key);
    case 0xc9: return ext(at, p, be32(q), out, key);
    case 0xca: {
      const uint32_t bits = be32(q);
      float f;
      std::memcpy(&f, &bits, 4);
      put_double(out, double(f), key);
      return {};
    }
    case 0xcb: {
      const uint64_t bits = be64(q);
      double d;
      std::memcpy(&d, &bits, 8);
      put_double(out, d, key);
      return {};
    }
    case 0xcc: put_unsigned(out, q[0], key); return {};
    case 0xcd: put_unsigned(out, be16(q), key); return {};
    case 0xce: put_unsigned(out, be32(q), key); return {};
    case 0xcf: put_unsigned(out, be64(q), key); return {};
    case 0xd0: put_signed(out, int8_t(q[0]), key); return {};
    case 0xd1: put_signed(out, int16_t(be16(q)), key); return {};
    case 0xd2: put_signed(out, int32_t(be32(q)), key); return {};
    case 0xd3: put_signed(out, int64_t(be64(q)), key); return {};
    case 0xd4: p -= 1; return ext(at, p, 1, out, key); // fixext: the type byte counted by ext()
    case 0xd5: p -= 1; return ext(at, p, 2, out, key);
    case 0xd6: p -= 1; return ext(at, p, 4, out, key);
    case 0xd7: p -= 1; return ext(at, p, 8, out, key);
    case 0xd8: p -= 1; return ext(at, p, 16, out, key);
    case 0xd9: return string(at, p, q[0], out);
    case 0xda: return string(at, p, be16(q), out);
    case 0xdb: return string(at, p, be32(q), out);
    case 0xdc: return open(at, p, be16(q), false, out, key, opened);
    case 0xdd: return open(at, p, be32(q), false, out, key, opened);
    case 0xde: return open(at, p, be16(q), true, out, key, opened);
    default: return open(at, p, be32(q), true, out, key, opened); // 0xdf
    }
  }

  const uint8_t *data_;
  size_t size_;
  const msgpack_options &o_;
  std::vector<frame> stack_;
};

/**
 * Skims the value at p (its headers only; no depth limit needed, as nothing recurses): p moves
 * past it. An error where it is truncated or holds 0xc1.
 */
error skim(const uint8_t *data, size_t size, size_t &p) noexcept {
  const size_t at = p;
  uint64_t pending = 1;
  while (pending > 0) {
    if (p >= size) { return {error_code::msgpack_truncated, at}; }
    const uint8_t b = data[p++];
    pending--;
    uint64_t skip = 0, items = 0;
    const size_t left = size - p;
    const auto need = [&](size_t n) { return n <= left; };
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
    } else if (b <= 0x8f) {
      items = 2 * uint64_t(b & 0x0f);
    } else if (b <= 0x9f) {
      items = b & 0x0f;
    } else if (b <= 0xbf) {
      skip = b & 0x1f;
    } else {
      switch (b) {
      case 0xc1: return {error_code::msgpack_invalid, p - 1};
      case 0xc4: case 0xd9: if (!need(1)) { return {error_code::msgpack_truncated, at}; } skip = 1 + data[p]; break;
      case 0xc5: case 0xda: if (!need(2)) { return {error_code::msgpack_truncated, at}; } skip = 2 + uint64_t(be16(data + p)); break;
      case 0xc6: case 0xdb: if (!need(4)) { return {error_code::msgpack_truncated, at}; } skip = 4 + uint64_t(be32(data + p)); break;
      case 0xc7: if (!need(1)) { return {error_code::msgpack_truncated, at}; } skip = 2 + uint64_t(data[p]); break;
      case 0xc8: if (!need(2)) { return {error_code::msgpack_truncated, at}; } skip = 3 + uint64_t(be16(data + p)); break;
      case 0xc9: if (!need(4)) { return {error_code::msgpack_truncated, at}; } skip = 5 + uint64_t(be32(data + p)); break;
      case 0xca: skip = 4; break;
      case 0xcb: skip = 8; break;
      case 0xcc: case 0xd0: skip = 1; break;
      case 0xcd: case 0xd1: skip = 2; break;
      case 0xce: case 0xd2: skip = 4; break;
      case 0xcf: case 0xd3: skip = 8; break;
      case 0xd4: skip = 2; break;
      case 0xd5: skip = 3; break;
      case 0xd6: skip = 5; break;
      case 0xd7: skip = 9; break;
      case 0xd8: skip = 17; break;
      case 0xdc: if (!need(2)) { return {error_code::msgpack_truncated, at}; } skip = 2; items = be16(data + p); break;
      case 0xdd: if (!need(4)) { return {error_code::msgpack_truncated, at}; } skip = 4; items = be32(data + p); break;
      case 0xde: if (!need(2)) { return {error_code::msgpack_truncated, at}; } skip = 2; items = 2 * uint64_t(be16(data + p)); break;
      default: if (!need(4)) { return {error_code::msgpack_truncated, at}; } skip = 4; items = 2 * uint64_t(be32(data + p)); break; // 0xdf
      }
    }
    if (skip > left) { return {error_code::msgpack_truncated, at}; }
    p += skip;
    pending += items;
    if (pending > size - p) { return {error_code::msgpack_truncated, at}; } // a byte per item at least
  }
  return {};
}

/**
 * The first error of the value at `start` of [data, data + size), which the skim found broken
 * (`skimmed`): the one the converter meets first, as where the value is read alone (a depth
 * limit or bad UTF-8 may come before the end the skim found missing), else the skim's.
 */
error first_error(const uint8_t *data, size_t size, size_t start, const msgpack_options &options, error skimmed) {
  internal::output_bytes scratch;
  converter c(data, size, options);
  json_out o(scratch);
  const error first = c.value(start, o);
  return first.ok() ? skimmed : first;
}

/**
 * The error of a value at `start` whose bytes ([start, size) read so far) pass
 * max_value_length: its first error within the limit's bytes and the one after them (read
 * alone up to there), where it has one, else document_too_long at start plus the limit. (An
 * end too soon is where the bytes read end, past the limit.)
 */
error too_long(const uint8_t *data, size_t size, size_t start, const msgpack_options &options) {
  const size_t cut = size_t(std::min<uint64_t>(size, start + options.max_value_length + 1));
  const error e = first_error(data, cut, start, options, {});
  if (!e.ok() && e.code != error_code::msgpack_truncated && e.offset < cut) { return e; }
  return {error_code::document_too_long, size_t(start + options.max_value_length)};
}

/** Whether the value at `start`, read to `end` (its end, or where the bytes read end), passes max_value_length. */
bool past_limit(const msgpack_options &options, size_t start, size_t end) {
  return options.max_value_length != 0 && end - start > options.max_value_length;
}

/**
 * A broken value's first error (`e`, the converter's or the skim's), as the limit has it: where
 * the bytes from its start to the input's end pass the limit, its first bytes decide
 * (too_long), as where it is read from a source that holds no more of it than that.
 */
error within_limit(const uint8_t *data, size_t size, size_t start, const msgpack_options &options, error e) {
  return past_limit(options, start, size) ? too_long(data, size, start, options) : e;
}

/** The values of [b.begin, b.end) as NDJSON lines into the block's output. */
void convert_values(const uint8_t *data, const msgpack_options &options, internal::msgpack_block &b) {
  converter c(data, b.end, options);
  json_out out(b.out);
  size_t p = b.begin;
  while (p < b.end) {
    const size_t written = out.size();
    const error e = c.value(p, out);
    if (!e.ok()) {
      b.failure = {e, b.documents + 1};
      out.back_to(written); // (the JSON of the values before it only, which a stream hands on)
      break;
    }
    out.put('\n');
    b.documents++;
  }
  out.finish();
}

/**
 * A stream of values as NDJSON: this thread skims the input into blocks of about block_size
 * bytes, cut at value boundaries, and hands each over as soon as it is cut to the other threads,
 * which convert blocks while the skim goes on (the skim, serial, is a fifth to a third of a
 * conversion); then it converts blocks too. A value the skim finds broken ends the blocks; its
 * error stands unless a block before it fails first.
 */
msgpack_error convert_stream(input in, const msgpack_options &options, const msgpack_output &output,
                             internal::msgpack_json_workspace *kept) {
  std::deque<internal::msgpack_block> blocks; // (references stay valid as blocks are added)
  std::mutex m;
  std::condition_variable ready;
  size_t next = 0;
  bool cut = false;
  const auto convert = [&](internal::msgpack_block &b) {
    try {
      convert_values(in.data, options, b);
    } catch (const std::bad_alloc &) {
      b.failure = {{error_code::out_of_memory, b.begin}, b.documents + 1};
    }
  };
  const auto work = [&] {
    while (true) {
      internal::msgpack_block *b;
      {
        std::unique_lock<std::mutex> lock(m);
        ready.wait(lock, [&] { return next < blocks.size() || cut; });
        if (next >= blocks.size()) { return; }
        b = &blocks[next++];
      }
      convert(*b);
    }
  };
  std::vector<std::thread> pool;
  try {
    for (unsigned t = 1; t < options.threads; t++) { pool.emplace_back(work); }
  } catch (...) { // no thread to be had: this one does all the work
  }
  msgpack_error skimmed;
  uint64_t values = 0;
  const size_t step = std::max<size_t>(options.block_size, 1);
  size_t begin = 0, p = 0;
  // Blocks are handed over in batches (of a megabyte, or 64 blocks): one wake-up per block cost
  // more than small blocks' conversions.
  std::vector<internal::msgpack_block> batch;
  size_t batch_bytes = 0;
  const auto hand = [&] {
    if (batch.empty()) { return; }
    {
      std::lock_guard<std::mutex> lock(m);
      for (internal::msgpack_block &b : batch) { blocks.push_back(std::move(b)); }
    }
    batch.clear();
    batch_bytes = 0;
    ready.notify_all();
  };
  const auto publish = [&](size_t end) {
    internal::msgpack_block b;
    b.begin = begin;
    b.end = end;
    if (kept != nullptr) { b.out = kept->take(); }
    batch_bytes += end - begin;
    batch.push_back(std::move(b));
    begin = end;
    if (batch_bytes >= (size_t(1) << 20) || batch.size() >= 64) { hand(); }
  };
  try {
    while (p < in.size) {
      const size_t start = p;
      if (error e = skim(in.data, in.size, p); !e.ok()) {
        const error first = first_error(in.data, in.size, start, options, e);
        skimmed = {within_limit(in.data, in.size, start, options, first), values + 1};
        p = start;
        break;
      }
      if (past_limit(options, start, p)) {
        skimmed = {too_long(in.data, in.size, start, options), values + 1};
        p = start;
        break;
      }
      values++;
      if (p - begin >= step) { publish(p); }
    }
    if (p > begin) { publish(p); }
    hand();
  } catch (...) { // (a block that could not be added: out of memory, reported after the others)
    skimmed = {{error_code::out_of_memory, p}, values + 1};
  }
  {
    std::lock_guard<std::mutex> lock(m);
    cut = true;
  }
  ready.notify_all();
  work();
  for (std::thread &t : pool) { t.join(); }
  // Where the skim found a broken value, the blocks before it were converted for an earlier
  // error only: their output is dropped.
  const msgpack_error e = internal::hand_over(blocks, skimmed.ok() ? &output : nullptr, std::max(1u, options.threads));
  if (kept != nullptr) {
    for (internal::msgpack_block &b : blocks) { kept->give_back(std::move(b.out)); }
  }
  if (!e.ok()) { return e; }
  return skimmed;
}

/** msgpack_to_json, its output buffers taken from `kept` and given back to it where there is one. */
msgpack_error convert(input in, const msgpack_options &options, const msgpack_output &output,
                      internal::msgpack_json_workspace *kept) {
  if (options.stream) { return convert_stream(in, options, output, kept); }
  if (in.size == 0) { return {{error_code::empty_input, 0}, 1}; }
  if (past_limit(options, 0, in.size)) { return {too_long(in.data, in.size, 0, options), 1}; }
  // The JSON's size is known only once written: into a buffer of about twice the input
  // (grown if need be), then copied to the caller's memory.
  internal::output_bytes text = kept != nullptr ? kept->take() : internal::output_bytes();
  const auto done = [&](msgpack_error e) {
    if (kept != nullptr) { kept->give_back(std::move(text)); }
    return e;
  };
  text.reserve(in.size * 2 + 256);
  converter c(in.data, in.size, options);
  json_out o(text);
  size_t p = 0;
  const error e = c.value(p, o);
  o.finish();
  if (!e.ok()) { return done({e, 1}); }
  if (p != in.size) { return done({{error_code::trailing_content, p}, 1}); }
  uint8_t *to = output(text.size());
  if (to == nullptr) { return done({{error_code::out_of_memory, 0}, 1}); }
  if (!text.empty()) { std::memcpy(to, text.data(), text.size()); }
  return done({});
}

} // namespace

msgpack_error msgpack_to_json(input in, const msgpack_options &options, std::vector<uint8_t> &out) noexcept {
  out.clear();
  return msgpack_to_json(in, options, internal::into(out));
}

msgpack_error msgpack_to_json(input in, const msgpack_options &options, const msgpack_output &output) noexcept {
  if (!in.well_formed()) { return {{error_code::invalid_argument, 0}, 0}; }
  try {
    return convert(in, options, output, nullptr);
  } catch (const std::bad_alloc &) {
    return {{error_code::out_of_memory, 0}, 0};
  }
}

msgpack_error msgpack_to_json(parser &p, input in, const msgpack_options &options,
                              const msgpack_output &output) noexcept {
  if (!in.well_formed()) { return {{error_code::invalid_argument, 0}, 0}; }
  try {
    internal::msgpack_json_workspace &kept = internal::kept_workspace(p, &parser::state::msgpack_json);
    const msgpack_error e = convert(in, options, output, &kept);
    kept.trim();
    return e;
  } catch (const std::bad_alloc &) {
    return {{error_code::out_of_memory, 0}, 0};
  }
}

msgpack_error msgpack_to_json(stream_source &source, const msgpack_options &options,
                              const msgpack_sink &write) noexcept {
  try {
    const size_t block = std::max<size_t>(options.block_size, 1);
    const size_t step = block * std::max(1u, options.threads); // a block for each thread a time
    std::vector<uint8_t> bytes; // [0, size): read, not yet converted; bytes[0] is at `base` in the stream
    size_t size = 0, want = step;
    size_t tried = 0;           // the last value cut by the buffer's end converted as it is (0: none since)
    uint64_t base = 0, values = 0;
    bool at_end = false;
    std::vector<internal::msgpack_block> blocks; // each step's, their outputs' memory kept
    for (;;) {
      if (const error e = internal::read_up_to(source, bytes, size, want, at_end); !e.ok()) {
        return {{e.code, base + e.offset}, values + 1};
      }
      // The whole values read, skimmed into blocks of about `block` bytes.
      size_t begin = 0, p = 0, n = 0;
      error broken, limited; // limited: a whole value past max_value_length, its error
      while (p < size) {
        const size_t start = p;
        if (error e = skim(bytes.data(), size, p); !e.ok()) {
          p = start;
          broken = e;
          break;
        }
        if (past_limit(options, start, p)) {
          limited = too_long(bytes.data(), size, start, options);
          p = start;
          break;
        }
        if (p - begin >= block) { internal::reuse_block(blocks, n++, std::exchange(begin, p), p); }
      }
      if (p > begin) { internal::reuse_block(blocks, n++, begin, p); }
      blocks.resize(n);
      internal::convert_blocks(blocks, options.threads, nullptr, [&](internal::msgpack_block &b, unsigned) {
        try {
          convert_values(bytes.data(), options, b);
        } catch (const std::bad_alloc &) {
          b.failure = {{error_code::out_of_memory, b.begin}, b.documents + 1};
        }
      });
      // Every value before the first that failed is handed on, in order.
      for (internal::msgpack_block &b : blocks) {
        if (!b.out.empty() && !write(b.out.data(), b.out.size())) {
          return {{error_code::write_failed, base + b.begin}, values + 1};
        }
        if (!b.failure.ok()) { return {{b.failure.e.code, base + b.failure.e.offset}, values + b.failure.document}; }
        values += b.documents;
      }
      if (!limited.ok()) { return {{limited.code, base + limited.offset}, values + 1}; }
      if (broken.ok() && at_end) { return {}; }
      // (Under a limit, a broken value is decided once the limit's bytes of it and one more are
      // here, or the stream has ended: within_limit, as over the whole stream.)
      const bool decided = at_end || options.max_value_length == 0 || size - p > options.max_value_length;
      if (!broken.ok() && (at_end || broken.code != error_code::msgpack_truncated) && decided) {
        const error first = first_error(bytes.data(), size, p, options, broken);
        const error e = within_limit(bytes.data(), size, p, options, first);
        return {{e.code, base + e.offset}, values + 1};
      }
      // The rest is a value cut by the buffer's end: kept, and more read after it. One longer
      // than a step is converted as it is once it is twice a step and twice the last try: an
      // error before the bytes end (not the end too soon of any value cut short) is its error
      // wherever it ends, so that a value that never ends (arrays nested without end) is
      // refused at its depth limit or first bad byte, not read on without end. (One whose
      // arrays claim more items than have come converts as truncated here: it is read on.)
      std::memmove(bytes.data(), bytes.data() + p, size - p);
      base += p;
      size -= p;
      if (p > 0) { tried = 0; }
      if (past_limit(options, 0, size)) { // the value read so far passes the limit: held no further
        const error e = too_long(bytes.data(), size, 0, options);
        return {{e.code, base + e.offset}, values + 1};
      }
      if (internal::due_a_try(size, step, tried)) {
        tried = size;
        const error e = first_error(bytes.data(), size, 0, options, {});
        if (!e.ok() && e.code != error_code::msgpack_truncated) { return {{e.code, base + e.offset}, values + 1}; }
      }
      want = std::max(size + step, 2 * size); // a long value is skimmed again about twice in all
    }
  } catch (const std::bad_alloc &) {
    return {{error_code::out_of_memory, 0}, 0};
  }
}

} // namespace simdbridge
