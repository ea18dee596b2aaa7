// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_BINDING_PLAN_H
#define SIMDBRIDGE_BINDING_PLAN_H

#include <cstddef>
#include <cstdint>
#include <memory>

#include "simdbridge/error.h"

namespace simdbridge {

/**
 * A binding plan: the objects a caller expects to bind, each as its keys in order, so that
 * parser::to_binding_tape can check the keys as it reads them and leave them off the tape. A
 * data binding compiles one per class it reads (the JVM's does, on the first read of a class)
 * and hands it to every read of that class.
 *
 * With a plan, an object where the plan expects one is written without its keys when it holds
 * exactly the plan's keys, in the plan's order, each written as plainly as the plan writes it (no
 * escape): its entries are then its values alone, the i-th value the plan's i-th key's. Its
 * word 1 is as on any tape (the word past it, the number of members). Values the plan says
 * nothing about, and everything inside them, are written as on any tape. An object that does
 * not match makes the whole read fall back to the tape without a plan, and the output says
 * which one was written (binding_tape_buffer::planned): a caller binds either.
 *
 * The serialized form (all integers 32-bit little-endian):
 *
 *     node_count, then node_count nodes, the first the document's root:
 *       1, key_count, then per key: name_length, the name's UTF-8 bytes, child   (an object)
 *       2, element                                                               (an array)
 *
 * where a child or element is the index of the node its value is read by, or 0xFFFFFFFF where
 * the plan says nothing about that value. A name may not hold '"', '\\' or a control character
 * (the plan matches the key's bytes as written). Nodes may refer to each other in cycles (a
 * class with a list of itself).
 */
class binding_plan {
public:
  /** Where a child or element has no node. */
  static constexpr uint32_t no_node = 0xFFFFFFFFu;

  /** A plan from its serialized form, or nullptr and error_code::invalid_argument (at the byte
   *  of the form that is wrong) where it is malformed, or out_of_memory. */
  static std::unique_ptr<binding_plan> parse(const uint8_t *spec, size_t length, error &e) noexcept;

  ~binding_plan();
  binding_plan(const binding_plan &) = delete;
  binding_plan &operator=(const binding_plan &) = delete;

  /** The nodes, for the core's readers; defined in the core's sources only. */
  struct nodes;
  const nodes &internals() const noexcept { return *nodes_; }

private:
  explicit binding_plan(std::unique_ptr<nodes> n) noexcept;
  std::unique_ptr<nodes> nodes_;
};

} // namespace simdbridge

#endif // SIMDBRIDGE_BINDING_PLAN_H
