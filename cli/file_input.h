// SPDX-License-Identifier: Apache-2.0
// Reading a whole file (or standard input) into a buffer with the parser's padding after it,
// so that the core reads it in place.
#ifndef SIMDBRIDGE_CLI_FILE_INPUT_H
#define SIMDBRIDGE_CLI_FILE_INPUT_H

#include <cstdint>
#include <string>
#include <vector>

#include "simdbridge/input.h"

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

} // namespace simdbridge::cli

#endif // SIMDBRIDGE_CLI_FILE_INPUT_H
