// SPDX-License-Identifier: Apache-2.0
// A stream cut into blocks at document boundaries and converted on several threads, each block
// into its own buffer: what both directions of the MessagePack conversion share.
#ifndef SIMDBRIDGE_SRC_MSGPACK_BLOCKS_H
#define SIMDBRIDGE_SRC_MSGPACK_BLOCKS_H

#include <algorithm>
#include <atomic>
#include <cstring>
#include <cstdint>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "simdbridge/msgpack.h"
#include "simdbridge/stream.h"

namespace simdbridge::internal {

/**
 * An allocator whose resize() leaves the new bytes as they are (default-initialized, where
 * std::allocator zeroes them): the conversions size their output, then write all of it, and
 * zeroing it first cost about as much again as the writes.
 */
template <typename T> struct uninitialized_allocator : std::allocator<T> {
  template <typename U> struct rebind {
    using other = uninitialized_allocator<U>;
  };
  uninitialized_allocator() = default;
  template <typename U> uninitialized_allocator(const uninitialized_allocator<U> &) noexcept {}
  template <typename U> void construct(U *p) noexcept { ::new (static_cast<void *>(p)) U; }
  template <typename U, typename... Args> void construct(U *p, Args &&...args) {
    ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
  }
};

/** Bytes of output, grown with no zeroing (uninitialized_allocator). */
using output_bytes = std::vector<uint8_t, uninitialized_allocator<uint8_t>>;

/** One block of a stream: its bytes [begin, end), what it converted to, and how it ended. */
struct msgpack_block {
  size_t begin = 0;
  size_t end = 0;
  uint64_t documents = 0; // converted (up to the error, where there is one)
  output_bytes out;
  msgpack_error failure;  // its document counted within the block, its offset in the whole input
};

/**
 * Reads `source` after the `size` bytes `bytes` holds until it holds `want` (its capacity grown
 * to want and the padding) or the source ends (`at_end`); a failed read is its error, at the
 * offset in `bytes` where it was to go.
 */
inline error read_up_to(stream_source &source, std::vector<uint8_t> &bytes, size_t &size, size_t want, bool &at_end) {
  if (bytes.size() < want + padding) { bytes.resize(want + padding); }
  while (!at_end && size < want) {
    const result<size_t> r = source.read(bytes.data() + size, want - size);
    if (!r.ok()) { return {r.error().code, size}; }
    if (r.value() == 0) { at_end = true; }
    size += r.value();
  }
  return {};
}

/**
 * blocks[i] (added where there are only i) made ready to convert [begin, end): what a stream
 * read a step at a time uses, so that each block's output keeps its memory from step to step
 * rather than being freed and allocated again.
 */
inline msgpack_block &reuse_block(std::vector<msgpack_block> &blocks, size_t i, size_t begin, size_t end) {
  if (i == blocks.size()) { blocks.emplace_back(); }
  msgpack_block &b = blocks[i];
  b.begin = begin;
  b.end = end;
  b.documents = 0;
  b.out.clear();
  b.failure = {};
  return b;
}

/** The bytes of buffers a conversion's workspace keeps in a parser for the next call, at most. */
inline constexpr size_t workspace_kept_at_most = size_t(64) << 20;

/**
 * What msgpack_to_json keeps in a parser from call to call (parser::state::msgpack_json): the
 * output buffers of a value or of a stream's blocks, whose pages were otherwise faulted in
 * afresh each call (on GH Archive's MessagePack, about 9,000 page faults a call on one thread,
 * a fifth of its time in the kernel). Up to workspace_kept_at_most bytes: past it, they are freed
 * once the call is done.
 */
struct msgpack_json_workspace {
  std::vector<output_bytes> spare;

  /** An emptied kept buffer (a new one where none is kept). */
  output_bytes take() noexcept {
    if (spare.empty()) { return {}; }
    output_bytes b = std::move(spare.back());
    spare.pop_back();
    b.clear();
    return b;
  }

  /** Keeps `b` for the next call (where there is no memory to list it, it is freed instead). */
  void give_back(output_bytes &&b) noexcept {
    try {
      spare.push_back(std::move(b));
    } catch (const std::bad_alloc &) {
    }
  }

