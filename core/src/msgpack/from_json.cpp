// SPDX-License-Identifier: Apache-2.0
// JSON to MessagePack, with no object built: each document written as MessagePack straight from
// simdjson's structural index, in one pass (direct_sink, through structural_walk.h), then copied
// out with its large containers' headers widened. What that walk refuses (a scalar root, a number
// past 64 bits, a lone surrogate, any error) is read onto a binding tape (parser::to_binding_tape:
// validated, its strings unescaped, its containers' counts known), then sized and written from
// the tape in two linear passes; that route also names the errors.
#include <algorithm>
#include <charconv>
#include <memory>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../binding_tape_sink.h"
#include "../parser_entry.h"
#include "../scalar_parser.h"
#include "../stream/open_record.h"
#include "../structural_walk.h"
#include "blocks.h"
#include "simdbridge/msgpack.h"
#include "simdbridge/binding_tape.h"
#include "simdbridge/stream.h"

namespace simdbridge {
namespace {

inline binding_tape_entry kind_of(uint64_t word) noexcept { return binding_tape_entry(word >> 56); }

/** The bytes of an integer in its smallest MessagePack form (positive ones unsigned, as msgpack-python packs them). */
inline size_t int_size(int64_t v) noexcept {
  if (v >= 0) { return v < 128 ? 1 : v < 256 ? 2 : v < 65536 ? 3 : v <= 0xFFFFFFFFll ? 5 : 9; }
  return v >= -32 ? 1 : v >= -128 ? 2 : v >= -32768 ? 3 : v >= -2147483648ll ? 5 : 9;
}

/** The header's bytes for a string of n bytes, a container of n entries. */
inline size_t str_header_size(uint64_t n) noexcept { return n < 32 ? 1 : n < 256 ? 2 : n < 65536 ? 3 : 5; }
inline size_t container_header_size(uint64_t n) noexcept { return n < 16 ? 1 : n < 65536 ? 3 : 5; }

inline uint8_t *put16(uint8_t *p, uint8_t tag, uint16_t v) noexcept {
  p[0] = tag;
  p[1] = uint8_t(v >> 8);
  p[2] = uint8_t(v);
  return p + 3;
}
inline uint8_t *put32(uint8_t *p, uint8_t tag, uint32_t v) noexcept {
  p[0] = tag;
  v = __builtin_bswap32(v);
  std::memcpy(p + 1, &v, 4);
  return p + 5;
}
inline uint8_t *put64(uint8_t *p, uint8_t tag, uint64_t v) noexcept {
  p[0] = tag;
  v = __builtin_bswap64(v);
  std::memcpy(p + 1, &v, 8);
  return p + 9;
}

inline uint8_t *put_int(uint8_t *p, int64_t v) noexcept {
  if (v >= 0) {
    if (v < 128) {
      *p = uint8_t(v);
      return p + 1;
    }
    if (v < 256) {
      p[0] = 0xcc;
      p[1] = uint8_t(v);
      return p + 2;
    }
    if (v < 65536) { return put16(p, 0xcd, uint16_t(v)); }
    if (v <= 0xFFFFFFFFll) { return put32(p, 0xce, uint32_t(v)); }
    return put64(p, 0xcf, uint64_t(v));
  }
  if (v >= -32) {
    *p = uint8_t(int8_t(v));
    return p + 1;
  }
  if (v >= -128) {
    p[0] = 0xd0;
    p[1] = uint8_t(int8_t(v));
    return p + 2;
  }
  if (v >= -32768) { return put16(p, 0xd1, uint16_t(int16_t(v))); }
  if (v >= -2147483648ll) { return put32(p, 0xd2, uint32_t(int32_t(v))); }
  return put64(p, 0xd3, uint64_t(v));
}

inline uint8_t *put_double(uint8_t *p, double d) noexcept {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  return put64(p, 0xcb, bits);
}

inline uint8_t *put_str_header(uint8_t *p, size_t n) noexcept {
  if (n < 32) {
    *p = uint8_t(0xa0 | n);
    return p + 1;
  }
  if (n < 256) {
    p[0] = 0xd9;
    p[1] = uint8_t(n);
    return p + 2;
  }
  if (n < 65536) { return put16(p, 0xda, uint16_t(n)); }
  return put32(p, 0xdb, uint32_t(n));
}

inline uint8_t *put_container(uint8_t *p, uint8_t fix, uint8_t tag16, uint32_t n) noexcept {
  if (n < 16) {
    *p = uint8_t(fix | n);
    return p + 1;
  }
  if (n < 65536) { return put16(p, tag16, uint16_t(n)); }
  return put32(p, uint8_t(tag16 + 1), n);
}

/**
 * A number simdjson leaves to its token (binding_tape_entry::big_number: an integer past 64 bits, a
 * number past the double range) as the double Python's float() makes of it: the nearest, or
 * an infinity, or a zero.
 */
double big_number_value(const uint8_t *token, size_t length) noexcept {
  double d = 0;
  const char *first = reinterpret_cast<const char *>(token);
  const auto [end, ec] = std::from_chars(first, first + length, d);
  if (ec == std::errc() && end == first + length) { return d; }
  try { // out of range: strtod says which way (an infinity or a zero), on a NUL-terminated copy
    const std::string text(first, length);
    return std::strtod(text.c_str(), nullptr);
  } catch (...) {
    return HUGE_VAL;
  }
}

/**
 * Whether a float64 entry is JSON's "-0": an integer token (json.loads gives int 0), which
 * simdjson puts on the tape as the double -0.0.
 */
inline bool negative_zero_integer(double d, const uint8_t *json, uint64_t offset, size_t size) noexcept {
  if (d != 0 || !std::signbit(d)) { return false; }
  const size_t next = offset + 2; // just past "-0"
  return next >= size || (json[next] != '.' && json[next] != 'e' && json[next] != 'E');
}

/** A document on a binding tape, and the input it was read from (for number tokens). */
struct tape_document {
  const uint64_t *words;
  size_t word_count;
  const uint8_t *strings;
  const uint8_t *json;
  size_t json_size;

