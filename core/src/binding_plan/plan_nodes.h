// SPDX-License-Identifier: Apache-2.0
// A binding plan as the structural walk reads it (simdbridge/binding_plan.h): its nodes, and each
// object's keys laid out for a 16-byte compare against the key's bytes in the input.
#ifndef SIMDBRIDGE_SRC_BINDING_PLAN_PLAN_NODES_H
#define SIMDBRIDGE_SRC_BINDING_PLAN_PLAN_NODES_H

#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "simdbridge/binding_plan.h"

namespace simdbridge {

namespace internal {

struct plan_node;

/** An object's key in a plan: its first 16 bytes zero-padded, its length and the node of its value. */
struct plan_key {
  alignas(16) uint8_t head[16];
  uint32_t length;
  uint32_t name_at;            // where the whole name is in binding_plan::nodes::names (for names past 16 bytes)
  const plan_node *child_node; // null where the plan says nothing of the value
};

enum class plan_kind : uint8_t { object = 1, array = 2 };

struct plan_node {
  plan_kind kind;
  const plan_node *element_node = nullptr; // an array's (null: the plan says nothing of it)
  const plan_key *keys = nullptr;          // an object's keys, [keys, keys_end)
  const plan_key *keys_end = nullptr;
};

/**
 * What the walk keeps of the container around a nested one while it reads that one (the
 * innermost container's is in registers): a planned object's next key and its end, an array's
 * element node.
 */
struct plan_level {
  const plan_key *cursor;
  const plan_key *end;
  const plan_node *element;
};

} // namespace internal

struct binding_plan::nodes {
  std::vector<internal::plan_node> all;
  std::vector<internal::plan_key> keys;
  std::vector<uint8_t> names;
  /** The longest name (a max_string_length below it leaves the plan unused: the keys it takes
   *  off the tape would not be checked). */
  uint32_t longest_name = 0;

  /**
   * Whether the key whose bytes start at `p` (just past its opening quote, in padded input) is
   * `k` exactly: its bytes, then the closing quote, before `limit` (the structural after the
   * key: no byte is read past the input, however long the plan's name). A name holds no '"' or
   * '\\', so the byte before that quote is never a backslash: the quote ends the key. A key that
   * writes the same name with an escape is not this one (the plan is then not followed).
   */
  bool key_is(const uint8_t *p, const uint8_t *limit, const internal::plan_key &k) const noexcept {
    if (k.length >= size_t(limit - p) || p[k.length] != '"') { return false; }
#if defined(__SSE2__)
    if (k.length <= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
      const __m128i h = _mm_load_si128(reinterpret_cast<const __m128i *>(k.head));
      const uint32_t equal = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, h)));
      const uint32_t wanted = (1u << k.length) - 1;
      return (equal & wanted) == wanted;
    }
#endif
    return std::memcmp(p, names.data() + k.name_at, k.length) == 0;
  }
};

} // namespace simdbridge

#endif // SIMDBRIDGE_SRC_BINDING_PLAN_PLAN_NODES_H