  /** Frees the buffers where they keep more than workspace_kept_at_most. */
  void trim() noexcept {
    size_t n = 0;
    for (const output_bytes &b : spare) { n += b.capacity(); }
    if (n > workspace_kept_at_most) { spare = {}; }
  }
};

/** From this total on, hand_over copies the blocks on the threads it is given. */
inline constexpr size_t parallel_copy_from = size_t(4) << 20;

/**
 * The first failure of `blocks` (converted, in input order), its document counted from the
 * stream's start; or, where none failed, their outputs handed to `output` in order (asked once
 * for their total size; none: the outputs are dropped). A large output is copied on up to
 * `threads` threads, a run of blocks of about the same bytes each: on one, the copy into memory
 * that the caller has just allocated, and whose pages are faulted in as it goes, took a fifth of
 * a two-thread conversion.
 */
template <typename Blocks> msgpack_error hand_over(Blocks &blocks, const msgpack_output *output, unsigned threads = 1) {
  size_t total = 0;
  uint64_t documents = 0;
  for (msgpack_block &b : blocks) {
    if (!b.failure.ok()) {
      msgpack_error e = b.failure;
      e.document += documents;
      return e;
    }
    documents += b.documents;
    total += b.out.size();
  }
  if (output == nullptr) { return {}; }
  uint8_t *to = (*output)(total);
  if (to == nullptr) { return {{error_code::out_of_memory, 0}, 0}; }
  const auto copy = [&blocks](size_t first, size_t last, uint8_t *at) noexcept {
    for (size_t i = first; i < last; i++) {
      const output_bytes &out = blocks[i].out;
      if (!out.empty()) { std::memcpy(at, out.data(), out.size()); }
      at += out.size();
    }
  };
  const size_t n = blocks.size();
  if (threads <= 1 || total < parallel_copy_from || n < 2) {
    copy(0, n, to);
    return {};
  }
  // Runs of about total / threads bytes: run r starts at the first block past the last run's
  // start with at least r * total / threads bytes before it. Each but the first on a thread.
  std::vector<size_t> starts{0}, offsets{0};
  size_t before = 0;
  for (size_t i = 0; i < n; i++) {
    if (starts.size() < threads && i > starts.back() && before >= total / threads * starts.size()) {
      starts.push_back(i);
      offsets.push_back(before);
    }
    before += blocks[i].out.size();
  }
  starts.push_back(n);
  std::vector<std::thread> pool;
  for (size_t r = 1; r + 1 < starts.size(); r++) {
    try {
      pool.emplace_back(copy, starts[r], starts[r + 1], to + offsets[r]);
    } catch (...) { // no thread to be had: copied here
      copy(starts[r], starts[r + 1], to + offsets[r]);
    }
  }
  copy(0, starts[1], to);
  for (std::thread &t : pool) { t.join(); }
  return {};
}

/**
 * Converts every block with `convert(block, worker)` on up to `threads` threads (worker: 0 for
 * the calling thread, then 1, 2, ...), blocks taken in order; then returns the first failure in
 * input order (its document counted from the stream's start), or hands the blocks' outputs, in
 * order, to `output` (asked once for their total size; none: the outputs are dropped).
 */
template <typename Convert>
msgpack_error convert_blocks(std::vector<msgpack_block> &blocks, unsigned threads, const msgpack_output *output,
                             Convert &&convert) {
  const unsigned n = std::max(1u, std::min<unsigned>(threads, unsigned(blocks.size())));
  std::atomic<size_t> next{0};
  const auto run = [&](unsigned worker) {
    for (size_t i; (i = next.fetch_add(1)) < blocks.size();) { convert(blocks[i], worker); }
  };
  if (n <= 1) {
    run(0);
  } else {
    std::vector<std::thread> pool;
    try {
      for (unsigned t = 1; t < n; t++) { pool.emplace_back(run, t); }
    } catch (...) { // no thread to be had: the threads made so far, and this one, do the work
    }
    run(0);
    for (std::thread &t : pool) { t.join(); }
  }
  return hand_over(blocks, output, n);
}

/** An output that is `out`, resized to the result. */
inline msgpack_output into(std::vector<uint8_t> &out) {
  return [&out](size_t size) -> uint8_t * {
    static uint8_t none; // (an empty vector's data() may be null, which would say out of memory)
    out.resize(size);
    return size == 0 ? &none : out.data();
  };
}

/**
 * One document's MessagePack through the structural walk alone (from_json.cpp's direct_sink),
 * for the tests: false where the walk does not take it (json_to_msgpack then reads it from a
 * binding tape).
 */
bool walked_msgpack(parser &p, input in, std::vector<uint8_t> &out);

} // namespace simdbridge::internal

#endif // SIMDBRIDGE_SRC_MSGPACK_BLOCKS_H
