// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_RESULT_H
#define SIMDBRIDGE_RESULT_H

#include <utility>

#include "simdbridge/error.h"

namespace simdbridge {

/**
 * A value or an error, never both. Nothing in the core throws: every fallible call returns one.
 *
 * Example:
 *
 *     simdbridge::result<uint64_t> r = parser.checksum(input);
 *     if (r.ok()) use(r.value()); else report(r.error());
 */
template <typename T> class [[nodiscard]] result {
public:
  result(T value) noexcept : value_(std::move(value)) {}
  result(simdbridge::error e) noexcept : error_(e) {}
  result(error_code code, uint64_t offset) noexcept : error_{code, offset} {}

  bool ok() const noexcept { return error_.ok(); }
  /** The value; meaningful only when ok(). */
  const T &value() const noexcept { return value_; }
  const simdbridge::error &error() const noexcept { return error_; }

private:
  T value_{};
  simdbridge::error error_{};
};

} // namespace simdbridge

#endif // SIMDBRIDGE_RESULT_H
