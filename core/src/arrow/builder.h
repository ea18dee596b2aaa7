// SPDX-License-Identifier: Apache-2.0
// Arrow columns built a value at a time, then handed over as an ArrowArray whose release frees
// them: one private struct per array holds its buffers (the C Data Interface's ownership rule).
#ifndef SIMDBRIDGE_SRC_ARROW_BUILDER_H
#define SIMDBRIDGE_SRC_ARROW_BUILDER_H

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "schema.h"
#include "simdbridge/arrow_c_data.h"

namespace simdbridge::arrow {

/** A growable buffer of bytes (16-byte aligned, as malloc gives). */
class buffer {
public:
  buffer() = default;
  buffer(const buffer &) = delete;
  buffer &operator=(const buffer &) = delete;
  buffer(buffer &&o) noexcept : data_(o.data_), size_(o.size_), capacity_(o.capacity_) { o.data_ = nullptr; o.size_ = o.capacity_ = 0; }
  buffer &operator=(buffer &&o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
    return *this;
  }
  ~buffer();
  uint8_t *data() noexcept { return data_; }
  const uint8_t *data() const noexcept { return data_; }
  size_t size() const noexcept { return size_; }
  size_t capacity() const noexcept { return capacity_; }
  /** n more bytes at the end (uninitialized); throws std::bad_alloc. */
  uint8_t *grow(size_t n) {
    if (size_ + n > capacity_) { reserve(size_ + n); }
    uint8_t *at = data_ + size_;
    size_ += n;
    return at;
  }
  template <typename T> void push(T v) { std::memcpy(grow(sizeof v), &v, sizeof v); }
  void append(const void *bytes, size_t n) {
    if (n > 0) { std::memcpy(grow(n), bytes, n); }
  }
  void reserve(size_t n);
  /** Room for `n` more bytes past the end, where a writer may write them (then commit()). */
  uint8_t *room(size_t n) {
    if (size_ + n > capacity_) { reserve(size_ + n); }
    return data_ + size_;
  }
  /** Takes `n` bytes written at room() as part of the buffer. */
  void commit(size_t n) noexcept { size_ += n; }
  /** Gives back the capacity past the size (a handed-over column keeps no slack). */
  void shrink_to_fit() noexcept;
  /** Drops the bytes past `n` (n <= size). */
  void shrink_to(size_t n) noexcept { size_ = n; }
  void clear() noexcept { size_ = 0; }

private:
  uint8_t *data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

/** A bitmap grown a bit at a time. */
class bitmap {
public:
  /** `n` set bits (the rows before a bitmap's first null). */
  void push_ones(int64_t n) { push_run(n, true); }
  /** `n` clear bits. */
  void push_zeros(int64_t n) { push_run(n, false); }
  /** `n` bits of one value: the byte begun a bit at a time, then whole bytes at once. */
  void push_run(int64_t n, bool bit) {
    for (; n > 0 && length_ % 8 != 0; n--) { push(bit); }
    if (const int64_t bytes = n / 8; bytes > 0) {
      std::memset(bits_.grow(size_t(bytes)), bit ? 0xFF : 0, size_t(bytes));
      length_ += bytes * 8;
      n -= bytes * 8;
    }
    for (; n > 0; n--) { push(bit); }
  }
  void push(bool bit) {
    if (length_ % 8 == 0) { bits_.push<uint8_t>(0); }
    if (bit) { bits_.data()[length_ / 8] |= uint8_t(1u << (length_ % 8)); }
    length_++;
  }
  void set_last(bool bit) {
    uint8_t &byte = bits_.data()[(length_ - 1) / 8];
    const uint8_t mask = uint8_t(1u << ((length_ - 1) % 8));
    byte = bit ? uint8_t(byte | mask) : uint8_t(byte & ~mask);
  }
  int64_t length() const noexcept { return length_; }
  /** Drops the bits from `n` on (n <= length). */
  void truncate(int64_t n) noexcept {
    length_ = n;
    bits_.shrink_to(size_t((n + 7) / 8));
    if (n % 8 != 0) { bits_.data()[n / 8] &= uint8_t((1u << (n % 8)) - 1); }
  }
  /** The clear bits in [from, length). */
  int64_t zeros_from(int64_t from) const noexcept {
    int64_t n = 0;
    for (int64_t k = from; k < length_; k++) { n += (bits_.data()[k / 8] >> (k % 8) & 1) == 0; }
    return n;
  }
  buffer &bits() noexcept { return bits_; }
  const buffer &bits() const noexcept { return bits_; }

private:
  buffer bits_;
  int64_t length_ = 0;
};

/**
 * One column being built, of the field it was made for. A struct's children may lag behind it:
 * the rows a child lacks past its length are null, appended in one step when the child is next
 * written (fill_to) or handed over. A record that leaves most of a wide struct's fields out (an
 * event whose payload has one of many shapes) then costs nothing for the fields it lacks.
 */
struct column {
  explicit column(const field &f);
  const field *type;
  int64_t length = 0;
  int64_t null_count = 0;
  bitmap validity;          // made at the first null: until then every row is valid
  bitmap booleans;         // boolean: the values
  buffer values;           // fixed width: the values; strings: their bytes
  buffer offsets;          // utf8, list: int32 (int64 for the large ones), length + 1 of them
  std::vector<column> children;
  /** A struct column: its fields' index by name. */
  std::unordered_map<std::string_view, size_t> names;
  /** A struct column: per field, whether its name reads the same escaped in JSON (no quote,
   *  backslash or control character), so that a key's raw bytes can be compared with it. */
  std::vector<uint8_t> plain_names;
  /** A struct column: per field, its name's first 16 bytes, zero-padded (compared at once). */
  std::vector<std::array<uint8_t, 16>> short_names;

  /** A null row (a list's offset repeats; a struct's children lag, see fill_to). */
  void append_null();
  /** `n` null rows at once. */
  void append_nulls(int64_t n);
  /** Null rows up to `n` rows, where there are fewer: a struct's child before a value is
   *  written into it for the struct's row `n`. */
  void fill_to(int64_t n) {
    if (length < n) { append_nulls(n - length); }
  }
  /** Drops the rows from `n` on (nothing where there are fewer), and whatever its children
   *  hold past them: a row half appended (a struct's fields, a list's items) is taken back whole. */
  void truncate(int64_t n) noexcept;
  /** Marks a row begun by a value as valid; the value itself is appended by the caller. */
  void append_valid() {
    if (null_count != 0) { validity.push(true); }
    length++;
  }
  /** Whether the column's offsets are 64-bit (large_utf8, large_list), else 32-bit. */
  bool large_offsets() const noexcept { return type->type == kind::large_utf8 || type->type == kind::large_list; }
  /** The next offset of a utf8 or list column: where the bytes or items so far end. */
  void push_offset(int64_t at) {
    if (large_offsets()) {
      offsets.push<int64_t>(at);
    } else {
      offsets.push<int32_t>(int32_t(at));
    }
  }
  /** Capacity for what `model` (a column of the same field) holds, times `scale`: a block's
   *  columns sized from the block before them grow without copies. */
  void reserve_like(const column &model, double scale);
  /** Hands the column over (it is emptied). */
  void export_to(ArrowArray *out);
};

} // namespace simdbridge::arrow

#endif // SIMDBRIDGE_SRC_ARROW_BUILDER_H
