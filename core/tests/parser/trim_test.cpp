// SPDX-License-Identifier: Apache-2.0
// parser::trim(): every entry point reads as before after it, on documents smaller and larger
// than the buffers it gave back; a kept document is dropped.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simdbridge/parser.h"
#include "simdbridge/simdbridge_c.h"
#include "simdbridge/binding_tape.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

/** A document of about `bytes` bytes: an array of objects with strings, numbers and nesting. */
std::string document(size_t bytes) {
  std::string json = "[";
  for (int i = 0; json.size() < bytes; i++) {
    json += (i ? "," : "");
    json += R"({"id":)" + std::to_string(i) + R"(,"name":"n\u00e9)" + std::to_string(i) +
            R"(","x":[1.5,-2,true,null],"o":{"k":"v"}})";
  }
  return json + "]";
}

struct answers {
  uint64_t checksum = 0, stream = 0, words = 0;
  std::vector<uint64_t> tape;

  bool operator==(const answers &o) const {
    return checksum == o.checksum && stream == o.stream && words == o.words && tape == o.tape;
  }
};

answers read_all_ways(parser &p, const std::string &json) {
  answers a;
  a.checksum = p.checksum(input::copy_of(json)).value();
  a.stream = p.checksum_stream(input::copy_of(json + "\n" + json)).value();
  EXPECT_TRUE(p.validate(input::copy_of(json)).ok());
  std::vector<uint64_t> words(json.size() + 64);
  std::vector<uint8_t> strings(json.size() + 64);
  binding_tape_buffer out{words.data(), words.size(), strings.data(), strings.size()};
  EXPECT_TRUE(p.to_binding_tape(input::copy_of(json), out).ok());
  a.words = out.words_used;
  a.tape.assign(words.begin(), words.begin() + ptrdiff_t(out.words_used));
  return a;
}

TEST(Trim, EveryEntryPointReadsAsBeforeAfterIt) {
  const std::string small = document(200), large = document(3 << 20);
  parser fresh;
  const answers small_expected = read_all_ways(fresh, small), large_expected = read_all_ways(fresh, large);
  parser p;
  for (int round = 0; round < 3; round++) {
    EXPECT_TRUE(read_all_ways(p, large) == large_expected) << round;
    p.trim();
    EXPECT_TRUE(read_all_ways(p, small) == small_expected) << round;
    p.trim();
    p.trim(); // twice in a row
    EXPECT_TRUE(read_all_ways(p, large) == large_expected) << round;
  }
  // Errors keep their offsets after it.
  p.trim();
  error e = p.validate(input::copy_of(R"({"a": [1, 2,, 3]})"));
  EXPECT_EQ(e.code, error_code::expected_value);
  EXPECT_EQ(e.offset, 12u);
}

TEST(Trim, AKeptDocumentIsDropped) {
  parser p;
  ASSERT_TRUE(p.document_parse(input::copy_of(R"({"id":7})")).ok());
  uint8_t out[16];
  bool present = false;
  size_t size = 0;
  ASSERT_TRUE(p.document_field("/id", column_type::int64, out, sizeof out, present, size).ok());
  p.trim();
  EXPECT_FALSE(p.document_field("/id", column_type::int64, out, sizeof out, present, size).ok());
  ASSERT_TRUE(p.document_parse(input::copy_of(document(1 << 20))).ok());
  ASSERT_TRUE(p.document_field("/0/id", column_type::int64, out, sizeof out, present, size).ok());
  EXPECT_TRUE(present);
}

TEST(Trim, TheCApiTrimsAndTakesNull) {
  simdbridge_parser *p = simdbridge_parser_new(0);
  ASSERT_NE(p, nullptr);
  const std::string json = document(1 << 20);
  const simdbridge_result before = simdbridge_checksum(p, reinterpret_cast<const uint8_t *>(json.data()), json.size(), json.size());
  simdbridge_parser_trim(p);
  const simdbridge_result after = simdbridge_checksum(p, reinterpret_cast<const uint8_t *>(json.data()), json.size(), json.size());
  EXPECT_EQ(before.error, 0);
  EXPECT_EQ(before.value, after.value);
  simdbridge_parser_trim(nullptr);
  simdbridge_parser_free(p);
}

} // namespace
} // namespace simdbridge::test
