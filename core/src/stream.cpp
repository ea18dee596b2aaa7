// SPDX-License-Identifier: Apache-2.0
// Reading a stream one document at a time. In the whitespace format, next() takes documents
// from simdjson's parse_many, one per call, as long as every byte is accounted for (see
// stream/parse_many_checks.h). Elsewhere, and where parse_many refuses, each line is tried first
// as exactly one document (simdjson's DOM parser, which validates fully); where a line is not
// exactly one document (a document over several lines, several on a line), the scalar parser
// finds one document's extent and simdjson parses exactly that.
#include "simdbridge/stream.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include <simdjson.h>

#include "checksum_sink.h"
#include "document_state.h"
#include "parser_state.h"
#include "scalar_parser.h"
#include "stream/parse_many_checks.h"
#include "tape_walk.h"

namespace simdbridge {

struct stream_reader::state {
  input in;
  stream_format format;
  parser_options options;
  simdjson::dom::parser dom;
  std::unique_ptr<simdjson::dom::parser> deep_dom; // made on first need (see deep_parse)
  simdjson::error_code dom_error = simdjson::SUCCESS;
  std::vector<uint8_t> copy;       // the input padded, or (comma) in brackets
  const uint8_t *data = nullptr;   // what is parsed: in.data or copy
  size_t size = 0;
  size_t shift = 0;                // bytes added before the input (comma: '['), taken off offsets
  std::vector<uint8_t> scopes;
  size_t pos = 0;                  // next byte to read (whitespace, lines, json_seq); next tape index (comma, array)
  size_t array_end = 0;            // comma, array: the tape index of the top array's end
  bool started = false;
  bool finished = false;
  bool on_tape = false;
  size_t value_index = tape_view::first;
  document *into = nullptr; // where the current document goes (next(document&)), else dom.doc
  size_t begin = 0, end = 0;
  uint64_t count = 0;

  // Batches (whitespace format, next()): parse_many over the rest of the input, a document taken
  // per call, left on dom's tape until the next call. Where parse_many refuses, documents are
  // read one at a time up to retry_at before batches start again: at least a batch on, so that a
  // first-stage error, which parse_many reports at the start of its batch, is found and named.
  simdjson::dom::document_stream many;
  simdjson::dom::document_stream::iterator many_at;
  bool batching = false;
  bool step_first = false;   // many_at is still at the document returned last
  size_t many_base = 0;      // where the batches' input starts in data
  size_t covered = 0;        // every byte before it is in a document returned or white space
  uint64_t many_documents = 0; // documents taken from the current batches
  size_t retry_at = 0;
  size_t retry_gap = 0;      // retry_at's distance: a batch, doubled while batches yield nothing

  /** Batches from pos, where a document (not white space) starts. */
  void start_batches() {
    dom.threaded = false; // one thread: the stage 1 of a batch ahead would need a parser of its own
    const size_t left = size - pos;
    batching = dom.parse_many(data + pos, left, std::min(options.stream_batch_size, left)).get(many) == simdjson::SUCCESS;
    if (!batching) {
      leave_batches(pos);
      return;
    }
    many_at = many.begin();
    step_first = false;
    many_base = covered = pos;
    many_documents = 0;
  }

  /** Batches refused at `at`: the next document is read alone, from there. */
  void leave_batches(size_t at) {
    batching = false;
    pos = at;
    const size_t batch = options.stream_batch_size, most = batch * 64;
    retry_gap = many_documents > 0 || retry_gap == 0 ? batch : std::min(retry_gap * 2, most);
    retry_at = at + std::min(retry_gap, size - at);
  }

