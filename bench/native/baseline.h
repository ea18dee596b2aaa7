// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_BASELINE_H
#define SIMDBRIDGE_BASELINE_H

#include <cstdint>
#include <memory>

#include "simdbridge/input.h"
#include "simdbridge/result.h"

namespace simdbridge {

/**
 * simdjson used directly, with none of the engine's layers (no input checks, no slow path): the
 * yardsticks that simdbridge_bench measures the checksum engine against. Each walk computes
 * the checksum of docs/checksum.md, so a benchmark can check it before timing it; each
 * fails (error_code::expected_value, offset 0) on what simdjson itself refuses.
 *
 * Inputs must be padded (`input::parsed_in_place()`); the baselines never copy.
 */
class baseline {
public:
  enum class method {
    /** simdjson's DOM parse alone, no walk: the ceiling. Its "checksum" is 0. */
    dom_parse_only,
    /** DOM parse, then one linear pass over simdjson's tape. */
    dom_tape_walk,
    /** DOM parse, then a recursive walk through the public dom::element API. */
    dom_element_walk,
    /** On Demand, one generic recursive walk over every value. */
    on_demand_walk,
  };
  static constexpr method all_methods[] = {method::dom_parse_only, method::dom_tape_walk,
                                           method::dom_element_walk, method::on_demand_walk};
  static const char *name(method m) noexcept;

  baseline() noexcept;
  ~baseline();
  baseline(const baseline &) = delete;
  baseline &operator=(const baseline &) = delete;

  /** One document. */
  result<uint64_t> checksum(method m, input in) noexcept;
  /** A stream of documents separated by white space (DOM methods use parse_many). */
  result<uint64_t> checksum_stream(method m, input in) noexcept;

  struct state;

private:
  std::unique_ptr<state> state_;
};

} // namespace simdbridge

#endif // SIMDBRIDGE_BASELINE_H