  /** The MessagePack's size, or an error (a lone surrogate) at its string's offset. */
  error size(size_t &total) const noexcept {
    size_t n = 0;
    for (size_t i = 0; i < word_count; i += 2) {
      const uint64_t w0 = words[i], w1 = words[i + 1];
      switch (kind_of(w0)) {
      case binding_tape_entry::object:
      case binding_tape_entry::array: n += container_header_size(uint32_t(w1)); break;
      case binding_tape_entry::string:
        if (w0 & binding_tape_lone_surrogate) { return {error_code::unsupported_value, w0 & binding_tape_offset_mask}; }
        n += str_header_size(uint32_t(w1)) + uint32_t(w1);
        break;
      case binding_tape_entry::int64: n += int_size(int64_t(w1)); break;
      case binding_tape_entry::float64: {
        double d;
        std::memcpy(&d, &w1, 8);
        n += negative_zero_integer(d, json, w0 & binding_tape_offset_mask, json_size) ? 1 : 9;
        break;
      }
      case binding_tape_entry::uint64:
      case binding_tape_entry::big_number: n += 9; break;
      default: n += 1; break; // true, false, null
      }
    }
    total = n;
    return {};
  }

  /** Writes the MessagePack (size() bytes) at p. */
  void write(uint8_t *p) const noexcept {
    for (size_t i = 0; i < word_count; i += 2) {
      const uint64_t w0 = words[i], w1 = words[i + 1];
      switch (kind_of(w0)) {
      case binding_tape_entry::object: p = put_container(p, 0x80, 0xde, uint32_t(w1)); break;
      case binding_tape_entry::array: p = put_container(p, 0x90, 0xdc, uint32_t(w1)); break;
      case binding_tape_entry::string: {
        const uint32_t n = uint32_t(w1);
        p = put_str_header(p, n);
        std::memcpy(p, strings + (w1 >> 32), n);
        p += n;
        break;
      }
      case binding_tape_entry::int64: p = put_int(p, int64_t(w1)); break;
      case binding_tape_entry::uint64: p = put64(p, 0xcf, w1); break;
      case binding_tape_entry::float64: {
        double d;
        std::memcpy(&d, &w1, 8);
        if (negative_zero_integer(d, json, w0 & binding_tape_offset_mask, json_size)) {
          *p++ = 0;
        } else {
          p = put_double(p, d);
        }
        break;
      }
      case binding_tape_entry::big_number:
        p = put_double(p, big_number_value(json + (w0 & binding_tape_offset_mask), size_t(w1)));
        break;
      case binding_tape_entry::true_value: *p++ = 0xc3; break;
      case binding_tape_entry::false_value: *p++ = 0xc2; break;
      default: *p++ = 0xc0; break;
      }
    }
  }
};

/**
 * Room for a tape, left uninitialized: sized for the worst case of a document (half a word per
 * byte), of which the parse touches only what it writes. (A vector's resize wrote zeros over all
 * of it: five times the document's bytes, and as many fresh pages, on every call.)
 */
template <typename T> struct tape_room {
  std::unique_ptr<T[]> data;
  size_t size = 0;
  void resize(size_t n) {
    data.reset(new T[n]); // (default-initialized: not zeroed)
    size = n;
  }
  bool empty() const noexcept { return size == 0; }
};

/**
 * Where the structural walk writes a document's MessagePack (direct_sink): `bytes` with room
 * for direct_room() bytes, `wide` for direct_wide_room() entries; the input (for "-0").
 */
struct direct_output {
  uint8_t *bytes;
  uint64_t *wide;
  const uint8_t *json;
  size_t json_size;
};

/**
 * The bytes direct_sink may write for an input of `size` bytes: no value's MessagePack passes
 * three times its text (a float64's 9 bytes come from at least 3, a string's header of up to 5
 * from quotes around at least 65536 bytes, which unescaping never lengthens, a container's
 * byte from 2), and the last string's 16-byte stores may pass its end by 15.
 */
inline size_t direct_room(size_t size) noexcept { return 3 * size + 64; }
/** The containers of 16 entries or more such an input can hold: each has 15 commas of its own. */
inline size_t direct_wide_room(size_t structurals) noexcept { return structurals / 15 + 2; }

/**
 * The structural walk's sink that writes MessagePack as the values come (see structural_walk.h
 * for the events). A container's header holds its count, which is known only at its end: one
 * byte is kept for it, a fixmap or fixarray, which most containers are, and those of 16 entries
 * or more are listed in `wide`, their headers widened as the bytes are copied out (copy_out).
 */
class direct_sink {
public:
  using output = direct_output;