  /**
   * The next document of the batches: true; false where they end or refuse, pos then where the
   * next document is to be read alone (or the end). Only objects and arrays are taken: a scalar
   * at the root may be cut at a batch's end, which shows only once the next document is read,
   * after this one was returned (see root_scalar_holds).
   */
  bool next_batched() {
    if (step_first) {
      ++many_at;
      step_first = false;
    }
    if (!(many_at != many.end())) {
      leave_batches(internal::first_non_whitespace(data, covered, size)); // dropped at the end?
      return false;
    }
    const size_t start = many_base + many_at.current_index();
    if (start < covered) { // parse_many went back (a first-stage error names a batch's start)
      leave_batches(covered);
      return false;
    }
    if (const size_t next = internal::first_non_whitespace(data, covered, start); next != start) { // skipped bytes
      leave_batches(next);
      return false;
    }
    if ((*many_at).error() != simdjson::SUCCESS || !internal::is_container_start(data[start])) {
      leave_batches(start);
      return false;
    }
    const size_t stop = internal::document_end(many_at, data, start, size);
    if (!internal::length_error(options, start, stop).ok() || internal::string_past_limit(options, stop - start, dom.doc)) {
      leave_batches(start); // read alone, its error named
      return false;
    }
    on_tape = true;
    value_index = tape_view::first;
    begin = start;
    end = covered = pos = stop;
    step_first = true;
    many_documents++;
    return true;
  }

  /** Reads `in` in place where it may be (internal::readable_in_place), else a copy. */
  void take(input from) {
    if (internal::readable_in_place(from)) {
      data = from.data;
      size = from.size;
    } else {
      copy.assign(from.data, from.data + from.size);
      copy.resize(from.size + padding, 0);
      data = copy.data();
      size = from.size;
    }
  }

  error fail(error e) {
    finished = true;
    e.offset = e.offset >= shift ? e.offset - shift : 0;
    return e;
  }

  /** The scalar parser's verdict on [from, to): an error (offset in the input) or success. */
  error validate_slowly(size_t from, size_t to) {
    internal::validation_sink sink;
    internal::scalar_parser<internal::validation_sink> slow(data + from, to - from, options, sink, scopes);
    error e = slow.parse_document();
    e.offset += from;
    return e;
  }

  /** simdjson's DOM parse of [from, to), into the caller's document or the parser's own. */
  bool dom_parse(size_t from, size_t to, simdjson::dom::parser &with) {
    // Per-level buffers sized by the document (see reserve_depth), one past the limit in deep_dom.
    const size_t limit = &with == &dom ? options.max_depth : size_t(options.max_depth) + 1;
    if (!internal::reserve_depth(with, to - from + 1, limit)) { throw std::bad_alloc(); }
    simdjson::dom::document &target = into != nullptr ? into->state_->dom : with.doc;
    dom_error = with.parse_into_document(target, data + from, to - from, false).error();
    if (dom_error == simdjson::SUCCESS && internal::string_past_limit(options, to - from, target)) {
      dom_error = simdjson::STRING_ERROR; // the scalar parser names the string
    }
    if (into != nullptr) { into->state_->parsed = dom_error == simdjson::SUCCESS; }
    if (into == nullptr && &with != &dom && dom_error == simdjson::SUCCESS) {
      std::swap(dom.doc, with.doc); // tape() reads dom.doc
    }
    return dom_error == simdjson::SUCCESS;
  }
  bool dom_parse(size_t from, size_t to) { return dom_parse(from, to, dom); }

  /** simdjson's DOM counts a scalar in the innermost container as one more level: a document
   *  the scalar parser found within max_depth is parsed again one level deeper. */
  bool deep_parse(size_t from, size_t to) {
    if (dom_error != simdjson::DEPTH_ERROR) { return false; }
    if (!deep_dom) { deep_dom = std::make_unique<simdjson::dom::parser>(); }
    return dom_parse(from, to, *deep_dom);
  }

  /** A valid document in [from, to) (white space around it allowed) longer than the limit. */
  error length_error(size_t from, size_t to) const {
    while (from < to && internal::is_json_whitespace(data[from])) { from++; }
    while (to > from && internal::is_json_whitespace(data[to - 1])) { to--; }
    return internal::length_error(options, from, to);
  }

  /** internal::length_first for the document that starts at `from` or past white space after it. */
  error length_first(size_t from, error e) const {
    return internal::length_first(options.max_document_length, internal::first_non_whitespace(data, from, size), e);
  }

  /** Parses [from, to) as one document: on the tape, or valid but not on it, or an error. */
  error parse_exactly(size_t from, size_t to) {
    begin = from;
    end = to;
    value_index = tape_view::first;
    on_tape = dom_parse(from, to);
    if (on_tape) { return length_error(from, to); }
    const error e = validate_slowly(from, to);
    on_tape = e.ok() && deep_parse(from, to);
    return e.ok() ? length_error(from, to) : length_first(from, e);
  }

