// SPDX-License-Identifier: Apache-2.0
// The writer, as a round trip: a document parsed into the binding tape, written back with the
// core's writers (strings through write_json_string, from UTF-16 as the JVM hands them over,
// and compared with write_json_string_utf8's bytes for the same string;
// numbers through write_decimal_digits and shortest_decimal), parsed again: the checksum must
// be the original's. And the input's bytes as doubles: shortest_decimal's digits read back to
// the same double.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "simdbridge/parser.h"
#include "simdbridge/binding_tape.h"
#include "simdbridge/writer.h"

using namespace simdbridge;
using simdbridge::fuzz::outcome;

namespace {

/** UTF-8 (WTF-8: lone surrogates as 3 bytes, as the tape holds them) to UTF-16. */
std::u16string to_utf16(const uint8_t *s, size_t n) {
  std::u16string out;
  for (size_t i = 0; i < n;) {
    uint32_t c = s[i];
    size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (len > 1) { c &= len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07; }
    for (size_t k = 1; k < len; k++) { c = c << 6 | (s[i + k] & 0x3F); }
    i += len;
    if (c >= 0x10000) {
      out += char16_t(0xD800 + ((c - 0x10000) >> 10));
      out += char16_t(0xDC00 + ((c - 0x10000) & 0x3FF));
    } else {
      out += char16_t(c);
    }
  }
  return out;
}

/** Whether WTF-8 text holds a lone surrogate (ED A0 to ED BF: UTF-8 has none). */
bool has_surrogate(const uint8_t *s, size_t n) {
  for (size_t i = 0; i + 1 < n; i++) {
    if (s[i] == 0xED && s[i + 1] >= 0xA0) { return true; }
  }
  return false;
}

void write_string(std::string &out, const uint8_t *s, size_t n) {
  const std::u16string units = to_utf16(s, n);
  std::vector<uint8_t> buffer(json_string_capacity(units.size()));
  const size_t written = write_json_string(units.data(), units.size(), buffer.data());
  fuzz::expect(written <= buffer.size() - 8, "write_json_string wrote past its stated room");
  // The same string from its UTF-8 (the Arrow and MessagePack writers' route): the same bytes,
  // in its stated room, read from a block of exactly its size.
  if (!has_surrogate(s, n)) {
    const std::unique_ptr<uint8_t[]> text(new uint8_t[n]);
    std::memcpy(text.get(), s, n);
    std::vector<uint8_t> utf8(json_string_capacity_utf8(n));
    const size_t written_utf8 = write_json_string_utf8(text.get(), n, utf8.data());
    fuzz::expect(written_utf8 == written && std::memcmp(utf8.data(), buffer.data(), written) == 0,
                 "write_json_string_utf8 wrote other bytes than write_json_string");
  }
  out.append(reinterpret_cast<const char *>(buffer.data()), written);
}

void write_double(std::string &out, double d) {
  if (std::signbit(d)) { out += '-'; }
  const decimal dec = shortest_decimal(std::fabs(d));
  char digits[32];
  const size_t n = write_decimal_digits(dec.significand, digits);
  out.append(digits, n);
  out += 'e';
  out += std::to_string(dec.exponent);
}

/** The tape's entries from word w back to JSON text; returns the word after them. */
size_t write_value(std::string &out, const std::vector<uint64_t> &words, const std::vector<uint8_t> &strings,
                   const uint8_t *input, size_t w) {
  const auto kind = binding_tape_entry(words[w] >> 56);
  const uint64_t second = words[w + 1];
  switch (kind) {
  case binding_tape_entry::object:
  case binding_tape_entry::array: {
    const size_t end = size_t(second >> 32);
    out += kind == binding_tape_entry::object ? '{' : '[';
    size_t i = w + 2;
    for (bool first = true; i < end; first = false) {
      if (!first) { out += ','; }
      i = write_value(out, words, strings, input, i);
      if (kind == binding_tape_entry::object) {
        out += ':';
        i = write_value(out, words, strings, input, i);
      }
    }
    out += kind == binding_tape_entry::object ? '}' : ']';
    return end;
  }
  case binding_tape_entry::string: write_string(out, strings.data() + (second >> 32), size_t(second & 0xFFFFFFFF)); break;
  case binding_tape_entry::int64: out += std::to_string(int64_t(second)); break;
  case binding_tape_entry::uint64: {
    char digits[32];
    out.append(digits, write_decimal_digits(second, digits));
    break;
  }
  case binding_tape_entry::float64: {
    double d;
    std::memcpy(&d, &second, 8);
    write_double(out, d);
    break;
  }
  case binding_tape_entry::big_number: out.append(reinterpret_cast<const char *>(input) + (words[w] & binding_tape_offset_mask), size_t(second)); break;
  case binding_tape_entry::true_value: out += "true"; break;
  case binding_tape_entry::false_value: out += "false"; break;
  case binding_tape_entry::null_value: out += "null"; break;
  }
  return w + 2;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static parser p;
  // Doubles from the bytes: shortest digits, read back exactly.
  for (size_t i = 0; i + 8 <= size && i < 64; i += 8) {
    double d;
    std::memcpy(&d, data + i, 8);
    if (!std::isfinite(d)) { continue; }
    std::string text;
    write_double(text, d);
    const double back = std::strtod(text.c_str(), nullptr);
    fuzz::expect(std::memcmp(&back, &d, 8) == 0 || (d == 0 && back == 0), "shortest_decimal does not read back");
  }
  // The document, round trip through the tape and the writers.
  const input in = input::copy_of(data, size);
  std::vector<uint64_t> words(2 * size + 8);
  std::vector<uint8_t> strings(size + 32);
  binding_tape_buffer out{words.data(), words.size(), strings.data(), strings.size()};
  if (!p.to_binding_tape(in, out).ok()) { return 0; }
  std::string written;
  write_value(written, words, strings, data, 0);
  const outcome original = outcome::of(p.checksum(in));
  const outcome rewritten = outcome::of(p.checksum(input::copy_of(written)));
  if (!(original == rewritten)) { fuzz::fail("checksum of the document written again", rewritten, original); }
  return 0;
}
