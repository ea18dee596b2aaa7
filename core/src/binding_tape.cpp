// SPDX-License-Identifier: Apache-2.0
// parser::to_binding_tape: a document into the caller's binding tape (simdbridge/binding_tape.h),
// from simdjson's stage 1 and one pass over its structural index (structural_walk.h), following
// the caller's binding plan where it has one and the document matches it (binding_plan.h), or,
// for what that walk refuses, from the scalar parser.
#include <algorithm>

#include <simdjson.h>

#include "binding_plan/plan_nodes.h"
#include "binding_tape_sink.h"
#include "parser_entry.h"
#include "parser_state.h"
#include "scalar_parser.h"
#include "structural_walk.h"
#include "simdbridge/binding_tape.h"
#include "simdbridge/parser.h"

namespace simdbridge {

namespace {

/** Whether every string and key on a binding tape of `words` words is at most `limit` bytes. */
bool binding_strings_within(const binding_tape_buffer &out, size_t words, uint64_t limit) noexcept {
  for (size_t w = 0; w + 1 < words; w += 2) {
    if (binding_tape_entry(out.words[w] >> 56) == binding_tape_entry::string && (out.words[w + 1] & 0xFFFFFFFFu) > limit) {
      return false;
    }
  }
  return true;
}

} // namespace

namespace internal {

error index_structurals(parser::state &st, input in, bool list_escapes, structural_index &out) noexcept {
  out = {};
  out.data = st.padded(in);
  if (out.data == nullptr) { return {error_code::out_of_memory, 0}; }
  simdjson::dom::parser &dom = st.dom;
  if ((dom.capacity() < in.size && dom.allocate(in.size, dom.max_depth()) != simdjson::SUCCESS) ||
      dom.implementation->stage1(out.data, in.size, simdjson::stage1_mode::regular) != simdjson::SUCCESS) {
    return {};
  }
  out.indexed = true;
  out.positions = dom.implementation->structural_indexes.get();
  out.count = dom.implementation->n_structural_indexes;
  if (list_escapes && in.size < UINT32_MAX) { // offsets below the list's end mark
    const size_t most = in.size / 32 + 8;
    uint32_t *const escapes = with_slots(st.escapes, most + 1);
    bool listed = false;
    out.ascii = all_ascii(out.data, in.size, escapes, most, listed);
    if (out.ascii && listed) { out.escapes = escapes; }
  } else {
    out.ascii = all_ascii(out.data, in.size);
  }
  return {};
}

} // namespace internal

error parser::to_binding_tape(const input &in, binding_tape_buffer &out) noexcept { return binding_tape(in, nullptr, out); }

error parser::to_binding_tape(const input &in, const binding_plan &plan, binding_tape_buffer &out) noexcept {
  return binding_tape(in, &plan, out);
}

error parser::binding_tape(const input &in, const binding_plan *plan, binding_tape_buffer &out) noexcept {
  out.planned = false;
  return internal::guarded<error>(state_.get(), options_, in, [&]() -> error {
    if (error e = internal::length_error(options_, 0, in.size); !e.ok()) { return e; }
    const size_t levels = internal::walk_levels(options_.max_depth, in.size);
    uint64_t *const open = internal::with_slots(state_->tape_open, levels);
    // A plan takes the keys it checks off the tape, where max_string_length could not see them:
    // with a name past that limit, it is not followed (the walk without it names the key).
    const binding_plan::nodes *nodes = plan != nullptr ? &plan->internals() : nullptr;
    if (nodes != nullptr && options_.max_string_length != 0 && nodes->longest_name > options_.max_string_length) {
      nodes = nullptr;
    }
    internal::plan_level *const plan_levels =
        nodes != nullptr ? internal::with_slots(state_->plan_levels, levels) : nullptr;
    internal::binding_tape_sink sink(&out, open);
    const auto finish = [&out](const auto &s) -> error { // s: a sink, or the walk that held one
      out.words_used = s.words();
      out.strings_used = s.strings();
      return s.fits() ? error{} : error{error_code::output_too_small, 0};
    };
    internal::structural_index ix;
    if (in.size > 0) {
      // Where the caller keeps the input (strings_in_input) and it is all ASCII, the string
      // values with no escape are left in it, each where its bytes are: no copy.
      if (error e = internal::index_structurals(*state_, in, out.strings_in_input, ix); !e.ok()) { return e; }
    }
    if (ix.indexed) {
      // Every entry starts at a structural of its own, so the words never pass 2 per
      // structural; the strings never pass the input's bytes (unescaping only shortens), and
      // a 16-byte store starts before their end. Arrays that large need no check per write.
      const bool roomy = out.word_capacity / 2 >= ix.count && out.string_capacity >= in.size + 16;
      // Both walks over the same index: the plan's first where there is one, then the
      // plain one where it refused (the document does not match the plan, or it is wrong).
      // True where one of them wrote the tape, its outcome in `result` (an error returned
      // through std::optional was stored in 4 bytes and read back in 8, a store the CPU
      // cannot forward: a stall on every call).
      error result;
      const auto walk = [&](auto sink_type) -> bool {
        using walk_sink = typename decltype(sink_type)::type;
        const auto checked = [&](const auto &fast) -> bool {
          if (internal::strings_may_pass(options_, in.size) && fast.fits() &&
              !binding_strings_within(out, fast.words(), options_.max_string_length)) {
            return false; // the scalar parser names the string
          }
          result = finish(fast);
          return true;
        };
        if (nodes != nullptr) {
          internal::structural_walk<walk_sink, true> planned(ix.data, ix.positions, ix.count, &out, open,
                                                             state_->scopes.data(),
                                                             options_.max_depth, nodes, plan_levels,
                                                             ix.escapes);
          if (planned.document() && checked(planned)) {
            out.planned = true;
            return true;
          }
        }
        internal::structural_walk<walk_sink> fast(ix.data, ix.positions, ix.count, &out, open, state_->scopes.data(),
                                                  options_.max_depth, nullptr, nullptr, ix.escapes);
        return fast.document() && checked(fast);
      };
      using internal::sink_type;
      const bool walked =
          ix.ascii ? (roomy ? walk(sink_type<internal::unchecked_ascii_binding_tape_sink>{})
                            : walk(sink_type<internal::ascii_binding_tape_sink>{}))
                   : (roomy ? walk(sink_type<internal::unchecked_binding_tape_sink>{})
                            : walk(sink_type<internal::binding_tape_sink>{}));
      if (walked) { return result; }
    }
    // Refused (a scalar root, a number past 64 bits, a lone surrogate, an error): the scalar
    // parser writes the tape again from the start, or finds the error and its offset.
    sink.reset();
    if (error e = internal::read_document_slowly(*state_, options_, in, sink); !e.ok()) { return e; }
    return finish(sink);
  });
}

} // namespace simdbridge
