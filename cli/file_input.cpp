// SPDX-License-Identifier: Apache-2.0
#include "file_input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <stdexcept>
#include <new>
#include <sys/stat.h>

namespace simdbridge::cli {

bool read_file(const std::string &path, file_bytes &out, std::string &why, size_t max_bytes) {
  const bool from_stdin = path == "-";
  FILE *f = from_stdin ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    why = std::strerror(errno);
    return false;
  }
  out.length = 0;
  bool ok = true;
  try {
    // A regular file arrives in one read of its full size; a pipe grows the buffer geometrically.
    struct stat info {};
    size_t initial = size_t(1) << 16;
    if (fstat(fileno(f), &info) == 0 && S_ISREG(info.st_mode) && size_t(info.st_size) >= initial) {
      initial = size_t(info.st_size) + padding + 1;
    }
    if (max_bytes < SIZE_MAX - padding - 1) { initial = std::min(initial, max_bytes + padding + 1); }
    out.bytes.resize(initial);
    while (out.length < max_bytes) {
      if (out.bytes.size() - out.length < padding + 1) { out.bytes.resize(out.bytes.size() * 2); }
      const size_t room = std::min(out.bytes.size() - out.length - padding, max_bytes - out.length);
      const size_t n = std::fread(out.bytes.data() + out.length, 1, room, f);
      out.length += n;
      if (n < room) {
        if (std::ferror(f)) {
          why = std::strerror(errno);
          ok = false;
        }
        break;
      }
    }
    if (ok) {
      out.bytes.resize(out.length + padding);
      std::memset(out.bytes.data() + out.length, 0, padding);
    }
  } catch (const std::bad_alloc &) {
    why = "out of memory";
    ok = false;
  } catch (const std::length_error &) {
    why = "file too large";
    ok = false;
  }
  if (!from_stdin) { std::fclose(f); }
  return ok;
}

file_source::~file_source() {
  if (owned_) { std::fclose(file_); }
}

bool file_source::open(const std::string &path, std::string &why) {
  if (path == "-") {
    file_ = stdin;
    return true;
  }
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    why = std::strerror(errno);
    return false;
  }
  owned_ = true;
  // A directory opens, and fails at its first read: said here, as read_file says it.
  struct stat info {};
  if (fstat(fileno(file_), &info) == 0 && S_ISDIR(info.st_mode)) {
    why = std::strerror(EISDIR);
    return false;
  }
  return true;
}

simdbridge::result<size_t> file_source::read(uint8_t *into, size_t capacity) noexcept {
  const size_t n = std::fread(into, 1, capacity, file_);
  if (n == 0 && std::ferror(file_)) { return simdbridge::error{simdbridge::error_code::read_failed, offset_}; }
  offset_ += n;
  return n;
}

} // namespace simdbridge::cli