  direct_sink() = default;
  /** `open`: one slot per nesting level the walk allows, and one for the root. */
  direct_sink(direct_output *out, uint64_t *open) noexcept
      : out_(out), bytes_(out->bytes), p_(out->bytes), wide_(out->wide), top_(open) {}

  /** Where the bytes end, and the wide containers' list. */
  uint8_t *end() const noexcept { return p_; }
  uint64_t *wide_end() const noexcept { return wide_; }

  void container_begin(binding_tape_entry kind, uint64_t) noexcept {
    count_++;
    *++top_ = (uint64_t(p_ - bytes_) << 32) | count_; // the header's place, and the parent's count
    count_ = 0;
    *p_++ = kind == binding_tape_entry::object ? 0x80 : 0x90;
  }

  void container_end() noexcept {
    const uint64_t top = *top_--;
    const size_t at = size_t(top >> 32);
    if (count_ < 16) {
      bytes_[at] = uint8_t(bytes_[at] | count_);
    } else {
      *wide_++ = (uint64_t(at) << 32) | count_;
    }
    count_ = uint32_t(top);
  }

  /** A string's bytes unescaped after a fixstr's header, moved on for a longer header where it is one. */
  SIMDBRIDGE_ALWAYS_INLINE bool escaped_string(const uint8_t *src, uint64_t, bool is_key) noexcept {
    if (!is_key) { count_++; }
    size_t w = 1;
    uint32_t high = 0;
    bool overflow = false;
    if (!internal::unescape<false, true>(src, p_, 0, w, high, overflow)) { return false; }
    const size_t n = w - 1;
    if (n >= 32) { std::memmove(p_ + str_header_size(n), p_ + 1, n); }
    p_ = put_str_header(p_, n) + n;
    return true;
  }