  bool whitespace_only(size_t from, size_t to) const {
    for (size_t i = from; i < to; i++) {
      if (!internal::is_json_whitespace(data[i])) { return false; }
    }
    return true;
  }

  result<bool> next_whitespace() {
    if (batching) {
      if (into == nullptr && next_batched()) { return true; }
      batching = false; // next(document&) reads alone: its tape goes into the caller's document
    }
    pos = internal::first_non_whitespace(data, pos, size);
    if (pos >= size) { return false; }
    if (into == nullptr && pos >= retry_at && internal::is_container_start(data[pos])) {
      start_batches();
      if (batching && next_batched()) { return true; }
      if (pos >= size) { return false; }
    }
    const void *newline = std::memchr(data + pos, '\n', size - pos);
    const size_t line_end = newline ? size_t(static_cast<const uint8_t *>(newline) - data) : size;
    if (dom_parse(pos, line_end)) {
      if (error e = length_error(pos, line_end); !e.ok()) { return fail(e); }
      on_tape = true;
      value_index = tape_view::first;
      begin = pos;
      end = line_end;
      while (internal::is_json_whitespace(data[end - 1])) { end--; } // the document's own bytes
      pos = line_end;
      return true;
    }
    // Not exactly one document on this line: find where the next one ends.
    internal::validation_sink sink;
    internal::scalar_parser<internal::validation_sink> slow(data, size, options, sink, scopes);
    size_t after = pos;
    if (error e = slow.parse_stream_document(after); !e.ok()) { return fail(length_first(pos, e)); }
    const size_t from = pos;
    pos = after;
    if (error e = parse_exactly(from, after); !e.ok()) { return fail(e); }
    return true;
  }

  result<bool> next_line() {
    while (pos < size) {
      const void *newline = std::memchr(data + pos, '\n', size - pos);
      const size_t line_end = newline ? size_t(static_cast<const uint8_t *>(newline) - data) : size;
      const size_t from = pos;
      pos = newline ? line_end + 1 : size;
      if (whitespace_only(from, line_end)) { continue; } // a blank line is not a document
      if (error e = parse_exactly(from, line_end); !e.ok()) { return fail(e); }
      return true;
    }
    return false;
  }

  result<bool> next_json_seq() {
    static constexpr uint8_t record_separator = 0x1E;
    if (!started) {
      // Before the first RS only white space may come.
      const void *rs = std::memchr(data, record_separator, size);
      const size_t first = rs ? size_t(static_cast<const uint8_t *>(rs) - data) : size;
      for (size_t i = 0; i < first; i++) {
        if (!internal::is_json_whitespace(data[i])) { return fail({error_code::expected_value, i}); }
      }
      pos = first;
    }
    while (pos < size) {
      const size_t from = pos + 1; // past the RS
      const void *rs = std::memchr(data + from, record_separator, size - from);
      const size_t to = rs ? size_t(static_cast<const uint8_t *>(rs) - data) : size;
      pos = to;
      if (whitespace_only(from, to)) { continue; } // consecutive RS: no document between them
      if (error e = parse_exactly(from, to); !e.ok()) { return fail(e); }
      return true;
    }
    return false;
  }

