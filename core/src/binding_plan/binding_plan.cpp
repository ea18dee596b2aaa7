// SPDX-License-Identifier: Apache-2.0
// binding_plan::parse: a plan from its serialized form (simdbridge/binding_plan.h), every count
// and index checked against what the form holds before anything is sized by it.
#include "plan_nodes.h"

#include <new>

namespace simdbridge {

binding_plan::binding_plan(std::unique_ptr<nodes> n) noexcept : nodes_(std::move(n)) {}
binding_plan::~binding_plan() = default;

namespace {

/** Reads the form's little-endian integers, remembering where it went wrong. */
struct spec_reader {
  const uint8_t *data;
  size_t length;
  size_t at = 0;
  bool bad = false;

  uint32_t u32() noexcept {
    if (bad || length - at < 4) {
      bad = true;
      return 0;
    }
    const uint32_t v = uint32_t(data[at]) | uint32_t(data[at + 1]) << 8 | uint32_t(data[at + 2]) << 16 | uint32_t(data[at + 3]) << 24;
    at += 4;
    return v;
  }
};

} // namespace

std::unique_ptr<binding_plan> binding_plan::parse(const uint8_t *spec, size_t length, error &e) noexcept {
  using internal::plan_key;
  using internal::plan_kind;
  using internal::plan_node;
  e = {};
  if (spec == nullptr && length != 0) {
    e = {error_code::invalid_argument, 0};
    return nullptr;
  }
  spec_reader r{spec, length};
  const auto fail = [&](size_t at) -> std::unique_ptr<binding_plan> {
    e = {error_code::invalid_argument, at};
    return nullptr;
  };
  try {
    auto n = std::make_unique<nodes>();
    const uint32_t count = r.u32();
    // Each node takes at least 8 bytes of the form: a count past that is malformed, not a size.
    if (r.bad || count == 0 || count > (length - r.at) / 8) { return fail(0); }
    n->all.reserve(count);
    // As the form gives them (indices), made pointers once every node is read.
    std::vector<uint32_t> first_key, key_count, element, child;
    for (uint32_t i = 0; i < count; i++) {
      const size_t node_at = r.at;
      const uint32_t kind = r.u32();
      plan_node node{};
      first_key.push_back(uint32_t(n->keys.size()));
      key_count.push_back(0);
      element.push_back(no_node);
      if (kind == uint32_t(plan_kind::object)) {
        node.kind = plan_kind::object;
        key_count[i] = r.u32();
        if (r.bad || key_count[i] > (length - r.at) / 8) { return fail(node_at); }
        for (uint32_t k = 0; k < key_count[i]; k++) {
          const size_t key_at = r.at;
          plan_key key{};
          key.length = r.u32();
          if (r.bad || key.length > length - r.at) { return fail(key_at); }
          const uint8_t *name = spec + r.at;
          for (uint32_t b = 0; b < key.length; b++) {
            if (name[b] == '"' || name[b] == '\\' || name[b] < 0x20) { return fail(r.at + b); }
          }
          std::memcpy(key.head, name, key.length < 16 ? key.length : 16);
          key.name_at = uint32_t(n->names.size());
          n->names.insert(n->names.end(), name, name + key.length);
          n->longest_name = key.length > n->longest_name ? key.length : n->longest_name;
          r.at += key.length;
          child.push_back(r.u32());
          if (r.bad) { return fail(key_at); }
          n->keys.push_back(key);
        }
      } else if (kind == uint32_t(plan_kind::array)) {
        node.kind = plan_kind::array;
        element[i] = r.u32();
      } else {
        return fail(node_at);
      }
      if (r.bad) { return fail(node_at); }
      n->all.push_back(node);
    }
    if (r.at != length) { return fail(r.at); }
    // Indices checked, then made pointers (the vectors are not resized again).
    for (size_t k = 0; k < n->keys.size(); k++) {
      if (child[k] != no_node && child[k] >= count) { return fail(0); }
      n->keys[k].child_node = child[k] == no_node ? nullptr : &n->all[child[k]];
    }
    for (uint32_t i = 0; i < count; i++) {
      if (element[i] != no_node && element[i] >= count) { return fail(0); }
      n->all[i].element_node = element[i] == no_node ? nullptr : &n->all[element[i]];
      n->all[i].keys = n->keys.data() + first_key[i];
      n->all[i].keys_end = n->all[i].keys + key_count[i];
    }
    return std::unique_ptr<binding_plan>(new binding_plan(std::move(n)));
  } catch (const std::bad_alloc &) {
    e = {error_code::out_of_memory, 0};
    return nullptr;
  }
}

} // namespace simdbridge