  /** A string with no escape, between the quotes at `at` and `end` in the input. */
  void input_string(uint32_t at, uint32_t end) noexcept {
    count_++;
    const size_t n = end - at - 1;
    const uint8_t *src = out_->json + at + 1;
    p_ = put_str_header(p_, n);
#if defined(__SSE2__)
    if (n <= 16) { // within the input's padding and the room's slack
      _mm_storeu_si128(reinterpret_cast<__m128i *>(p_), _mm_loadu_si128(reinterpret_cast<const __m128i *>(src)));
      p_ += n;
      return;
    }
#endif
    std::memcpy(p_, src, n);
    p_ += n;
  }

  void number(binding_tape_entry kind, uint64_t bits, uint64_t offset) noexcept {
    count_++;
    if (kind == binding_tape_entry::int64) {
      p_ = put_int(p_, int64_t(bits));
    } else if (kind == binding_tape_entry::uint64) {
      p_ = put64(p_, 0xcf, bits);
    } else {
      double d;
      std::memcpy(&d, &bits, 8);
      if (negative_zero_integer(d, out_->json, offset, out_->json_size)) {
        *p_++ = 0;
      } else {
        p_ = put_double(p_, d);
      }
    }
  }
  void boolean(bool b, uint64_t) noexcept {
    count_++;
    *p_++ = b ? 0xc3 : 0xc2;
  }
  void null(uint64_t) noexcept {
    count_++;
    *p_++ = 0xc0;
  }

private:
  direct_output *out_ = nullptr;
  uint8_t *bytes_ = nullptr;
  uint8_t *p_ = nullptr;
  uint64_t *wide_ = nullptr;
  // Per open container, its header's place << 32 | its parent's count; the innermost's own
  // count is count_ (a register in the walk).
  uint64_t *top_ = nullptr;
  uint32_t count_ = 0;
};

/**
 * The size of the walk's MessagePack [bytes, end) once the headers of the `wide` containers
 * [wide, wide_end) are widened.
 */
size_t widened_size(const uint8_t *bytes, const uint8_t *end, const uint64_t *wide, const uint64_t *wide_end) noexcept {
  size_t n = size_t(end - bytes);
  for (const uint64_t *w = wide; w != wide_end; w++) { n += container_header_size(uint32_t(*w)) - 1; }
  return n;
}

/**
 * Copies the walk's MessagePack to `to` (widened_size() bytes), each wide container's header
 * written in full in place of its byte. The list is sorted first: containers close (and were
 * listed) inner first, and the copy goes in the order of the bytes.
 */
void copy_out(const uint8_t *bytes, const uint8_t *end, uint64_t *wide, uint64_t *wide_end, uint8_t *to) noexcept {
  std::sort(wide, wide_end);
  size_t from = 0;
  for (const uint64_t *w = wide; w != wide_end; w++) {
    const size_t at = size_t(*w >> 32);
    std::memcpy(to, bytes + from, at - from);
    to += at - from;
    const bool map = (bytes[at] & 0xF0) == 0x80;
    to = put_container(to, map ? 0x80 : 0x90, map ? 0xde : 0xdc, uint32_t(*w));
    from = at + 1;
  }
  std::memcpy(to, bytes + from, size_t(end - bytes) - from);
}

/** One thread's parser and tape, reused from document to document. */
struct converter {
  parser *p; // the calling thread's, or one a pool keeps for its other threads
  tape_room<uint64_t> words;
  tape_room<uint8_t> strings;

