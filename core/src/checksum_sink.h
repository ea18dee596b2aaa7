// SPDX-License-Identifier: Apache-2.0
// The fold of docs/checksum.md, as a sink of parse events. Both readers of the core
// (the simdjson tape walk and the scalar parser) feed it, so the contract lives in one place.
#ifndef SIMDBRIDGE_SRC_CHECKSUM_SINK_H
#define SIMDBRIDGE_SRC_CHECKSUM_SINK_H

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace simdbridge::internal {

inline constexpr uint64_t checksum_seed = 0xcbf29ce484222325ULL;
inline constexpr uint64_t checksum_prime = 0x100000001b3ULL;

enum checksum_tag : uint64_t {
  tag_object_begin = 1,
  tag_object_end = 2,
  tag_array_begin = 3,
  tag_array_end = 4,
  tag_key = 5,
  tag_string = 6,
  tag_integer = 7,
  tag_double = 8,
  tag_true = 9,
  tag_false = 10,
  tag_null = 11,
  tag_document_end = 12,
};

inline uint64_t fold(uint64_t h, uint64_t tag, uint64_t payload) noexcept {
  h = (h ^ tag) * checksum_prime;
  return (h ^ payload) * checksum_prime;
}


inline uint64_t double_bits(double d) noexcept {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

/**
 * True for a sink that records the binding tape (binding_tape_sink.h): the readers then give it values,
 * unescaped strings and byte offsets instead of the checksum's events.
 */
template <typename Sink, typename = void> struct records_tape : std::false_type {};
template <typename Sink>
struct records_tape<Sink, std::void_t<decltype(Sink::records_tape)>> : std::bool_constant<Sink::records_tape> {};

/** Folds every event into `h`. */
struct checksum_sink {
  uint64_t h = checksum_seed;

  void object_begin() noexcept { h = fold(h, tag_object_begin, 0); }
  void object_end() noexcept { h = fold(h, tag_object_end, 0); }
  void array_begin() noexcept { h = fold(h, tag_array_begin, 0); }
  void array_end() noexcept { h = fold(h, tag_array_end, 0); }
  void key(uint64_t utf8_length) noexcept { h = fold(h, tag_key, utf8_length); }
  void string(uint64_t utf8_length) noexcept { h = fold(h, tag_string, utf8_length); }
  void integer(uint64_t twos_complement) noexcept { h = fold(h, tag_integer, twos_complement); }
  void floating(double value) noexcept { h = fold(h, tag_double, double_bits(value)); }
  void boolean(bool value) noexcept { h = fold(h, value ? tag_true : tag_false, 0); }
  void null() noexcept { h = fold(h, tag_null, 0); }
  void document_end() noexcept { h = fold(h, tag_document_end, 0); }
};

/** Ignores every event: the scalar parser as a pure validator. */
struct validation_sink {
  void object_begin() noexcept {}
  void object_end() noexcept {}
  void array_begin() noexcept {}
  void array_end() noexcept {}
  void key(uint64_t) noexcept {}
  void string(uint64_t) noexcept {}
  void integer(uint64_t) noexcept {}
  void floating(double) noexcept {}
  void boolean(bool) noexcept {}
  void null() noexcept {}
  void document_end() noexcept {}
};

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_SRC_CHECKSUM_SINK_H
