// SPDX-License-Identifier: Apache-2.0
// The binding tape's fast path: simdjson's stage 1 (the SIMD scan that validates UTF-8 and finds
// every structural character, quote and scalar), then one pass over its structural index that
// checks the grammar and writes the binding tape straight away, with each value's byte offset.
// The same walk writes MessagePack through a sink of its own (msgpack/from_json.cpp).
//
// It takes the place of simdjson's stage 2 for this one output: simdjson's DOM parse writes its
// own tape, which would then be walked again to write ours, and the On Demand walk costs more
// per value than a loop over the index. Strings are
// unescaped by the tape sink; numbers are parsed by simdjson's own number parser (header only).
//
// With a binding plan (simdbridge/binding_plan.h, `Planned`), an object where the plan expects one
// has its keys checked against the plan's, in order, and left off the tape; an object that does
// not hold exactly those keys makes the walk refuse (the caller then walks without the plan).
//
// Whatever this pass does not take — a scalar at the root, an integer past 64 bits, a number past
// the double range, a lone surrogate, nesting past the limit, any error — makes it refuse, and
// the scalar parser, the arbiter, reads the document again (and names the error).
#ifndef SIMDBRIDGE_SRC_STRUCTURAL_WALK_H
#define SIMDBRIDGE_SRC_STRUCTURAL_WALK_H

#include <cstdint>
#include <cstring>

#include <simdjson.h>

#include "binding_plan/plan_nodes.h"
#include "simdbridge/binding_tape.h"