  tape_room<uint8_t> walk_bytes;
  tape_room<uint64_t> walk_wide;

  explicit converter(parser &parser_) : p(&parser_) {}

  /**
   * Reads the document `in`, its MessagePack's size into `size`, for write(): straight from its
   * structural index where that walk takes it, or else from the tape.
   */
  error read(input in, size_t &size) {
    walked = walk(in, size);
    if (walked) { return {}; }
    if (error e = parse(in); !e.ok()) { return e; }
    return doc.size(size);
  }

  /** Writes the MessagePack of the document read() last (its size) at `to`. */
  void write(uint8_t *to) {
    if (walked) {
      copy_out(walk_bytes.data.get(), walk_end, walk_wide.data.get(), walk_wide_end, to);
    } else {
      doc.write(to);
    }
  }

  /**
   * Writes the document `in` as MessagePack from its structural index (direct_sink), its size
   * once copied out into `size`. False where the walk refuses it (see structural_walk.h) or the
   * input is one it does not take: empty; 1 GB or more (the sink keeps its places in 32 bits,
   * and 3 GB of MessagePack fits them); or where a limit on its length or on its strings' may
   * apply. The tape route then reads it, and names its error.
   */
  bool walk(input in, size_t &size) {
    const parser_options &o = p->options();
    if (in.size == 0 || in.size >= (size_t(1) << 30) || internal::strings_may_pass(o, in.size) ||
        !internal::length_error(o, 0, in.size).ok()) {
      return false;
    }
    parser::state *st = internal::parser_internals::state(*p);
    bool done = false;
    const error e = internal::guarded<error>(st, o, in, [&]() -> error {
      internal::structural_index ix;
      if (error failed = internal::index_structurals(*st, in, true, ix); !failed.ok() || !ix.indexed) { return failed; }
      const size_t room = direct_room(in.size), wide_room = direct_wide_room(ix.count);
      if (walk_bytes.size < room) { walk_bytes.resize(std::max(room, walk_bytes.size * 2)); }
      if (walk_wide.size < wide_room) { walk_wide.resize(std::max(wide_room, walk_wide.size * 2)); }
      direct_output out{walk_bytes.data.get(), walk_wide.data.get(), ix.data, in.size};
      uint64_t *const open = internal::with_slots(st->tape_open, internal::walk_levels(o.max_depth, in.size));
      internal::structural_walk<direct_sink> w(ix.data, ix.positions, ix.count, &out, open, st->scopes.data(),
                                                o.max_depth, nullptr, nullptr, ix.escapes);
      if (w.document()) {
        done = true;
        walk_end = w.sink().end();
        walk_wide_end = w.sink().wide_end();
      }
      return {};
    });
    if (!e.ok() || !done) { return false; }
    size = widened_size(walk_bytes.data.get(), walk_end, walk_wide.data.get(), walk_wide_end);
    return true;
  }

  /**
   * Reads the document `in` onto the tape: the parser's errors only, the first in the input
   * (those of the MessagePack, a lone surrogate, come from sizing the tape after).
   */
  error parse(input in) {
    if (words.empty()) {
      words.resize(std::max<size_t>(64, in.size / 2));
      strings.resize(std::max<size_t>(64, in.size + 16));
    }
    binding_tape_buffer tape{words.data.get(), words.size, strings.data.get(), strings.size};
    error e = p->to_binding_tape(in, tape);
    if (e.code == error_code::output_too_small) {
      if (tape.words_used + 16 > words.size) { words.resize(tape.words_used + 16); }
      if (tape.strings_used + 16 > strings.size) { strings.resize(tape.strings_used + 16); }
      tape = binding_tape_buffer{words.data.get(), words.size, strings.data.get(), strings.size};
      e = p->to_binding_tape(in, tape);
    }
    if (!e.ok()) { return e; }
    doc = tape_document{words.data.get(), tape.words_used, strings.data.get(), in.data, in.size};
    return {};
  }

