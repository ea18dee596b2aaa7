// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_INPUT_H
#define SIMDBRIDGE_INPUT_H

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "simdbridge/simdbridge_c.h"

namespace simdbridge {

/** Readable bytes that must follow an input for it to be parsed in place. */
inline constexpr size_t padding = SIMDBRIDGE_PADDING;

/**
 * The bytes of a JSON text, and how far the memory behind them may be read.
 *
 * When `capacity >= size + padding`, the parser reads the bytes in place, with no copy: the
 * caller promises that `capacity` bytes from `data` are readable (what the padding holds does
 * not matter). Otherwise the parser copies the bytes once into its own reusable padded buffer.
 * `parsed_in_place()` says which of the two a call does.
 *
 * Example:
 *
 *     std::vector<uint8_t> buf(n + simdbridge::padding);   // read n bytes into buf
 *     auto in = simdbridge::input::padded(buf.data(), n, buf.size());   // parsed in place
 *     auto copied = simdbridge::input::copy_of(R"({"a":1})");           // copied once
 */
struct input {
  const uint8_t *data = nullptr;
  size_t size = 0;
  size_t capacity = 0;

  /** Bytes followed by at least `padding` readable bytes: parsed in place. */
  static constexpr input padded(const void *data, size_t size, size_t capacity) noexcept {
    return input{static_cast<const uint8_t *>(data), size, capacity};
  }
  /** Bytes with no promise past their end: copied once into the parser's padded buffer. */
  static constexpr input copy_of(const void *data, size_t size) noexcept {
    return input{static_cast<const uint8_t *>(data), size, size};
  }
  static constexpr input copy_of(std::string_view text) noexcept {
    return copy_of(text.data(), text.size());
  }

  constexpr bool parsed_in_place() const noexcept {
    return capacity >= size && capacity - size >= padding;
  }
  /** False for a null pointer with a non-zero size, or a capacity below the size. */
  constexpr bool well_formed() const noexcept {
    return (data != nullptr || size == 0) && capacity >= size;
  }
};

} // namespace simdbridge

#endif // SIMDBRIDGE_INPUT_H
