// SPDX-License-Identifier: Apache-2.0
// Reading a whole file (or standard input) into a buffer with the parser's padding after it,
// so that the core reads it in place; or, for streams, as a source read block by block.
#ifndef SIMDBRIDGE_CLI_FILE_INPUT_H
#define SIMDBRIDGE_CLI_FILE_INPUT_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "simdbridge/input.h"
#include "simdbridge/stream.h"

namespace simdbridge::cli {

struct file_bytes {
  std::vector<uint8_t> bytes; // size() == length + padding
  size_t length = 0;

  simdbridge::input as_input() const noexcept {
    return simdbridge::input::padded(bytes.data(), length, bytes.size());
  }
};

/**
 * Reads `path`, or standard input for "-", up to `max_bytes` bytes (the rest is left unread: a
 * document limit is passed once its length and one byte more are read). On failure returns
 * false and sets `why`.
 */
bool read_file(const std::string &path, file_bytes &out, std::string &why, size_t max_bytes = SIZE_MAX);

/**
 * A file, or standard input for "-", read as it is asked for: what the stream commands read
 * through a block_reader, so that a stream of any length (a pipe that never ends) is held a
 * block at a time.
 */
class file_source final : public simdbridge::stream_source {
public:
  file_source() = default;
  file_source(const file_source &) = delete;
  file_source &operator=(const file_source &) = delete;
  ~file_source() override;

  /** Opens `path` ("-": standard input); false with `why` where it cannot be read. */
  bool open(const std::string &path, std::string &why);
  simdbridge::result<size_t> read(uint8_t *into, size_t capacity) noexcept override;
  /** Its file descriptor, for a reader of its own (before any read here: nothing is buffered yet). */
  int descriptor() const noexcept { return file_ != nullptr ? fileno(file_) : -1; }

private:
  std::FILE *file_ = nullptr;
  bool owned_ = false;
  uint64_t offset_ = 0;
};

} // namespace simdbridge::cli

#endif // SIMDBRIDGE_CLI_FILE_INPUT_H