  /** Appends the document `in` as MessagePack to `out`. */
  error append(input in, internal::output_bytes &out) {
    size_t n = 0;
    if (error e = read(in, n); !e.ok()) { return e; }
    const size_t at = out.size();
    out.resize(at + n);
    write(out.data() + at);
    return {};
  }

  tape_document doc{};
  bool walked = false; // read() last took the walk: its bytes end at walk_end
  uint8_t *walk_end = nullptr;
  uint64_t *walk_wide_end = nullptr;
};

inline bool is_space(uint8_t c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/**
 * The documents of an NDJSON block [begin, end) of `in`, a line each (lines of white space
 * skipped), appended to the block's output. Each line is read in place where the input's
 * padding lies past it.
 */
void convert_lines(converter &c, input in, internal::msgpack_block &b) {
  size_t pos = b.begin;
  while (pos < b.end) {
    const void *nl = std::memchr(in.data + pos, '\n', b.end - pos);
    const size_t line_end = nl ? size_t(static_cast<const uint8_t *>(nl) - in.data) : b.end;
    size_t first = pos;
    while (first < line_end && is_space(in.data[first])) { first++; }
    if (first < line_end) {
      const input line{in.data + pos, line_end - pos, in.capacity - pos};
      const error e = c.append(line, b.out);
      if (!e.ok()) {
        b.failure = {{e.code, e.offset + pos}, b.documents + 1};
        return;
      }
      b.documents++;
    }
    pos = nl ? line_end + 1 : b.end;
  }
}

/**
 * An NDJSON input cut into `blocks` (their memory reused) of about `size` bytes, each ending
 * just past a newline (or at the end).
 */
void line_blocks(input in, size_t size, std::vector<internal::msgpack_block> &blocks) {
  size = std::max<size_t>(size, 1);
  size_t n = 0;
  for (size_t begin = 0; begin < in.size;) {
    size_t end = in.size - begin > size ? begin + size : in.size;
    if (end < in.size) {
      const void *nl = std::memchr(in.data + end, '\n', in.size - end);
      end = nl ? size_t(static_cast<const uint8_t *>(nl) - in.data) + 1 : in.size;
    }
    internal::reuse_block(blocks, n++, begin, end);
    begin = end;
  }
  blocks.resize(n);
}

/** The calling thread's converter (on `p`) and one more, with its own parser, for each other thread. */
struct converter_pool {
  std::vector<std::unique_ptr<parser>> parsers; // [0] stays empty: the calling thread's is p
  std::vector<std::unique_ptr<converter>> converters;
  size_t threads = 0; // of converters, those in use

  converter_pool() = default;
  converter_pool(parser &p, size_t threads_) { fit(p, threads_); }

  /**
   * Ready for `threads_` threads, the first on `p`, each other on a parser of its own with p's
   * options; the parsers and converters of a call before are kept, with their buffers.
   */
  void fit(parser &p, size_t threads_) {
    if (converters.size() < threads_) {
      parsers.resize(threads_);
      converters.resize(threads_);
    }
    for (size_t t = 0; t < threads_; t++) {
      parser *on = &p;
      if (t > 0) {
        if (!parsers[t]) {
          parsers[t] = std::make_unique<parser>(p.options());
        } else if (!parsers[t]->set_options(p.options()).ok()) {
          throw std::bad_alloc();
        }
        on = parsers[t].get();
      }
      if (!converters[t]) {
        converters[t] = std::make_unique<converter>(*on);
      } else {
        converters[t]->p = on;
      }
    }
    threads = threads_;
  }

  /** The lines of `blocks` (cut from `in`) converted on up to `threads` threads. */
  void convert(input in, std::vector<internal::msgpack_block> &blocks) {
    const auto convert_block = [&](internal::msgpack_block &b, unsigned worker) {
      try {
        convert_lines(*converters[worker], in, b);
      } catch (const std::bad_alloc &) {
        b.failure = {{error_code::out_of_memory, b.begin}, b.documents + 1};
      }
    };
    internal::convert_blocks(blocks, unsigned(threads), nullptr, convert_block);
  }

  /** The bytes of buffer the converters keep. */
  size_t kept() const noexcept {
    size_t n = 0;
    for (const auto &c : converters) {
      if (c) { n += c->walk_bytes.size + 8 * (c->walk_wide.size + c->words.size) + c->strings.size; }
    }
    return n;
  }
};

size_t thread_count(const msgpack_options &options, size_t blocks) {
  return std::min<size_t>(std::max(1u, options.threads), std::max<size_t>(blocks, 1));
}

} // namespace

/**
 * What json_to_msgpack keeps in a parser from call to call (parser::state::msgpack): its
 * converters and blocks, whose buffers would otherwise be allocated afresh each call, and their
 * pages faulted in again (on GH Archive's 17.8 MB, about 8,500 page faults a call on one thread,
 * half its time). Up to workspace_kept_at_most: past it, they are freed once the call is done.
 */
struct internal::msgpack_workspace {
  converter_pool pool;
  std::vector<internal::msgpack_block> blocks;

