// SPDX-License-Identifier: Apache-2.0
// Adversarial shapes (deep nesting, a million empty objects, a million one-character keys, long
// runs of escapes, huge exponents, long numbers): memory stays within a fixed factor of the
// input, the same as for ordinary documents, and time stays linear (doubling the input at most
// about doubles the time), on every entry point.
#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "simdbridge/document.h"
#include "simdbridge/parser.h"
#include "simdbridge/stream.h"
#include "simdbridge/binding_tape.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool sanitized = true; // its allocator keeps freed memory, and runs at its own speed
#else
constexpr bool sanitized = false;
#endif

struct shape {
  const char *name;
  std::function<std::string(size_t)> make; // a document of about n bytes
};

std::string repeat(const std::string &unit, size_t n) {
  std::string s;
  s.reserve(n + unit.size());
  while (s.size() + unit.size() <= n) { s += unit; }
  return s;
}

const std::vector<shape> &shapes() {
  static const std::vector<shape> all = {
      {"deep nesting", [](size_t n) { return std::string(n / 2, '[') + std::string(n / 2, ']'); }},
      {"empty objects", [](size_t n) { return "[" + repeat("{},", n) + "{}]"; }},
      {"one-character keys", [](size_t n) { return "{" + repeat("\"a\":0,", n) + "\"b\":1}"; }},
      {"escapes", [](size_t n) { return "[\"" + repeat("\\u00e9\\n\\\"", n) + "\"]"; }},
      {"huge exponents", [](size_t n) { return "[" + repeat("1e999999999,", n) + "0]"; }},
      {"long numbers", [](size_t n) { return "[" + repeat(std::string(900, '7') + ",", n) + "0]"; }},
      {"empty arrays", [](size_t n) { return "[" + repeat("[],", n) + "[]]"; }},
      {"ordinary records", [](size_t n) {
         return "[" + repeat(R"({"id":12345,"name":"abcdefgh","tags":["x","y"],"score":1.5},)", n) + "{}]";
       }},
  };
  return all;
}

/** Every entry point over one document, with a fresh parser each (what it keeps is counted). */
void read_everywhere(const std::string &json) {
  parser_options unlimited;
  unlimited.max_depth = 0x7fffffffu;
  parser p(unlimited);
  static_cast<void>(p.checksum(input::copy_of(json)));
  static_cast<void>(p.validate(input::copy_of(json)));
  static_cast<void>(p.checksum_stream(input::copy_of(json)));
  std::vector<uint64_t> words(json.size() + 64);
  std::vector<uint8_t> strings(json.size() + 64);
  binding_tape_buffer out{words.data(), words.size(), strings.data(), strings.size()};
  static_cast<void>(p.to_binding_tape(input::copy_of(json), out));
  document doc;
  static_cast<void>(p.parse(input::copy_of(json), doc));
}

size_t in_use() { return mallinfo2().uordblks + mallinfo2().hblkhd; }

/** Resident bytes of this process (pages touched and still mapped). */
size_t resident() {
  FILE *f = std::fopen("/proc/self/statm", "r");
  unsigned long pages = 0, rss = 0;
  if (f != nullptr) {
    if (std::fscanf(f, "%lu %lu", &pages, &rss) != 2) { rss = 0; }
    std::fclose(f);
  }
  return size_t(rss) * 4096;
}

/**
 * What a parser holds after reading a document with every entry point, per input byte. The
 * buffers are sized by the input's length, not by its shape (simdjson's tape has a word per
 * input byte, its structural index 4 bytes per byte in the DOM and On Demand parsers, its string
 * buffer 5/3 of a byte; a kept document has its own tape and strings): about 40 bytes a byte
 * allocated for every shape, ordinary records included. Of that, what is touched depends on the
 * shape: at most about 30 bytes a byte (a structural at every byte), 11 for ordinary records,
 * 2 to 3 for long strings and numbers.
 */
