// SPDX-License-Identifier: Apache-2.0
#include "simdbridge/parser.h"

#include <algorithm>
#include <new>
#include <optional>
#include <vector>

#include <simdjson.h>

#include "checksum_sink.h"
#include "on_demand_walk.h"
#include "parser_entry.h"
#include "parser_state.h"
#include "scalar_parser.h"
#include "stream/parse_many_checks.h"
#include "tape_walk.h"

namespace simdbridge {

using internal::checksum_sink;
using internal::validation_sink;

using internal::normalized;

parser::parser(parser_options options) noexcept : options_(normalized(options)) {
  state_.reset(new (std::nothrow) state());
  if (state_ && !state_->initialize(options_.max_depth)) { state_.reset(); }
}

error parser::set_options(parser_options options) noexcept {
  options = normalized(options);
  if (!state_) { return {error_code::out_of_memory, 0}; }
  if (options.max_depth != options_.max_depth) {
    state_->document_kept = false;
    if (!state_->set_depth(options.max_depth, state_->dom.capacity())) { return {error_code::out_of_memory, 0}; }
  }
  options_ = options;
  return {};
}

parser::~parser() = default;
parser::parser(parser &&) noexcept = default;
parser &parser::operator=(parser &&) noexcept = default;

bool internal::reserve_depth(simdjson::dom::parser &dom, size_t depth, size_t limit) noexcept {
  depth = std::min(depth, limit);
  if (dom.max_depth() >= depth) { return true; }
  const size_t grown = std::min(limit, std::max(depth, dom.max_depth() + dom.max_depth() / 2));
  return dom.allocate(std::max(dom.capacity(), simdjson::SIMDJSON_PADDING), grown) == simdjson::SUCCESS;
}

bool parser::state::initialize(uint32_t max_depth) noexcept {
  try {
    slow_scopes.reserve(64);
  } catch (...) {
    return false;
  }
  return set_depth(max_depth, 0);
}

bool parser::state::set_depth(uint32_t max_depth, size_t capacity) noexcept {
  // The DOM parser's depth is the limit its fast paths enforce: never more than max_depth.
  const size_t depth = std::min<size_t>(max_depth, SIMDBRIDGE_DEFAULT_MAX_DEPTH);
  return dom.allocate(std::max(capacity, simdjson::SIMDJSON_PADDING), depth) == simdjson::SUCCESS &&
         fit_depth(max_depth, 0);
}

bool parser::state::fit_depth(uint32_t max_depth, size_t size) noexcept {
  // simdjson counts a scalar in the innermost container as one more level: size + 1.
  if (!internal::reserve_depth(dom, size + 1, max_depth)) { return false; }
  try {
    // The tape walk's stack: a slot per level the DOM parser allows, and one for the root.
    if (scopes.size() < dom.max_depth() + 2) { scopes.resize(dom.max_depth() + 2); }
  } catch (...) {
    return false;
  }
  return true;
}

const uint8_t *parser::state::padded(input in) noexcept {
  if (internal::readable_in_place(in)) { return in.data; }
  if (buffer_capacity < in.size + padding) {
    buffer.reset(new (std::nothrow) uint8_t[in.size + padding]);
    buffer_capacity = buffer ? in.size + padding : 0;
    if (!buffer) { return nullptr; }
  }
  if (in.size > 0) { std::memcpy(buffer.get(), in.data, in.size); }
  // simdjson reads the padding; keep it initialized so memory checkers stay quiet.
  std::memset(buffer.get() + in.size, 0, padding);
  return buffer.get();
}

using internal::document_end;
using internal::first_non_whitespace;
using internal::guarded;
using internal::read_document_slowly;
using internal::root_scalar_holds;

namespace {

/**
 * A stream: simdjson's parse_many over batches (its first stage for the next batch runs on a
 * second thread), handing over to the scalar parser where it refuses.
 *
 * parse_many is not to be trusted on its own (see stream/parse_many_checks.h), so every byte is
 * accounted for: each document's end is computed, the bytes between documents must be white
 * space, and a document must not start inside the one before it. Whatever is not covered goes
 * to the scalar parser, which reads on for at least a batch (so that a first-stage error
 * reported at a batch's start is found) before simdjson takes over again.
 */
template <typename Sink, typename OnDocument>
error read_stream(parser::state &st, const parser_options &options, input in, Sink &sink,
                  uint64_t &documents, OnDocument &&on_document) {
  const uint8_t *data = nullptr;
  if (in.size > 0) {
    data = st.padded(in);
    if (data == nullptr) { return {error_code::out_of_memory, 0}; }
  }
  size_t batch = options.stream_batch_size;
  size_t pos = first_non_whitespace(data, 0, in.size);
  // A byte order mark or UTF-16 at the start: straight to the scalar parser, which names it.
  bool fast = pos == in.size || internal::leading_bytes_error(data, in.size) == error_code::success;
  if (!fast) { pos = 0; }
  while (pos < in.size) {
    if (fast && internal::is_number_start(data[pos])) { fast = false; } // see is_number_start
    if (fast) {
      // parse_many's second thread runs stage 1 of the next batch in a parser of its own, made
      // at simdjson's default depth (1024), and swaps it with ours for that batch's stage 2: a
      // depth limit below the default would not hold from the second batch on (found by make
      // fuzz: a 21-deep array accepted under max_depth 8 at a batch of 32 bytes). Below the
      // default, one thread; at or above it, a parser shallower than ours only refuses more,
      // which the scalar parser then reads. A batch larger than what is left is what is left.
      st.dom.threaded = options.max_depth >= SIMDBRIDGE_DEFAULT_MAX_DEPTH;
      const size_t this_batch = std::max(internal::minimum_stream_batch, std::min(batch, in.size - pos));
      simdjson::dom::document_stream stream;
      if (st.dom.parse_many(data + pos, in.size - pos, this_batch).get(stream) == simdjson::SUCCESS) {
        Sink before_previous = sink; // the sink before the last document folded
        size_t previous_start = pos;
        size_t covered = pos; // every byte before this is in a document or white space
        size_t resume = in.size;
        bool too_big = false;
        for (auto it = stream.begin(); it != stream.end(); ++it) {
          const size_t start = pos + it.current_index();
          if (start < covered) { // a cut inside the previous document: read it again
            sink = before_previous;
            documents--;
            resume = previous_start;
            break;
          }
          if (first_non_whitespace(data, covered, start) != start) { // skipped bytes
            resume = first_non_whitespace(data, covered, start);
            break;
          }
          if (internal::is_number_start(data[start])) { // the scalar parser reads on from it
            resume = start;
            break;
          }
          const auto code = (*it).error();
          if (code != simdjson::SUCCESS) {
            resume = start;
            too_big = code == simdjson::CAPACITY;
            break;
          }
          const size_t end = document_end(it, data, start, in.size);
          const bool too_long = !internal::length_error(options, start, end).ok() ||
                                internal::string_past_limit(options, end - start, st.dom.doc);
          if (too_long || !root_scalar_holds(st.slow_scopes, options, data, start, end, in.size)) { // the scalar parser names it
            resume = start;
            break;
          }
          before_previous = sink;
          previous_start = start;
          covered = end;
          on_document(st.dom.doc);
          documents++;
        }
        if (resume == in.size) {
          resume = first_non_whitespace(data, covered, in.size); // dropped at the end?
          if (resume == in.size) { return {}; }
        }
        pos = resume;
        if (too_big && batch < in.size - pos) {
          batch = std::min(batch * 2, in.size - pos); // a document longer than a batch
          continue;
        }
      }
    }
    internal::scalar_parser<Sink> slow(data, in.size, options, sink, st.slow_scopes);
    if (error e = slow.parse_stream(pos, pos + batch, documents); !e.ok()) { return e; }
    fast = true;
  }
  return {};
}

} // namespace

result<uint64_t> parser::checksum(input in) noexcept {
  return guarded<result<uint64_t>>(state_.get(), options_, in, [&]() -> result<uint64_t> {
    if (error e = internal::length_error(options_, 0, in.size); !e.ok()) { return e; }
    if (in.size > 0) {
      const uint8_t *data = state_->padded(in);
      if (data == nullptr) { return error{error_code::out_of_memory, 0}; }
      // Fast path: one On Demand pass that visits every value (see on_demand_walk.h); where
      // the document may hold a string past the limit, the DOM parser, whose tape is checked.
      const bool check_strings = internal::strings_may_pass(options_, in.size);
      internal::on_demand_walk<checksum_sink> fast(options_.max_depth);
      simdjson::ondemand::document doc;
      if (!check_strings && state_->on_demand.iterate(data, in.size, in.size + padding).get(doc) ==
              simdjson::SUCCESS &&
          fast.document(doc)) {
        return fast.sink().h;
      }
      // Deeper than the recursive walk goes: the DOM parser and its iterative tape walk.
      if ((check_strings || fast.refused_for_depth_only()) &&
          state_->dom.parse(data, in.size, false).error() == simdjson::SUCCESS &&
          !internal::string_past_limit(options_, in.size, state_->dom.doc)) {
        checksum_sink sink;
        internal::walk_tape(state_->dom.doc, sink, state_->scopes.data());
        return sink.h;
      }
    }
    checksum_sink sink;
    error e = read_document_slowly(*state_, options_, in, sink);
    if (!e.ok()) { return e; }
    return sink.h;
  });
}

error parser::validate(input in) noexcept {
  return guarded<error>(state_.get(), options_, in, [&]() -> error {
    if (error e = internal::length_error(options_, 0, in.size); !e.ok()) { return e; }
    if (in.size > 0) {
      // With nothing to visit, simdjson's DOM parse validates fully on its own.
      const uint8_t *data = state_->padded(in);
      if (data == nullptr) { return error{error_code::out_of_memory, 0}; }
      if (state_->dom.parse(data, in.size, false).error() == simdjson::SUCCESS &&
          !internal::string_past_limit(options_, in.size, state_->dom.doc)) {
        return {};
      }
    }
    validation_sink sink;
    return read_document_slowly(*state_, options_, in, sink);
  });
}

result<uint64_t> parser::checksum_stream(input in) noexcept {
  return guarded<result<uint64_t>>(state_.get(), options_, in, [&]() -> result<uint64_t> {
    checksum_sink sink;
    uint64_t documents = 0;
    uint8_t *scopes = state_->scopes.data();
    error e = read_stream(*state_, options_, in, sink, documents,
                          [&](const simdjson::dom::document &doc) {
                            internal::walk_tape(doc, sink, scopes);
                            sink.document_end();
                          });
    if (!e.ok()) { return e; }
    return sink.h;
  });
}

result<uint64_t> parser::validate_stream(input in) noexcept {
  return guarded<result<uint64_t>>(state_.get(), options_, in, [&]() -> result<uint64_t> {
    validation_sink sink;
    uint64_t documents = 0;
    error e = read_stream(*state_, options_, in, sink, documents,
                          [](const simdjson::dom::document &) {});
    if (!e.ok()) { return e; }
    return documents;
  });
}

void parser::trim() noexcept {
  if (!state_) { return; }
  state &st = *state_;
  st.document_kept = false;
  st.buffer.reset();
  st.buffer_capacity = 0;
  st.deep_dom.reset();
  st.on_demand = simdjson::ondemand::parser();
  // Freeing cannot fail; should the small allocation after it fail, the next call allocates again.
  simdjson::error_code freed = st.dom.doc.allocate(0);
  static_cast<void>(freed);
  static_cast<void>(st.set_depth(options_.max_depth, 0));
  st.tape_open = {};
  st.escapes = {};
  st.msgpack.reset();
  st.msgpack_json.reset();
  st.scopes.resize(st.dom.max_depth() + 2);
  st.scopes.shrink_to_fit();
}

error parser::document_parse(input in) noexcept {
  return guarded<error>(state_.get(), options_, in, [&]() -> error {
    if (error e = internal::length_error(options_, 0, in.size); !e.ok()) { return e; }
    if (in.size > 0) {
      const uint8_t *data = state_->padded(in);
      if (data == nullptr) { return {error_code::out_of_memory, 0}; }
      if (state_->dom.parse(data, in.size, false).error() == simdjson::SUCCESS &&
          !internal::string_past_limit(options_, in.size, state_->dom.doc)) {
        state_->document_kept = true;
        return {};
      }
    }
    validation_sink sink;
    const error e = read_document_slowly(*state_, options_, in, sink);
    // Valid for the scalar parser only (a number past 64 bits, ...): not on simdjson's tape.
    return e.ok() ? error{error_code::unsupported_value, 0} : e;
  });
}

#define SIMDBRIDGE_STRINGIFY_(x) #x
#define SIMDBRIDGE_STRINGIFY(x) SIMDBRIDGE_STRINGIFY_(x)
const char *version() noexcept { return SIMDBRIDGE_STRINGIFY(SIMDBRIDGE_VERSION); }

const char *simdjson_version() noexcept { return SIMDBRIDGE_STRINGIFY(SIMDJSON_VERSION); }

const char *simd_implementation() noexcept {
  return simdjson::get_active_implementation()->name().c_str();
}

} // namespace simdbridge
