// SPDX-License-Identifier: Apache-2.0
// What a simdbridge::parser owns. Internal: only the core's sources see simdjson.
#ifndef SIMDBRIDGE_SRC_PARSER_STATE_H
#define SIMDBRIDGE_SRC_PARSER_STATE_H

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include <simdjson.h>

#include "binding_plan/plan_nodes.h"

#include "simdbridge/parser.h"

namespace simdbridge {

namespace internal {
/** The smallest batch simdjson's parse_many accepts (dom::MINIMAL_BATCH_SIZE). */
inline constexpr size_t minimum_stream_batch = 32;

/** The options as the core reads them: max_depth 0 is the default, a batch at least the smallest. */
inline parser_options normalized(parser_options options) noexcept {
  if (options.max_depth == 0) { options.max_depth = SIMDBRIDGE_DEFAULT_MAX_DEPTH; }
  if (options.stream_batch_size < minimum_stream_batch) { options.stream_batch_size = minimum_stream_batch; }
  return options;
}

/**
 * Whether a document of `size` bytes may hold a string past max_string_length: one of n bytes
 * unescaped takes at least n + 2 (its quotes), so shorter documents need no check.
 */
inline bool strings_may_pass(const parser_options &options, size_t size) noexcept {
  return options.max_string_length != 0 && size > options.max_string_length + 2;
}

/**
 * A document (or a record of a stream) at [begin, end) longer than max_document_length: its
 * error, at begin plus the limit; none otherwise. A single document counts its whole input; a
 * record, its bytes without the white space around them.
 */
inline error length_error(const parser_options &options, size_t begin, size_t end) noexcept {
  if (options.max_document_length != 0 && end - begin > options.max_document_length) {
    return {error_code::document_too_long, begin + options.max_document_length};
  }
  return {};
}

/**
 * Makes `dom` take documents nesting `depth` deep (simdjson's count), growing its per-level
 * buffers by at least half when it grows, never past `limit`. The buffers hold a slot per level
 * allowed, so they are sized by the documents read (one of n bytes nests at most n deep), not
 * by a parser's limit: a limit of 2^31 costs nothing until a document goes that deep.
 */
bool reserve_depth(simdjson::dom::parser &dom, size_t depth, size_t limit) noexcept;

/** The per-level slots a walk needs for a document of `size` bytes: one per level it can reach, and the root's. */
inline size_t walk_levels(uint32_t max_depth, size_t size) noexcept { return std::min<size_t>(max_depth, size) + 1; }

/** `slots` holding at least `n` (grown to twice its size at least), its first. */
template <typename T> T *with_slots(std::vector<T> &slots, size_t n) {
  if (slots.size() < n) { slots.resize(std::max(n, slots.size() * 2)); }
  return slots.data();
}

/** What json_to_msgpack keeps in a parser from call to call (defined in msgpack/from_json.cpp). */
struct msgpack_workspace;
void destroy(msgpack_workspace *w) noexcept;
/** What msgpack_to_json keeps in a parser from call to call (defined in msgpack/to_json.cpp). */
struct msgpack_json_workspace;
void destroy(msgpack_json_workspace *w) noexcept;
struct workspace_deleter {
  void operator()(msgpack_workspace *w) const noexcept { destroy(w); }
  void operator()(msgpack_json_workspace *w) const noexcept { destroy(w); }
};
} // namespace internal

struct parser::state {
  simdjson::dom::parser dom;
  /** simdjson's DOM counts a scalar in the innermost container as one more level: a document
   *  within max_depth can fail in `dom`. This parser, one level deeper and made on first need,
   *  reads such a document once the scalar parser has checked its depth. */
  std::unique_ptr<simdjson::dom::parser> deep_dom;
  simdjson::ondemand::parser on_demand;
  /** Where inputs without padding are copied; grows to the largest one seen. */
  std::unique_ptr<uint8_t[]> buffer;
  size_t buffer_capacity = 0;
  /** The tape walk's scope stack: one byte per nesting level. */
  std::vector<uint8_t> scopes;
  /** The scalar parser's scope stack. */
  std::vector<uint8_t> slow_scopes;
  /** to_binding_tape(): the open containers (word index, count), a slot per level and one for the root. */
  std::vector<uint64_t> tape_open;
  /** to_binding_tape() with a plan: the plan's place in each open container, a slot per level as tape_open. */
  std::vector<internal::plan_level> plan_levels;
  /** to_binding_tape() with strings_in_input: the input's backslashes (all_ascii), grown to the largest list. */
  std::vector<uint32_t> escapes;
  /** json_to_msgpack's converters and blocks, kept with their buffers for the next call. */
  std::unique_ptr<internal::msgpack_workspace, internal::workspace_deleter> msgpack;
  /** msgpack_to_json's output buffers (called with a parser), kept for the next call. */
  std::unique_ptr<internal::msgpack_json_workspace, internal::workspace_deleter> msgpack_json;
  /** dom.doc holds a document that document_parse() kept (any other parse clears it). */
  bool document_kept = false;

  bool initialize(uint32_t max_depth) noexcept;
  /**
   * Allocates the DOM parser for `capacity` bytes at the depth its fast paths enforce for
   * max_depth (the limit, up to the default; deeper documents grow it, see fit_depth).
   */
  bool set_depth(uint32_t max_depth, size_t capacity) noexcept;
  /** Sizes the DOM parser and `scopes` for a document of `size` bytes (see reserve_depth). */
  bool fit_depth(uint32_t max_depth, size_t size) noexcept;
  /** The input's bytes followed by `padding` readable bytes: in place, or copied. */
  const uint8_t *padded(input in) noexcept;
};

namespace internal {

/** A parser's state, for the core's readers that are not its members (msgpack/from_json.cpp). */
struct parser_internals {
  static parser::state *state(parser &p) noexcept { return p.state_.get(); }
};

/**
 * The workspace a conversion keeps in `p`'s state at `slot`, made on first use (std::bad_alloc
 * where there is no memory for it, or the parser has no state).
 */
template <typename W> W &kept_workspace(parser &p, std::unique_ptr<W, workspace_deleter> parser::state::*slot) {
  parser::state *st = parser_internals::state(p);
  if (st == nullptr) { throw std::bad_alloc(); }
  std::unique_ptr<W, workspace_deleter> &kept = st->*slot;
  if (!kept) { kept.reset(new W()); }
  return *kept;
}

/** A document's structural index, from simdjson's stage 1, for structural_walk.h. */
struct structural_index {
  bool indexed = false;             // false: simdjson refused the input (the scalar parser's to read)
  const uint8_t *data = nullptr;    // the input, padded
  const uint32_t *positions = nullptr;
  size_t count = 0;
  bool ascii = false;               // every byte of the input is ASCII
  const uint32_t *escapes = nullptr; // where listed: an all-ASCII input's backslashes (see all_ascii)
};

/**
 * Stage 1 over `in` (at least one byte) into `out`. With `list_escapes`, an all-ASCII input's
 * backslashes are listed, a backslash per 32 bytes at most (past that, escapes are common and
 * the list is not kept). An error only where memory ran out.
 */
error index_structurals(parser::state &st, input in, bool list_escapes, structural_index &out) noexcept;

} // namespace internal

} // namespace simdbridge

#endif // SIMDBRIDGE_SRC_PARSER_STATE_H
