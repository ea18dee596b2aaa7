// SPDX-License-Identifier: Apache-2.0
// The depth limit a caller chooses costs nothing until a document nests that deep: the buffers
// that hold a slot per level grow with the documents read. And documents deeper than the
// default still read on every entry point once the limit allows them.
#include <gtest/gtest.h>

#include <malloc.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "simdbridge/document.h"
#include "simdbridge/parser.h"
#include "simdbridge/stream.h"
#include "simdbridge/binding_tape.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

std::string nested(size_t depth) { return std::string(depth, '[') + "1" + std::string(depth, ']'); }

size_t heap_in_use() { return mallinfo2().uordblks; }

uint64_t tape_words(parser &p, const std::string &json, error &e) {
  std::vector<uint64_t> words(2 * json.size() + 64);
  std::vector<uint8_t> strings(json.size() + 64);
  binding_tape_buffer out{words.data(), words.size(), strings.data(), strings.size()};
  e = p.to_binding_tape(input::copy_of(json), out);
  return out.words_used;
}

// 2^31 levels took 2.2 GB a parser, allocated when it was made (one byte and more per level).
TEST(Depth, AHugeLimitAllocatesByTheDocumentNotByTheLimit) {
  const size_t before = heap_in_use();
  std::vector<std::unique_ptr<parser>> parsers;
  for (int i = 0; i < 20; i++) {
    parsers.push_back(std::make_unique<parser>(parser_options{0x7fffffffu}));
    parser &p = *parsers.back();
    ASSERT_TRUE(p.validate(input::copy_of("[1]")).ok());
    ASSERT_TRUE(p.checksum(input::copy_of("[1]")).ok());
    ASSERT_TRUE(p.checksum_stream(input::copy_of("[1]\n[2]")).ok());
    error e;
    tape_words(p, "[1]", e);
    ASSERT_TRUE(e.ok());
  }
  // 20 parsers for [1]: their DOM parsers and buffers, well under a megabyte each.
  EXPECT_LT(heap_in_use() - before, size_t(20) << 20);
}

TEST(Depth, DeepDocumentsReadOnEveryEntryPointUnderALargeLimit) {
  const std::string deep = nested(100000);
  parser p(parser_options{200000});
  EXPECT_TRUE(p.validate(input::copy_of(deep)).ok());
  const result<uint64_t> sum = p.checksum(input::copy_of(deep));
  ASSERT_TRUE(sum.ok());
  EXPECT_EQ(outcome_of(sum), outcome_of(parser(parser_options{100000}).checksum(input::copy_of(deep))));
  EXPECT_EQ(outcome_of(p.checksum_stream(input::copy_of(deep + "\n[2]"))).ok, true);
  error e;
  EXPECT_EQ(tape_words(p, deep, e), 2u * 100001u);
  EXPECT_TRUE(e.ok()) << describe(outcome{false, 0, e.code, e.offset});
  document doc;
  EXPECT_TRUE(p.parse(input::copy_of(deep), doc).ok());
  stream_reader reader(input::copy_of(deep + "\n" + deep), stream_format::whitespace, parser_options{200000});
  int documents = 0;
  for (result<bool> r = reader.next(); r.ok() && r.value(); r = reader.next()) { documents++; }
  EXPECT_EQ(documents, 2);
  // Still a limit: one level past it is refused, at the bracket that opens it.
  parser shallow(parser_options{99999});
  const error refused = shallow.validate(input::copy_of(deep));
  EXPECT_EQ(refused.code, error_code::depth_limit);
  EXPECT_EQ(refused.offset, 99999u);
}

// A parser that grew for a deep document goes on reading small ones, and within its limit.
TEST(Depth, TheLimitHoldsWhenBuffersGrowAndAfterTrim) {
  parser p(parser_options{3000});
  EXPECT_TRUE(p.validate(input::copy_of(nested(2999))).ok());
  EXPECT_EQ(p.validate(input::copy_of(nested(3001))).code, error_code::depth_limit);
  p.trim();
  EXPECT_EQ(p.validate(input::copy_of(nested(3001))).code, error_code::depth_limit);
  EXPECT_TRUE(p.validate(input::copy_of(nested(3000))).ok());
  parser two(parser_options{2});
  EXPECT_TRUE(two.validate(input::copy_of("[[1]]")).ok());
  EXPECT_EQ(two.validate(input::copy_of("[[[1]]]")).code, error_code::depth_limit);
  EXPECT_TRUE(two.checksum(input::copy_of("[[1]]")).ok());
  error e;
  tape_words(two, "[[[1]]]", e);
  EXPECT_EQ(e.code, error_code::depth_limit);
  // After trim, too: it once sized the DOM parser a level past a limit below the default, and
  // an empty innermost container (no scalar for simdjson to count) then passed.
  for (int round = 0; round < 2; round++) {
    EXPECT_EQ(two.validate(input::copy_of("[[[]]]")).code, error_code::depth_limit) << round;
    two.trim();
  }
}

} // namespace
} // namespace simdbridge::test
