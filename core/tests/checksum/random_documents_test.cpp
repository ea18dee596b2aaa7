// SPDX-License-Identifier: Apache-2.0
// Random documents and streams (escapes, surrogate pairs and lone surrogates, extreme numbers,
// deep nesting, duplicate keys), written and checksummed by the independent reference.
#include <gtest/gtest.h>

#include "simdbridge/parser.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

TEST(RandomDocuments, MatchTheReference) {
  const auto reference = read_reference(reference_path("reference_random.txt"));
  ASSERT_GE(reference.size(), 1000u);
  parser p;
  size_t checked = 0;
  for (const reference_line &line : reference) {
    const std::string text = from_hex(line.payload);
    const auto r = p.checksum(input::copy_of(text));
    ASSERT_TRUE(r.ok()) << describe(outcome_of(r)) << "\n" << text;
    ASSERT_EQ(hex64(r.value()), hex64(line.checksum)) << text;
    const outcome slow = slow_checksum(text);
    ASSERT_TRUE(slow.ok) << describe(slow) << "\n" << text;
    ASSERT_EQ(hex64(slow.checksum), hex64(line.checksum)) << text;
    ASSERT_TRUE(p.validate(input::copy_of(text)).ok()) << text;
    checked++;
  }
  EXPECT_EQ(checked, reference.size());
}

TEST(RandomStreams, MatchTheReferenceInBatchesOfAnySize) {
  // Small and odd batch sizes put batch boundaries everywhere: inside scalars at the root,
  // inside strings, just before large documents, where simdjson's parse_many needs watching.
  const auto reference = read_reference(reference_path("reference_random_streams.txt"));
  ASSERT_GE(reference.size(), 1000u);
  std::vector<parser> parsers;
  for (size_t batch : {32, 33, 47, 64, 100, 128, 255, 1000, 4096, 1 << 20}) {
    parsers.emplace_back(parser_options{SIMDBRIDGE_DEFAULT_MAX_DEPTH, batch});
  }
  for (const reference_line &line : reference) {
    const std::string text = from_hex(line.payload);
    for (parser &q : parsers) {
      const auto r = q.checksum_stream(input::copy_of(text));
      ASSERT_TRUE(r.ok()) << "batch " << q.options().stream_batch_size << ": "
                          << describe(outcome_of(r)) << "\n" << text;
      ASSERT_EQ(hex64(r.value()), hex64(line.checksum))
          << "batch " << q.options().stream_batch_size << "\n" << text;
    }
    const outcome slow = slow_checksum_stream(text);
    ASSERT_TRUE(slow.ok) << describe(slow);
    ASSERT_EQ(hex64(slow.checksum), hex64(line.checksum)) << text;
  }
}

} // namespace
} // namespace simdbridge::test