  /** Frees the buffers where they keep more than workspace_kept_at_most. */
  void trim() noexcept {
    size_t n = pool.kept();
    for (const internal::msgpack_block &b : blocks) { n += b.out.capacity(); }
    if (n > workspace_kept_at_most) { *this = {}; }
  }
};

void internal::destroy(msgpack_workspace *w) noexcept { delete w; }

bool internal::walked_msgpack(parser &p, input in, std::vector<uint8_t> &out) {
  converter c(p);
  size_t n = 0;
  if (!(c.walked = c.walk(in, n))) { return false; }
  out.resize(n);
  c.write(out.data());
  return true;
}

msgpack_error json_to_msgpack(parser &p, input in, const msgpack_options &options, std::vector<uint8_t> &out) noexcept {
  out.clear();
  return json_to_msgpack(p, in, options, internal::into(out));
}

msgpack_error json_to_msgpack(parser &p, input in, const msgpack_options &options, const msgpack_output &output) noexcept {
  if (!in.well_formed()) { return {{error_code::invalid_argument, 0}, 0}; }
  try {
    internal::msgpack_workspace &w = internal::kept_workspace(p, &parser::state::msgpack);
    msgpack_error result;
    if (!options.ndjson) { // sized first, then written into the caller's memory
      w.pool.fit(p, 1);
      converter &c = *w.pool.converters[0];
      size_t n = 0;
      uint8_t *to = nullptr;
      if (error e = c.read(in, n); !e.ok()) {
        result = {e, 1};
      } else if ((to = output(n)) == nullptr) {
        result = {{error_code::out_of_memory, 0}, 1};
      } else {
        c.write(to);
      }
    } else {
      line_blocks(in, options.block_size, w.blocks);
      w.pool.fit(p, thread_count(options, w.blocks.size()));
      w.pool.convert(in, w.blocks);
      result = internal::hand_over(w.blocks, &output, unsigned(w.pool.threads));
    }
    w.trim();
    return result;
  } catch (const std::bad_alloc &) {
    return {{error_code::out_of_memory, 0}, 0};
  }
}

msgpack_error json_to_msgpack(parser &p, stream_source &source, const msgpack_options &options,
                              const msgpack_sink &write) noexcept {
  try {
    const size_t block = std::max<size_t>(options.block_size, 1);
    const size_t step = block * std::max(1u, options.threads); // a block for each thread a time
    const uint64_t limit = p.options().max_document_length;
    converter_pool pool(p, std::max(1u, options.threads));
    std::vector<internal::msgpack_block> blocks; // each step's, their outputs' memory kept
    std::vector<uint8_t> bytes;   // [0, size): read, not yet converted; bytes[0] is at `base` in the stream
    size_t size = 0;
    size_t searched = 0;          // no line end in [0, searched)
    size_t tried = 0;             // the last line with no end yet read as it is (0: none since a line end)
    uint64_t blank_too_long = 0;  // the line so far is white space past the limit: its error's offset + 1
    uint64_t base = 0, documents = 0;
    bool at_end = false;
    while (!at_end || size > 0) {
      if (const error e = internal::read_up_to(source, bytes, size, size + step, at_end); !e.ok()) {
        return {{e.code, base + e.offset}, documents + 1};
      }
      size_t cut = size;
      if (!at_end) {
        const uint8_t *last = nullptr; // the last line end past `searched`
        for (size_t i = size; i > searched && last == nullptr; i--) {
          if (bytes[i - 1] == '\n') { last = bytes.data() + i - 1; }
        }
        if (last == nullptr) {
          // One line with no end yet. White space alone is kept to its last few bytes (all the
          // checks of a document's first bytes read), so that a stream of it is not held
          // whole; under a limit, once it is past it, a document after it on the line is the
          // limit's error at the line's start plus the limit (read whole: the line's).
          searched = size;
          size_t first = 0;
          while (first < size && is_space(bytes[first])) { first++; }
          if (first == size) {
            if (size > internal::blank_kept && (limit == 0 || size > limit)) {
              if (limit > 0 && blank_too_long == 0) { blank_too_long = base + limit + 1; }
              std::memmove(bytes.data(), bytes.data() + size - internal::blank_kept, internal::blank_kept);
              base += size - internal::blank_kept;
              size = searched = internal::blank_kept;
            }
            continue;
          }
          if (blank_too_long != 0) { return {{error_code::document_too_long, blank_too_long - 1}, documents + 1}; }
          // Past the limit it is an error whatever follows; with no limit, it is read as it is
          // once it is twice a step and twice the last try: an error before its bytes end (not
          // the end too soon of any line cut short) is its error wherever it ends, so that
          // bytes with no line end (a device of zeros) are refused within a few steps, not
          // read into memory to an end that may never come.
          // (Never fewer than 3 bytes: the checks of a document's first bytes read that many.)
          if (size >= 3 && ((limit > 0 && size > limit) || (limit == 0 && internal::due_a_try(size, step, tried)))) {
            tried = size;
            // Parsed only: an error of the MessagePack (a lone surrogate) may come after one
            // of the parser's further on the line.
            const error e = pool.converters[0]->parse(input::padded(bytes.data(), size, bytes.size()));
            if (!e.ok() && !(e.code == error_code::unexpected_end && e.offset == size)) {
              return {{e.code, base + e.offset}, documents + 1};
            }
          }
          continue;
        }
        cut = size_t(last - bytes.data()) + 1;
      }
      if (blank_too_long != 0) { // the line of white space past the limit: a document on it is too long
        const uint8_t *start = bytes.data(), *line_end = std::find(start, start + cut, uint8_t('\n'));
        if (std::find_if(start, line_end, [](uint8_t c) { return !is_space(c); }) != line_end) {
          return {{error_code::document_too_long, blank_too_long - 1}, documents + 1};
        }
        blank_too_long = 0;
      }
      const input chunk = input::padded(bytes.data(), cut, bytes.size());
      line_blocks(chunk, block, blocks);
      pool.convert(chunk, blocks);
      // Every document before the first that failed is handed on, in order.
      for (internal::msgpack_block &b : blocks) {
        if (!b.out.empty() && !write(b.out.data(), b.out.size())) {
          return {{error_code::write_failed, base + b.begin}, documents + 1};
        }
        if (!b.failure.ok()) { return {{b.failure.e.code, base + b.failure.e.offset}, documents + b.failure.document}; }
        documents += b.documents;
      }
      std::memmove(bytes.data(), bytes.data() + cut, size - cut);
      base += cut;
      size -= cut;
      searched = tried = 0;
    }
    return {};
  } catch (const std::bad_alloc &) {
    return {{error_code::out_of_memory, 0}, 0};
  }
}

} // namespace simdbridge
