// SPDX-License-Identifier: Apache-2.0
#include "simdbridge/document.h"

#include <memory>
#include <new>

#include <simdjson.h>

#include "checksum_sink.h"
#include "document_state.h"
#include "parser_state.h"
#include "scalar_parser.h"
#include "tape_walk.h"

namespace simdbridge {

document::document() noexcept : state_(new (std::nothrow) state()) {}
document::~document() = default;
document::document(document &&) noexcept = default;
document &document::operator=(document &&) noexcept = default;

tape_view document::tape() const noexcept {
  if (!state_ || !state_->parsed) { return {}; }
  return {state_->dom.tape.get(), state_->dom.string_buf.get()};
}

size_t document::capacity() const noexcept { return state_ ? state_->dom.capacity() : 0; }

error parser::parse(input in, document &doc) noexcept {
  if (!in.well_formed()) { return {error_code::invalid_argument, 0}; }
  if (!state_ || !doc.state_) { return {error_code::out_of_memory, 0}; }
  state_->document_kept = false;
  doc.state_->parsed = false;
  if (!state_->fit_depth(options_.max_depth, in.size)) { return {error_code::out_of_memory, 0}; }
  if (error e = internal::length_error(options_, 0, in.size); !e.ok()) { return e; }
  try {
    const uint8_t *data = nullptr;
    simdjson::error_code dom_error = simdjson::EMPTY;
    if (in.size > 0) {
      data = state_->padded(in);
      if (data == nullptr) { return {error_code::out_of_memory, 0}; }
      dom_error = state_->dom.parse_into_document(doc.state_->dom, data, in.size, false).error();
      if (dom_error == simdjson::SUCCESS && internal::string_past_limit(options_, in.size, doc.state_->dom)) {
        dom_error = simdjson::STRING_ERROR; // the scalar parser names the string
      }
      if (dom_error == simdjson::SUCCESS) {
        doc.state_->parsed = true;
        return {};
      }
    }
    internal::validation_sink sink;
    internal::scalar_parser<internal::validation_sink> slow(in.data, in.size, options_, sink,
                                                            state_->slow_scopes);
    const error e = slow.parse_document();
    if (e.ok() && dom_error == simdjson::DEPTH_ERROR) {
      if (!state_->deep_dom) { state_->deep_dom = std::make_unique<simdjson::dom::parser>(); }
      // One level past the limit, for simdjson's count (the scalar parser checked the limit).
      if (!internal::reserve_depth(*state_->deep_dom, in.size + 1, size_t(options_.max_depth) + 1)) {
        return {error_code::out_of_memory, 0};
      }
      if (state_->deep_dom->parse_into_document(doc.state_->dom, data, in.size, false).error() == simdjson::SUCCESS) {
        doc.state_->parsed = true;
        return {};
      }
    }
    // Valid, but not on simdjson's tape: an integer past 64 bits, a number past the double
    // range, a lone surrogate escape. The caller reads it another way.
    return e.ok() ? error{error_code::unsupported_value, 0} : e;
  } catch (...) {
    return {error_code::out_of_memory, 0};
  }
}

} // namespace simdbridge
