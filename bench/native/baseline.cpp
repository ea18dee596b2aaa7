// SPDX-License-Identifier: Apache-2.0
#include "baseline.h"

#include <cstring>
#include <new>
#include <vector>

#include <simdjson.h>

#include "checksum_sink.h"
#include "on_demand_walk.h"
#include "tape_walk.h"

namespace simdbridge {

using internal::checksum_sink;

struct baseline::state {
  simdjson::dom::parser dom;
  simdjson::ondemand::parser on_demand;
  std::vector<uint8_t> scopes = std::vector<uint8_t>(SIMDBRIDGE_DEFAULT_MAX_DEPTH + 2);
};

namespace {

const error refused{error_code::expected_value, 0};

void walk_element(simdjson::dom::element e, checksum_sink &sink) {
  using simdjson::dom::element_type;
  switch (e.type()) {
  case element_type::OBJECT:
    sink.object_begin();
    for (auto field : simdjson::dom::object(e)) {
      sink.key(field.key.size());
      walk_element(field.value, sink);
    }
    sink.object_end();
    break;
  case element_type::ARRAY:
    sink.array_begin();
    for (auto child : simdjson::dom::array(e)) { walk_element(child, sink); }
    sink.array_end();
    break;
  case element_type::STRING: sink.string(std::string_view(e).size()); break;
  case element_type::INT64: sink.integer(uint64_t(int64_t(e))); break;
  case element_type::UINT64: sink.integer(uint64_t(e)); break;
  case element_type::DOUBLE: sink.floating(double(e)); break;
  case element_type::BOOL: sink.boolean(bool(e)); break;
  case element_type::NULL_VALUE: sink.null(); break;
  }
}

/** A bare On Demand walk: no depth limit, no check after the root. Sink held by value. */
// noexcept is left out on purpose: number_token_to_double may throw on a token of megabytes.
struct on_demand_walker {
  checksum_sink sink;

  bool walk(simdjson::ondemand::value v) {
    using simdjson::ondemand::json_type;
    json_type type;
    if (v.type().get(type)) { return false; }
    switch (type) {
    case json_type::object: {
      simdjson::ondemand::object object;
      if (v.get_object().get(object)) { return false; }
      sink.object_begin();
      for (auto field : object) {
        std::string_view key;
        simdjson::ondemand::value child;
        if (field.unescaped_key().get(key) || field.value().get(child)) { return false; }
        sink.key(key.size());
        if (!walk(child)) { return false; }
      }
      sink.object_end();
      return true;
    }
    case json_type::array: {
      simdjson::ondemand::array array;
      if (v.get_array().get(array)) { return false; }
      sink.array_begin();
      for (auto element : array) {
        simdjson::ondemand::value child;
        if (element.get(child) || !walk(child)) { return false; }
      }
      sink.array_end();
      return true;
    }
    case json_type::string: {
      std::string_view s;
      if (v.get_string().get(s)) { return false; }
      sink.string(s.size());
      return true;
    }
    case json_type::number: {
      simdjson::ondemand::number n;
      if (v.get_number().get(n)) { return false; }
      if (n.is_double()) {
        // Correct even where simdjson 3.0.1's get_number() is not (see on_demand_walk.h).
        sink.floating(internal::repair_lost_double(n.get_double(), v.raw_json_token()));
      } else if (n.is_int64()) {
        sink.integer(uint64_t(n.get_int64()));
      } else {
        sink.integer(n.get_uint64());
      }
      return true;
    }
    case json_type::boolean: {
      bool b;
      if (v.get_bool().get(b)) { return false; }
      sink.boolean(b);
      return true;
    }
    case json_type::null: {
      bool is_null;
      if (v.is_null().get(is_null) || !is_null) { return false; }
      sink.null();
      return true;
    }
    }
    return false;
  }
};

} // namespace

const char *baseline::name(method m) noexcept {
  switch (m) {
  case method::dom_parse_only: return "simdjson-dom-parse-only";
  case method::dom_tape_walk: return "simdjson-dom-tape-walk";
  case method::dom_element_walk: return "simdjson-dom-element-walk";
  case method::on_demand_walk: return "simdjson-ondemand-walk";
  }
  return "unknown";
}

baseline::baseline() noexcept : state_(new (std::nothrow) state()) {}
baseline::~baseline() = default;

result<uint64_t> baseline::checksum(method m, input in) noexcept {
  if (!state_ || !in.parsed_in_place()) { return error{error_code::invalid_argument, 0}; }
  checksum_sink sink;
  if (m == method::on_demand_walk) {
    simdjson::ondemand::document doc;
    simdjson::ondemand::value root;
    if (state_->on_demand.iterate(in.data, in.size, in.capacity).get(doc) ||
        doc.get_value().get(root)) {
      return refused;
    }
    on_demand_walker walker;
    if (!walker.walk(root)) { return refused; }
    return walker.sink.h;
  }
  simdjson::dom::element root;
  if (state_->dom.parse(in.data, in.size, false).get(root)) { return refused; }
  switch (m) {
  case method::dom_parse_only: return uint64_t(0);
  case method::dom_tape_walk: internal::walk_tape(state_->dom.doc, sink, state_->scopes.data()); break;
  default: walk_element(root, sink); break;
  }
  return sink.h;
}

result<uint64_t> baseline::checksum_stream(method m, input in) noexcept {
  if (!state_ || !in.parsed_in_place()) { return error{error_code::invalid_argument, 0}; }
  checksum_sink sink;
  if (m == method::on_demand_walk) {
    simdjson::ondemand::document_stream stream;
    if (state_->on_demand.iterate_many(in.data, in.size, size_t(1) << 20).get(stream)) {
      return refused;
    }
    on_demand_walker walker;
    for (auto doc : stream) {
      simdjson::ondemand::value root;
      if (doc.get_value().get(root) || !walker.walk(root)) { return refused; }
      walker.sink.document_end();
    }
    if (stream.truncated_bytes() > 0) { return refused; }
    return walker.sink.h;
  }
  simdjson::dom::document_stream stream;
  if (state_->dom.parse_many(in.data, in.size, size_t(1) << 20).get(stream)) { return refused; }
  for (auto doc : stream) {
    simdjson::dom::element root;
    if (doc.get(root)) { return refused; }
    switch (m) {
    case method::dom_parse_only: break;
    case method::dom_tape_walk: internal::walk_tape(state_->dom.doc, sink, state_->scopes.data()); break;
    default: walk_element(root, sink); break;
    }
    sink.document_end();
  }
  if (stream.truncated_bytes() > 0) { return refused; }
  return m == method::dom_parse_only ? uint64_t(0) : sink.h;
}

} // namespace simdbridge