namespace simdbridge::internal {

/** A number as simdjson's number parser read it: its kind and its 64 bits. */
struct parsed_number {
  binding_tape_entry kind = binding_tape_entry::int64;
  uint64_t bits = 0;
  double as_double() const noexcept {
    if (kind == binding_tape_entry::int64) { return double(int64_t(bits)); }
    if (kind == binding_tape_entry::uint64) { return double(bits); }
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
};

/** simdjson's number parser writes through this, into a `parsed_number` apart from the caller's
 *  state (whose address would otherwise escape into the parser). */
struct parsed_number_writer {
  parsed_number *out;
  void append_s64(int64_t v) noexcept { *out = {binding_tape_entry::int64, uint64_t(v)}; }
  void append_u64(uint64_t v) noexcept { *out = {binding_tape_entry::uint64, v}; }
  void append_double(double d) noexcept {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    *out = {binding_tape_entry::float64, bits};
  }
  /** After simdjson's slow float path, which wrote through a copy of this writer: `out` has
   *  the value already (the copy points to it too). */
  void skip_double() noexcept {}
};

/** The number token at `p` (simdjson's grammar, read into 64 bits, ended by white space or a
 *  structural character); false where it is not one, or past 64 bits or the double range. */
simdjson_inline bool parse_number_at(const uint8_t *p, parsed_number &out) noexcept {
  parsed_number_writer writer{&out};
  return simdjson::fallback::numberparsing::parse_number(p, writer) == simdjson::SUCCESS;
}

/** The literal at `p`, ended by white space or a structural character (read from the padding at the end). */
simdjson_inline bool atom_at(const uint8_t *p, const char *literal, size_t length) noexcept {
  return std::memcmp(p, literal, length) == 0 &&
         simdjson::fallback::jsoncharutils::is_not_structural_or_whitespace(p[length]) == 0;
}

/**
 * Writes the document in `buf` (padded) through TapeSink into `out` (TapeSink::output: the
 * binding tape, or MessagePack's room) from its structural index `index` (`count` positions,
 * from stage 1); `open` is the sink's stack of open containers. The sink is made inside the
 * walk and held by value, so that its counters stay in registers (behind a reference they were
 * reloaded after every word it stored: the words are 64-bit integers, as its counters are).
 * `scopes` holds one byte per level up to `max_depth` + 1; with `Planned`, `plan` is followed
 * and `levels` holds a slot per level as well. With `escapes` (an all-ASCII input's
 * backslashes, see all_ascii), string values with none are left in the input.
 */
template <typename TapeSink, bool Planned = false> class structural_walk {
public:
  structural_walk(const uint8_t *buf, const uint32_t *index, size_t count, typename TapeSink::output *out,
                  uint64_t *open, uint8_t *scopes, uint32_t max_depth, const binding_plan::nodes *plan = nullptr,
                  plan_level *levels = nullptr, const uint32_t *escapes = nullptr) noexcept
      : buf_(buf), index_(index), count_(count), out_(out), open_(open), scopes_(scopes), max_depth_(max_depth),
        plan_(plan), levels_(levels), escapes_(escapes) {}

  /** What the last document() wrote: whether it fit, the words and string bytes (or needed). */
  bool fits() const noexcept { return sink_.fits(); }
  size_t words() const noexcept { return sink_.words(); }
  size_t strings() const noexcept { return sink_.strings(); }
  /** The sink as the last document() left it. */
  const TapeSink &sink() const noexcept { return sink_; }

  /** The whole document; false where it refuses (see above). */
  bool document() noexcept {
    // The sink as a local whose address never escapes, so that its counters stay in registers:
    // as a member behind `this` they were stored and reloaded around every string it copied (a
    // vector store may alias anything). Made here from two pointers, not copied from a sink
    // member: the copy read that member back in 16-byte loads from the 8-byte stores that had
    // just written it, which the CPU cannot forward (a store-forwarding stall per field).
    TapeSink sink(out_, open_);
    const bool done = walk(sink);
    sink_ = sink;
    return done;
  }

private:
  simdjson_inline bool walk(TapeSink &sink) noexcept { // always inlined: `sink` must stay a local
    size_t i = 0;
    uint32_t depth = 0;
    scopes_[0] = 0;
    uint32_t at;
    uint8_t c;
    // The plan node of the next value (the root's first); none outside what the plan covers.
    [[maybe_unused]] const plan_node *pending = Planned ? &plan_->all[0] : nullptr;
    // The innermost container's place in the plan: a planned object's next key and its end, an
    // array's element node. Saved in levels_ when a container opens inside it, restored when that
    // one closes (a plain object changes neither).
    [[maybe_unused]] const plan_key *cursor = nullptr;
    [[maybe_unused]] const plan_key *cursor_end = nullptr;
    [[maybe_unused]] const plan_node *element = nullptr;
    // With strings left in the input: the next backslash's offset at or past the string read.
    const uint32_t *escape = escapes_;
    // The next structural's position and byte, or a refusal where there is none.
#define SIMDBRIDGE_NEXT()                                                                                  \
  do {                                                                                                     \
    if (i >= count_) { return false; }                                                                     \
    at = index_[i++];                                                                                      \
    c = buf_[at];                                                                                          \
  } while (0)
    SIMDBRIDGE_NEXT();
    if (c != '{' && c != '[') { return false; } // a scalar root: the scalar parser's
  value:
    switch (c) {
    case '{':
      if (depth == max_depth_) { return false; }
      sink.container_begin(binding_tape_entry::object, at);
      if constexpr (Planned) {
        if (pending != nullptr && pending->kind == plan_kind::object) {
          scopes_[++depth] = planned_object;
          levels_[depth].cursor = cursor;
          levels_[depth].end = cursor_end;
          cursor = pending->keys;
          cursor_end = pending->keys_end;
          SIMDBRIDGE_NEXT();
          if (c != '}') { goto planned_key; }
          goto close; // an empty object: the plan's must be too
        }
      }
      scopes_[++depth] = 1;
      SIMDBRIDGE_NEXT();
      if (c == '}') {
        sink.container_end();
        depth--;
        goto after_value;
      }
      goto key;
    case '[':
      if (depth == max_depth_) { return false; }
      sink.container_begin(binding_tape_entry::array, at);
      scopes_[++depth] = 0;
      if constexpr (Planned) {
        levels_[depth].element = element;
        element = pending != nullptr && pending->kind == plan_kind::array ? pending->element_node : nullptr;
        pending = element;
      }
      SIMDBRIDGE_NEXT();
      if (c == ']') {
        if constexpr (Planned) { goto close; } // the element node of the array around it back
        sink.container_end();
        depth--;
        goto after_value;
      }
      goto value;
    case '"':
      if (escape != nullptr) {
        // Left in the input where no backslash comes before its closing quote, which is the
        // last '"' before the next structural (only white space may come between: stage 1
        // indexes any other byte that follows a string).
        if (i >= count_) { return false; }
        uint32_t end = index_[i] - 1;
        while (buf_[end] != '"') { end--; }
        while (*escape < at) { escape++; } // past the keys' and earlier strings' (then UINT32_MAX)
        if (*escape > end) {
          sink.input_string(at, end);
          goto after_value;
        }
      }
      if (!sink.escaped_string(buf_ + at + 1, at, false)) { return false; }
      goto after_value;
    case 't':
      if (!atom(at, "true", 4)) { return false; }
      sink.boolean(true, at);
      goto after_value;
    case 'f':
      if (!atom(at, "false", 5)) { return false; }
      sink.boolean(false, at);
      goto after_value;
    case 'n':
      if (!atom(at, "null", 4)) { return false; }
      sink.null(at);
      goto after_value;
    default: {
      parsed_number read;
      if (!parse_number_at(buf_ + at, read)) { return false; }
      sink.number(read.kind, read.bits, at);
      goto after_value;
    }
    }
  key:
    if (c != '"' || !sink.escaped_string(buf_ + at + 1, at, true)) { return false; }
    SIMDBRIDGE_NEXT();
    if (c != ':') { return false; }
    SIMDBRIDGE_NEXT();
    if constexpr (Planned) { pending = nullptr; }
    goto value;
  planned_key: __attribute__((unused)); // reached with a plan only
    if constexpr (Planned) {
      if (cursor == cursor_end || c != '"' || i >= count_ || !plan_->key_is(buf_ + at + 1, buf_ + index_[i], *cursor)) {
        return false;
      }
      pending = cursor->child_node;
      cursor++;
      SIMDBRIDGE_NEXT();
      if (c != ':') { return false; }
      SIMDBRIDGE_NEXT();
      goto value;
    }
  after_value:
    if (depth == 0) { return i == count_; } // nothing may follow the root
    SIMDBRIDGE_NEXT();
    if (c == ',') {
      SIMDBRIDGE_NEXT();
      if constexpr (Planned) {
        if (scopes_[depth] == planned_object) { goto planned_key; }
        pending = element; // an array's element (a plain object's values: unread)
      }
      if (scopes_[depth]) { goto key; }
      goto value;
    }
    if (c != (scopes_[depth] ? '}' : ']')) { return false; }
  close: __attribute__((unused)); // the innermost container closes at `c`
    if constexpr (Planned) {
      if (scopes_[depth] == planned_object) {
        if (cursor != cursor_end) { return false; } // a key of the plan's missing
        cursor = levels_[depth].cursor;
        cursor_end = levels_[depth].end;
      } else if (scopes_[depth] == 0) {
        element = levels_[depth].element;
      }
    }
    sink.container_end();
    depth--;
    goto after_value;
#undef SIMDBRIDGE_NEXT
  }

  bool atom(uint32_t at, const char *literal, size_t length) const noexcept { return atom_at(buf_ + at, literal, length); }

  /** scopes_: 0 an array, 1 an object, planned_object an object read by the plan. */
  static constexpr uint8_t planned_object = 2;

  const uint8_t *buf_;
  const uint32_t *index_;
  size_t count_;
  typename TapeSink::output *out_;
  uint64_t *open_;
  TapeSink sink_;
  uint8_t *scopes_;
  uint32_t max_depth_;
  const binding_plan::nodes *plan_;
  plan_level *levels_;
  // With string values left in the input (TapeSink::input_string), for an all-ASCII input: its
  // backslashes' offsets, ascending, then UINT32_MAX (all_ascii). Null: every string copied.
  const uint32_t *escapes_;
};

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_SRC_STRUCTURAL_WALK_H