TEST(HostileShapes, MemoryStaysWithinAFixedFactorOfTheInput) {
  if (sanitized) { GTEST_SKIP() << "measured in the build without sanitizers"; }
  const size_t n = 8u << 20;
  for (const shape &s : shapes()) {
    const std::string json = s.make(n);
    const size_t before = in_use();
    const size_t rss_before = resident();
    parser_options unlimited;
    unlimited.max_depth = 0x7fffffffu;
    parser p(unlimited);
    document doc;
    ASSERT_TRUE(p.validate(input::copy_of(json)).ok()) << s.name;
    ASSERT_TRUE(p.checksum(input::copy_of(json)).ok()) << s.name;
    ASSERT_TRUE(p.checksum_stream(input::copy_of(json)).ok()) << s.name;
    const error parsed = p.parse(input::copy_of(json), doc);
    ASSERT_TRUE(parsed.ok() || parsed.code == error_code::unsupported_value) << s.name;
    const size_t held = in_use() - before;
    const size_t touched = resident() > rss_before ? resident() - rss_before : 0;
    EXPECT_LE(held, 42 * json.size() + (size_t(4) << 20)) << s.name << ": " << held / json.size() << " bytes a byte";
    EXPECT_LE(touched, 32 * json.size() + (size_t(16) << 20)) << s.name << ": " << touched / json.size() << " bytes a byte";
  }
}

/** Seconds of one run of f. */
double time_of(const std::function<void()> &f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(HostileShapes, TimeIsLinear) {
  if (sanitized) { GTEST_SKIP() << "measured in the build without sanitizers"; }
  for (const shape &s : shapes()) {
    const std::string one = s.make(2u << 20), four = s.make(8u << 20);
    // The best of five runs of each, taking turns, so that both see the machine alike.
    double t1 = 1e9, t4 = 1e9;
    for (int round = 0; round < 5; round++) {
      t1 = std::min(t1, time_of([&] { read_everywhere(one); }));
      t4 = std::min(t4, time_of([&] { read_everywhere(four); }));
    }
    // Four times the input: 4 when linear, 16 when quadratic. The bound between leaves room for
    // caches and for a machine whose speed drifts.
    EXPECT_LT(t4 / t1, 8.0) << s.name << ": " << t1 << " s, then " << t4 << " s for four times the input";
  }
}

/** The documents a stream_reader or block_reader gives before its end or an error. */
template <typename Reader> uint64_t documents_of(Reader &reader) {
  uint64_t n = 0;
  for (result<bool> more = reader.next(); more.ok() && more.value(); more = reader.next()) { n++; }
  return n;
}

/** Seconds per document of each stream entry point over `text`, the slowest of them. */
double slowest_per_document(const std::string &text, uint64_t documents) {
  double slowest = 0;
  const auto each = [&](const std::function<void()> &f) {
    double best = 1e9; // the best of three: a pause of the machine is not the code's
    for (int round = 0; round < 3; round++) { best = std::min(best, time_of(f)); }
    slowest = std::max(slowest, best / double(documents));
  };
  parser p;
  each([&] { EXPECT_TRUE(p.checksum_stream(input::copy_of(text)).ok()); });
  each([&] {
    const result<uint64_t> n = p.validate_stream(input::copy_of(text));
    EXPECT_TRUE(n.ok() && n.value() == documents);
  });
  for (const stream_format format : {stream_format::whitespace, stream_format::lines}) {
    each([&] {
      stream_reader reader(input::copy_of(text), format);
      EXPECT_EQ(documents_of(reader), documents);
    });
    each([&] {
      block_options options;
      options.format = format;
      options.threads = 2;
      block_reader reader(input::copy_of(text), options);
      EXPECT_EQ(documents_of(reader), documents);
    });
  }
  return slowest;
}

/**
 * A stream of many small documents at the root, numbers among them: simdjson 3.0.1's parse_many
 * copies the rest of its batch for each root number (see stream/parse_many_checks.h), tens of
 * microseconds a document over a batch of them. Each entry point must take well under that for
 * every shape, as for a stream of small records.
 */
TEST(HostileShapes, StreamsOfSmallScalarsTakeLinearTime) {
  if (sanitized) { GTEST_SKIP() << "measured in the build without sanitizers"; }
  struct unit {
    const char *name;
    std::string text;
    uint64_t documents; // in one text
  };
  const std::vector<unit> units = {
      {"root numbers", "7\n", 1},
      {"negative and fractional numbers", "-1.5e3\n", 1},
      {"records and numbers", "{\"a\":1}\n-2\n", 2},
      {"root strings", "\"ab\"\n", 1},
      {"root literals", "true\nnull\n", 2},
      {"small records", "{\"a\":1}\n", 1},
  };
  for (const unit &u : units) {
    const std::string text = repeat(u.text, 1u << 20); // one batch of the default size
    const double seconds = slowest_per_document(text, text.size() / u.text.size() * u.documents);
    EXPECT_LT(seconds, 4e-6) << u.name << ": " << seconds * 1e9 << " ns a document";
  }
}

} // namespace
} // namespace simdbridge::test
