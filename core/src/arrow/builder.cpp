// SPDX-License-Identifier: Apache-2.0
#include "builder.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

namespace simdbridge::arrow {

buffer::~buffer() { std::free(data_); }

void buffer::reserve(size_t n) {
  if (n <= capacity_) { return; }
  size_t capacity = capacity_ < 64 ? 64 : capacity_;
  while (capacity < n) { capacity *= 2; }
  // realloc: a large buffer grows by remapping its pages, neither copied nor touched again.
  // (malloc's 16-byte alignment is more than any Arrow type's width asks.)
  void *grown = std::realloc(data_, capacity);
  if (grown == nullptr) { throw std::bad_alloc(); }
  data_ = static_cast<uint8_t *>(grown);
  capacity_ = capacity;
}

void buffer::shrink_to_fit() noexcept {
  if (size_ == capacity_ || size_ == 0) { return; }
  if (void *fit = std::realloc(data_, size_)) { // (a failed shrink keeps the larger block)
    data_ = static_cast<uint8_t *>(fit);
    capacity_ = size_;
  }
}

column::column(const field &f) : type(&f) {
  children.reserve(f.children.size());
  for (const field &c : f.children) { children.emplace_back(c); }
  if (f.type == kind::structure) {
    names.reserve(f.children.size());
    plain_names.reserve(f.children.size());
    short_names.reserve(f.children.size());
    for (size_t i = 0; i < f.children.size(); i++) {
      names.emplace(f.children[i].name, i);
      bool plain = true;
      for (const char ch : f.children[i].name) { plain &= ch != '"' && ch != '\\' && uint8_t(ch) >= 0x20; }
      plain_names.push_back(plain);
      std::array<uint8_t, 16> head{};
      std::memcpy(head.data(), f.children[i].name.data(), std::min<size_t>(16, f.children[i].name.size()));
      short_names.push_back(head);
    }
  }
  if (f.type == kind::utf8 || f.type == kind::large_utf8 || f.type == kind::list || f.type == kind::large_list ||
      f.type == kind::map) {
    push_offset(0);
  }
}

void column::reserve_like(const column &model, double scale) {
  const auto scaled = [scale](size_t n) { return size_t(double(n) * scale) + 64; };
  if (model.null_count != 0) { validity.bits().reserve(scaled(model.validity.bits().size())); }
  booleans.bits().reserve(scaled(model.booleans.bits().size()));
  values.reserve(scaled(model.values.size()));
  offsets.reserve(scaled(model.offsets.size()));
  for (size_t k = 0; k < children.size() && k < model.children.size(); k++) { children[k].reserve_like(model.children[k], scale); }
}

void column::append_null() {
  if (null_count == 0) { validity.push_ones(length); }
  validity.push(false);
  length++;
  null_count++;
  switch (type->type) {
  case kind::null: case kind::structure: break; // (its children lag: fill_to)
  case kind::boolean: booleans.push(false); break;
  case kind::utf8: case kind::large_utf8: push_offset(int64_t(values.size())); break;
  case kind::list: case kind::large_list: case kind::map: push_offset(children[0].length); break;
  default: std::memset(values.grow(type->width()), 0, type->width()); break;
  }
}

void column::append_nulls(int64_t n) {
  if (n <= 0) { return; }
  if (null_count == 0) { validity.push_ones(length); }
  validity.push_zeros(n);
  length += n;
  null_count += n;
  const auto repeat_offset = [&](int64_t at) {
    if (large_offsets()) {
      auto *out = offsets.grow(size_t(n) * 8);
      for (int64_t k = 0; k < n; k++) { std::memcpy(out + k * 8, &at, 8); }
    } else {
      const int32_t narrow = int32_t(at);
      auto *out = offsets.grow(size_t(n) * 4);
      for (int64_t k = 0; k < n; k++) { std::memcpy(out + k * 4, &narrow, 4); }
    }
  };
  switch (type->type) {
  case kind::null: case kind::structure: break; // (its children lag: fill_to)
  case kind::boolean: booleans.push_zeros(n); break;
  case kind::utf8: case kind::large_utf8: repeat_offset(int64_t(values.size())); break;
  case kind::list: case kind::large_list: case kind::map: repeat_offset(children[0].length); break;
  default: std::memset(values.grow(size_t(n) * type->width()), 0, size_t(n) * type->width()); break;
  }
}

void column::truncate(int64_t n) noexcept {
  // A struct's child lagging behind row n holds nothing past it (it is filled before it is
  // written); at n == length, a row half appended may still be in the children.
  if (n > length) { return; }
  if (null_count != 0) {
    const int64_t keep = std::min(n, validity.length());
    null_count -= validity.zeros_from(keep);
    validity.truncate(keep);
    if (null_count == 0) { validity = bitmap(); } // as before the first null: no bitmap
  }
  length = n;
  const bool large = large_offsets();
  const size_t width = large ? 8 : 4;
  const auto offset_at = [&](int64_t row) -> int64_t {
    if (large) {
      int64_t v;
      std::memcpy(&v, offsets.data() + size_t(row) * 8, 8);
      return v;
    }
    int32_t v;
    std::memcpy(&v, offsets.data() + size_t(row) * 4, 4);
    return v;
  };
  switch (type->type) {
  case kind::null: break;
  case kind::boolean: booleans.truncate(n); break;
  case kind::utf8: case kind::large_utf8:
    offsets.shrink_to(size_t(n + 1) * width);
    values.shrink_to(size_t(offset_at(n)));
    break;
  case kind::list: case kind::large_list: case kind::map:
    offsets.shrink_to(size_t(n + 1) * width);
    children[0].truncate(offset_at(n));
    break;
  case kind::structure:
    for (column &c : children) { c.truncate(n); }
    break;
  default: values.shrink_to(size_t(n) * type->width()); break;
  }
}

namespace {

/** What an exported ArrowArray owns: its column's buffers, and its children. */
struct array_data {
  explicit array_data(column &&c) : owned(std::move(c)) {}
  column owned;
  const void *buffers[3] = {nullptr, nullptr, nullptr};
  std::vector<ArrowArray *> children;
};

void release_array(ArrowArray *array) {
  if (array == nullptr || array->release == nullptr) { return; }
  auto *data = static_cast<array_data *>(array->private_data);
  for (ArrowArray *child : data->children) {
    if (child->release != nullptr) { child->release(child); }
    delete child;
  }
  delete data;
  array->release = nullptr;
}

} // namespace

void column::export_to(ArrowArray *out) {
  const kind k = type->type;
  const int64_t rows = length, nulls = null_count;
  std::vector<column> kids = std::move(children);
  children.clear();
  auto data = std::make_unique<array_data>(std::move(*this));
  column &c = data->owned;
  c.values.shrink_to_fit();
  c.offsets.shrink_to_fit();
  data->children.reserve(kids.size());
  for (column &kid : kids) {
    if (k == kind::structure) { kid.fill_to(rows); } // (the rows it lagged by: null)
    auto child = std::make_unique<ArrowArray>();
    kid.export_to(child.get());
    data->children.push_back(child.release());
  }
  int64_t n_buffers = 0;
  // A validity bitmap only where a row is null (Arrow allows none then).
  const void *valid_bits = nulls > 0 ? c.validity.bits().data() : nullptr;
  switch (k) {
  case kind::null: n_buffers = 0; break;
  case kind::boolean:
    n_buffers = 2;
    data->buffers[0] = valid_bits;
    data->buffers[1] = c.booleans.bits().data();
    break;
  case kind::utf8: case kind::large_utf8:
    n_buffers = 3;
    data->buffers[0] = valid_bits;
    data->buffers[1] = c.offsets.data();
    data->buffers[2] = c.values.data();
    break;
  case kind::list: case kind::large_list: case kind::map:
    n_buffers = 2;
    data->buffers[0] = valid_bits;
    data->buffers[1] = c.offsets.data();
    break;
  case kind::structure:
    n_buffers = 1;
    data->buffers[0] = valid_bits;
    break;
  default:
    n_buffers = 2;
    data->buffers[0] = valid_bits;
    data->buffers[1] = c.values.data();
    break;
  }
  // Arrow requires a non-null pointer for a buffer of any length; an empty buffer of ours has
  // none, so point it at a static zero.
  static const uint64_t empty[2] = {0, 0};
  for (int64_t b = 1; b < n_buffers; b++) {
    if (data->buffers[b] == nullptr) { data->buffers[b] = empty; }
  }
  out->length = rows;
  out->null_count = k == kind::null ? rows : nulls;
  out->offset = 0;
  out->n_buffers = n_buffers;
  out->n_children = int64_t(data->children.size());
  out->buffers = data->buffers;
  out->children = data->children.empty() ? nullptr : data->children.data();
  out->dictionary = nullptr;
  out->release = release_array;
  out->private_data = data.release();
}

} // namespace simdbridge::arrow
