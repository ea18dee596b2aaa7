// SPDX-License-Identifier: Apache-2.0
// Every corpus file's checksum, against tests/reference/checksum_reference.py (Python's json
// module, no simdjson), which ctest runs first (fixture reference_corpus).
#include <gtest/gtest.h>

#include "simdbridge/parser.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

bool is_stream(const std::string &path) {
  return path.size() > 7 && path.compare(path.size() - 7, 7, ".ndjson") == 0;
}

TEST(Corpus, EveryFileMatchesTheReference) {
  const auto reference = read_reference(reference_path("reference_corpus.txt"));
  ASSERT_GE(reference.size(), 24u + 95u) << "the corpus and the minefield's y_ files";
  parser p;
  for (const reference_line &line : reference) {
    const std::string text = read_file(data_directory() + "/" + line.payload);
    padded_copy copy(text);
    const auto in_place = is_stream(line.payload) ? p.checksum_stream(copy.in()) : p.checksum(copy.in());
    const auto copied = is_stream(line.payload) ? p.checksum_stream(input::copy_of(text))
                                                : p.checksum(input::copy_of(text));
    ASSERT_TRUE(in_place.ok()) << line.payload << ": " << describe(outcome_of(in_place));
    EXPECT_EQ(hex64(in_place.value()), hex64(line.checksum)) << line.payload;
    EXPECT_EQ(outcome_of(copied), outcome_of(in_place)) << line.payload;
  }
}

TEST(Corpus, TheScalarParserAgreesOnEveryFile) {
  const auto reference = read_reference(reference_path("reference_corpus.txt"));
  for (const reference_line &line : reference) {
    const std::string text = read_file(data_directory() + "/" + line.payload);
    const outcome slow = is_stream(line.payload) ? slow_checksum_stream(text) : slow_checksum(text);
    ASSERT_TRUE(slow.ok) << line.payload << ": " << describe(slow);
    EXPECT_EQ(hex64(slow.checksum), hex64(line.checksum)) << line.payload;
  }
}

TEST(Corpus, StreamsGiveTheSameChecksumInBatchesOfAnySize) {
  for (const std::string &path : list_files(data_directory() + "/ndjson", ".ndjson")) {
    const std::string text = read_file(path);
    parser whole;
    const auto expected = whole.checksum_stream(input::copy_of(text));
    ASSERT_TRUE(expected.ok());
    for (size_t batch : {size_t(32), size_t(1000), size_t(65536)}) {
      parser p(parser_options{SIMDBRIDGE_DEFAULT_MAX_DEPTH, batch});
      const auto r = p.checksum_stream(input::copy_of(text));
      ASSERT_TRUE(r.ok()) << base_name(path) << " batch " << batch << ": " << describe(outcome_of(r));
      EXPECT_EQ(r.value(), expected.value()) << base_name(path) << " batch " << batch;
    }
  }
}

} // namespace
} // namespace simdbridge::test
