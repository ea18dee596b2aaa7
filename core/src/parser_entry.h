// SPDX-License-Identifier: Apache-2.0
// What every entry point of the parser shares (parser.cpp, binding_tape.cpp, document.cpp):
// the checks before a read, and the scalar parser as the arbiter of what simdjson refused.
#ifndef SIMDBRIDGE_SRC_PARSER_ENTRY_H
#define SIMDBRIDGE_SRC_PARSER_ENTRY_H

#include <new>

#include "parser_state.h"
#include "scalar_parser.h"
#include "simdbridge/parser.h"

namespace simdbridge::internal {

/** Runs `body` with the checks every entry point shares; maps exceptions to error values. */
template <typename Result, typename Body>
Result guarded(parser::state *state, const parser_options &options, input in, Body &&body) noexcept {
  if (!in.well_formed()) { return Result(error{error_code::invalid_argument, 0}); }
  if (state == nullptr) { return Result(error{error_code::out_of_memory, 0}); }
  state->document_kept = false; // every entry point reuses the DOM parser
  if (!state->fit_depth(options.max_depth, in.size)) { return Result(error{error_code::out_of_memory, 0}); }
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return Result(error{error_code::out_of_memory, 0});
  } catch (...) {
    return Result(error{error_code::out_of_memory, 0});
  }
}

/** A type passed as a value, to a generic lambda. */
template <typename T> struct sink_type {
  using type = T;
};

/** One document through the scalar parser, the arbiter of whatever simdjson refused. */
template <typename Sink>
error read_document_slowly(parser::state &st, const parser_options &options, input in, Sink &sink) {
  internal::scalar_parser<Sink> slow(in.data, in.size, options, sink, st.slow_scopes);
  return slow.parse_document();
}

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_SRC_PARSER_ENTRY_H
