// SPDX-License-Identifier: Apache-2.0
// The checksum engine's fast path for single documents: one On Demand pass that visits every
// value. It is faster than a DOM parse followed by a walk of simdjson's tape (docs/cpp.md,
// "Design"), because the fold's serial multiplications overlap with parsing instead of running
// in a second pass.
//
// It recurses on the caller's stack, never below stack_floor(): deeper, it refuses.
//
// On Demand validates what it visits; visiting everything leaves three checks to the caller,
// made here: nesting depth (our own counter, which also bounds the recursion), content after
// the root value, and scalar root documents (read through the document, not as a value).
// Whatever On Demand refuses goes to the scalar parser, which is the arbiter.
//
// Not noexcept: re-reading a number token of megabytes may throw std::bad_alloc, which the
// parser's entry points turn into error_code::out_of_memory.
#ifndef SIMDBRIDGE_SRC_ON_DEMAND_WALK_H
#define SIMDBRIDGE_SRC_ON_DEMAND_WALK_H

#include <pthread.h>

#include <cstdint>
#include <string_view>

#include <simdjson.h>

#include "checksum_sink.h"
#include "scalar_parser.h"

namespace simdbridge::internal {

namespace ondemand = simdjson::ondemand;

/**
 * The walk recurses once per nesting level, on the caller's stack (a Java thread's, under JNI):
 * it goes no deeper than this. A deeper document, where the parser's limit allows it, is read
 * by the DOM parser and the iterative tape walk instead.
 */
inline constexpr uint32_t on_demand_max_recursion = 1024;

/**
 * The lowest stack address the walk may recurse down to on this thread: the thread's stack
 * bottom plus a margin that leaves the JVM's guard and shadow pages alone (a Java thread calls
 * the core on its own stack, 1 MB by default, less with -Xss). A walk that would go lower is
 * refused, and the iterative scalar parser reads the document instead: never a stack overflow.
 */
inline uintptr_t stack_floor() noexcept {
  static constexpr uintptr_t margin = 192 * 1024;
  thread_local uintptr_t floor = 0;
  if (floor == 0) {
    pthread_attr_t attr;
    void *low = nullptr;
    size_t size = 0;
    floor = UINTPTR_MAX; // unknown: the walk never runs (the scalar parser does)
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      if (pthread_attr_getstack(&attr, &low, &size) == 0 && size > margin) { floor = uintptr_t(low) + margin; }
      pthread_attr_destroy(&attr);
    }
  }
  return floor;
}

/** `d` from ondemand::number::get_double(), or the value of `raw` where get_number() lost it. */
inline double repair_lost_double(double d, std::string_view raw) {
  if (double_bits(d) != 0 || raw.size() <= 19) { return d; }
  size_t length = raw.size();
  while (length > 0 && is_json_whitespace(uint8_t(raw[length - 1]))) { length--; }
  return number_token_to_double(reinterpret_cast<const uint8_t *>(raw.data()), length);
}

template <typename Sink> class on_demand_walk {
public:
  explicit on_demand_walk(uint32_t max_depth, Sink sink = {}) noexcept
      : sink_(sink),
        max_depth_(max_depth < on_demand_max_recursion ? max_depth : on_demand_max_recursion),
        deeper_allowed_(max_depth > on_demand_max_recursion) {}

  /** After a refusal: the document nests deeper than the walk recurses, but within the limit. */
  bool refused_for_depth_only() const noexcept { return too_deep_ && deeper_allowed_; }

  /** What the walk fed; complete only after document() returned true. */
  const Sink &sink() const noexcept { return sink_; }
  Sink &sink() noexcept { return sink_; }

  /**
   * Visits the whole document; false where On Demand refused it or it nests too deep. A scalar
   * at the root is refused too: rare and small, it goes to the scalar parser.
   */
  bool document(ondemand::document &doc) {
    ondemand::json_type type;
    ondemand::value root;
    if (doc.type().get(type) ||
        (type != ondemand::json_type::object && type != ondemand::json_type::array) ||
        doc.get_value().get(root) || !value(root)) {
      return false;
    }
    // simdjson 3.0.1 does not check what follows the root value: a location means more tokens.
    return doc.current_location().error() != simdjson::SUCCESS;
  }

private:
  bool too_deep() noexcept {
    too_deep_ = true;
    return false;
  }

  bool value(ondemand::value v) {
    ondemand::json_type type;
    if (v.type().get(type)) { return false; }
    switch (type) {
    case ondemand::json_type::object: {
      ondemand::object object;
      if (depth_ == max_depth_) { return too_deep(); }
      if (uintptr_t(__builtin_frame_address(0)) < floor_) { return false; }
      if (v.get_object().get(object)) { return false; }
      depth_++;
      sink_.object_begin();
      for (auto field : object) {
        std::string_view key;
        ondemand::value child;
        if (field.unescaped_key().get(key) || field.value().get(child)) { return false; }
        sink_.key(key.size());
        if (!value(child)) { return false; }
      }
      sink_.object_end();
      depth_--;
      return true;
    }
    case ondemand::json_type::array: {
      ondemand::array array;
      if (depth_ == max_depth_) { return too_deep(); }
      if (uintptr_t(__builtin_frame_address(0)) < floor_) { return false; }
      if (v.get_array().get(array)) { return false; }
      depth_++;
      sink_.array_begin();
      for (auto element : array) {
        ondemand::value child;
        if (element.get(child) || !value(child)) { return false; }
      }
      sink_.array_end();
      depth_--;
      return true;
    }
    case ondemand::json_type::string: {
      std::string_view s;
      if (v.get_string().get(s)) { return false; }
      sink_.string(s.size());
      return true;
    }
    case ondemand::json_type::number: {
      ondemand::number n;
      if (v.get_number().get(n)) { return false; }
      if (n.is_double()) {
        // simdjson 3.0.1's get_number() loses a float of more than 19 significant digits (it
        // answers +0.0; JSON_checker's pass04.json and pass05.json show it): see
        // repair_lost_double. A value still gives its raw token after it was read.
        sink_.floating(repair_lost_double(n.get_double(), v.raw_json_token()));
      } else if (n.is_int64()) {
        sink_.integer(uint64_t(n.get_int64()));
      } else {
        sink_.integer(n.get_uint64());
      }
      return true;
    }
    case ondemand::json_type::boolean: {
      bool b;
      if (v.get_bool().get(b)) { return false; }
      sink_.boolean(b);
      return true;
    }
    case ondemand::json_type::null: {
      bool is_null;
      if (v.is_null().get(is_null) || !is_null) { return false; }
      sink_.null();
      return true;
    }
    }
    return false;
  }

  // Held by value: one indirection less on every event than a reference.
  Sink sink_;
  uint32_t depth_ = 0;
  uintptr_t floor_ = stack_floor();
  uint32_t max_depth_;
  bool deeper_allowed_;
  bool too_deep_ = false;
};

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_SRC_ON_DEMAND_WALK_H