  /** comma and array: the whole input parsed once; each element in turn. */
  result<bool> next_element() {
    if (!started) {
      into = nullptr;
      if (!dom_parse(0, size)) {
        error e = validate_slowly(0, size);
        if (!e.ok() || !deep_parse(0, size)) { return fail(e.ok() ? error{error_code::unsupported_value, 0} : e); }
      }
      const tape_view t{dom.doc.tape.get(), dom.doc.string_buf.get()};
      if (t.kind(tape_view::first) != tape_kind::array) {
        size_t at = 0;
        while (at < size && internal::is_json_whitespace(data[at])) { at++; }
        return fail({error_code::expected_array, at});
      }
      pos = tape_view::first + 1;
      array_end = t.next(tape_view::first) - 1;
      on_tape = true;
    }
    if (pos >= array_end) { return false; }
    value_index = pos;
    pos = tape_view{dom.doc.tape.get(), dom.doc.string_buf.get()}.next(pos);
    begin = end = 0; // one tape: the bytes of an element are not tracked
    return true;
  }
};

stream_reader::stream_reader(input in, stream_format format, parser_options options) noexcept
    : state_(new (std::nothrow) state()) {
  if (!state_) { return; }
  state_->in = in;
  state_->format = format;
  state_->options = internal::normalized(options);
  try {
    if (state_->dom.allocate(simdjson::SIMDJSON_PADDING,
                             std::min<size_t>(state_->options.max_depth, SIMDBRIDGE_DEFAULT_MAX_DEPTH)) != simdjson::SUCCESS) {
      state_.reset();
      return;
    }
    if (format == stream_format::comma) {
      state_->copy.reserve(in.size + 2 + padding);
      state_->copy.push_back('[');
      state_->copy.insert(state_->copy.end(), in.data, in.data + in.size);
      state_->copy.push_back(']');
      state_->size = state_->copy.size();
      state_->shift = 1;
      state_->copy.resize(state_->size + padding, 0);
      state_->data = state_->copy.data();
    } else {
      state_->take(in);
    }
  } catch (...) {
    state_.reset();
  }
}

void stream_reader::reset(input in, bool continuation) noexcept {
  if (!state_) { return; }
  state &s = *state_;
  s.in = in;
  s.started = continuation;
  s.finished = false;
  s.on_tape = false;
  s.pos = 0;
  s.shift = 0;
  s.count = 0;
  s.begin = s.end = 0;
  s.value_index = tape_view::first;
  s.into = nullptr;
  s.batching = false;
  s.retry_at = s.retry_gap = 0;
  try {
    s.take(in);
  } catch (...) {
    s.in = input{nullptr, 1, 0}; // not well formed: next() says invalid_argument
  }
}

stream_reader::~stream_reader() = default;
stream_reader::stream_reader(stream_reader &&) noexcept = default;
stream_reader &stream_reader::operator=(stream_reader &&) noexcept = default;


result<bool> stream_reader::next() noexcept {
  if (state_) { state_->into = nullptr; }
  return advance();
}

result<bool> stream_reader::advance() noexcept {
  if (!state_) { return error{error_code::out_of_memory, 0}; }
  state &s = *state_;
  if (s.finished || !s.in.well_formed()) {
    s.finished = true;
    return s.in.well_formed() ? result<bool>(false) : result<bool>(error{error_code::invalid_argument, 0});
  }
  try {
    if (!s.started && s.format != stream_format::comma && s.format != stream_format::array) {
      if (error_code e = internal::leading_bytes_error(s.data, s.size); e != error_code::success) {
        return s.fail({e, 0});
      }
    }
    result<bool> r(false);
    switch (s.format) {
    case stream_format::whitespace: r = s.next_whitespace(); break;
    case stream_format::lines: r = s.next_line(); break;
    case stream_format::json_seq: r = s.next_json_seq(); break;
    case stream_format::comma:
    case stream_format::array: r = s.next_element(); break;
    }
    s.started = true;
    if (r.ok() && r.value()) {
      s.count++;
    } else if (r.ok()) {
      s.finished = true;
    }
    return r;
  } catch (...) {
    return s.fail({error_code::out_of_memory, 0});
  }
}

result<bool> stream_reader::next(document &into) noexcept {
  if (!state_ || !into.state_) { return error{error_code::out_of_memory, 0}; }
  if (state_->format == stream_format::comma || state_->format == stream_format::array) {
    return error{error_code::invalid_argument, 0};
  }
  into.state_->parsed = false;
  state_->into = &into; // tape() describes it until the next call
  return advance();
}

tape_view stream_reader::tape() const noexcept {
  if (!state_ || !state_->on_tape) { return {}; }
  if (state_->into != nullptr) { return state_->into->tape(); }
  return {state_->dom.doc.tape.get(), state_->dom.doc.string_buf.get()};
}

size_t stream_reader::value_index() const noexcept { return state_ ? state_->value_index : tape_view::first; }
size_t stream_reader::begin() const noexcept { return state_ ? state_->begin : 0; }
size_t stream_reader::end() const noexcept { return state_ ? state_->end : 0; }
uint64_t stream_reader::count() const noexcept { return state_ ? state_->count : 0; }

} // namespace simdbridge
