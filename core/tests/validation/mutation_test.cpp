// SPDX-License-Identifier: Apache-2.0
// Damaged input: every corpus file truncated at many offsets, and copies with bytes flipped,
// deleted, inserted or swapped. Nothing may crash; a truncated document must be refused with
// an offset; and the fast paths must agree with the scalar parser on every damaged copy, which
// is what shows that the On Demand walk validates as fully as the scalar parser does.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "simdbridge/parser.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

/** The first `max_bytes` of a stream, cut at a line end. */
std::string stream_head(const std::string &text, size_t max_bytes) {
  if (text.size() <= max_bytes) { return text; }
  return text.substr(0, text.rfind('\n', max_bytes) + 1);
}

void check_document(parser &p, const std::string &text, const std::string &label) {
  const outcome fast = outcome_of(p.checksum(input::copy_of(text)));
  const outcome slow = slow_checksum(text);
  ASSERT_EQ(fast, slow) << label << ": engine " << describe(fast) << ", scalar " << describe(slow);
  const error v = p.validate(input::copy_of(text));
  ASSERT_EQ(v.ok(), slow.ok) << label;
  if (!slow.ok) {
    ASSERT_EQ(v.code, slow.code) << label;
    ASSERT_EQ(v.offset, slow.offset) << label;
    ASSERT_LE(slow.offset, text.size()) << label;
  }
}

void check_stream(parser &p, const std::string &text, const std::string &label) {
  const outcome fast = outcome_of(p.checksum_stream(input::copy_of(text)));
  const outcome slow = slow_checksum_stream(text);
  ASSERT_EQ(fast, slow) << label << ": engine " << describe(fast) << ", scalar " << describe(slow);
  const auto v = p.validate_stream(input::copy_of(text));
  ASSERT_EQ(v.ok(), slow.ok) << label;
}

TEST(Truncation, EveryProperPrefixOfACorpusDocumentIsRefused) {
  parser p;
  for (const std::string &path : list_files(data_directory() + "/jsonexamples", ".json")) {
    const std::string text = read_file(path);
    const size_t end = text.find_last_not_of(" \t\r\n") + 1; // a prefix past this is valid
    for (size_t k = 0; k < 200; k++) {
      const size_t cut = k < 100 ? end * k / 100 : end - (k - 99); // spread, then the last bytes
      if (cut >= end) { continue; }
      const std::string prefix = text.substr(0, cut);
      const outcome o = outcome_of(p.checksum(input::copy_of(prefix)));
      ASSERT_FALSE(o.ok) << base_name(path) << " cut at " << cut;
      ASSERT_LE(o.offset, prefix.size()) << base_name(path) << " cut at " << cut;
      if (k % 10 == 0) { check_document(p, prefix, base_name(path) + " cut at " + std::to_string(cut)); }
    }
  }
}

TEST(Truncation, EveryStreamCutMidDocumentIsRefused) {
  parser p;
  for (const std::string &path : list_files(data_directory() + "/ndjson", ".ndjson")) {
    const std::string text = stream_head(read_file(path), 1 << 20);
    for (size_t k = 1; k < 100; k++) {
      size_t cut = text.size() * k / 100;
      if (text[cut - 1] == '\n' || text[cut - 1] == '}') { cut -= 2; } // keep it mid-document
      const std::string prefix = text.substr(0, cut);
      const outcome o = outcome_of(p.checksum_stream(input::copy_of(prefix)));
      ASSERT_FALSE(o.ok) << base_name(path) << " cut at " << cut;
      ASSERT_LE(o.offset, prefix.size());
      check_stream(p, prefix, base_name(path) + " cut at " + std::to_string(cut));
    }
  }
}

TEST(Mutation, DamagedCorpusDocumentsAgreeWithTheScalarParser) {
  parser p;
  std::mt19937_64 rng(20261129);
  for (const std::string &path : list_files(data_directory() + "/jsonexamples", ".json")) {
    const std::string text = read_file(path);
    const int copies = text.size() > (1 << 20) ? 40 : 300;
    for (int i = 0; i < copies; i++) {
      check_document(p, mutate(text, rng), base_name(path) + " mutation " + std::to_string(i));
    }
  }
}

TEST(Mutation, DamagedSmallDocumentsAgreeWithTheScalarParser) {
  // Small documents make every byte count: the minefield's y_ files and the reference's
  // random documents, each damaged many times.
  parser p;
  std::mt19937_64 rng(7);
  std::vector<std::string> seeds;
  for (const std::string &path : list_files(data_directory() + "/jsonchecker/minefield", ".json")) {
    seeds.push_back(read_file(path));
  }
  for (const reference_line &line : read_reference(reference_path("reference_random.txt"))) {
    if (line.payload.size() < 4000) { seeds.push_back(from_hex(line.payload)); }
  }
  size_t checked = 0;
  for (const std::string &seed : seeds) {
    for (int i = 0; i < 40; i++) {
      std::string damaged = mutate(seed, rng);
      check_document(p, damaged, "damaged: " + damaged);
      checked++;
    }
  }
  EXPECT_GT(checked, 100000u);
}

TEST(Mutation, DamagedStreamsAgreeWithTheScalarParser) {
  parser p;
  parser small_batches(parser_options{SIMDBRIDGE_DEFAULT_MAX_DEPTH, 256});
  std::mt19937_64 rng(42);
  for (const std::string &path : list_files(data_directory() + "/ndjson", ".ndjson")) {
    const std::string text = stream_head(read_file(path), 64 << 10);
    for (int i = 0; i < 300; i++) {
      const std::string damaged = mutate(text, rng);
      check_stream(p, damaged, base_name(path) + " mutation " + std::to_string(i));
      check_stream(small_batches, damaged, base_name(path) + " small batches, mutation " + std::to_string(i));
    }
  }
}

TEST(Mutation, PaddingContentNeverLeaksIntoTheResult) {
  // The same bytes, parsed in place with different padding, give the same answer.
  std::mt19937_64 rng(3);
  parser p;
  const std::string text = read_file(data_directory() + "/jsonexamples/twitter.json");
  for (int i = 0; i < 200; i++) {
    const std::string damaged = mutate(text.substr(0, 2000 + rng() % 2000), rng);
    const outcome expected = outcome_of(p.checksum(input::copy_of(damaged)));
    for (char fill : {'\0', '"', '1', ']', '\\'}) {
      padded_copy copy(damaged, fill);
      ASSERT_EQ(outcome_of(p.checksum(copy.in())), expected) << "fill " << int(fill);
      ASSERT_EQ(outcome_of(p.checksum_stream(copy.in())),
                outcome_of(p.checksum_stream(input::copy_of(damaged))));
    }
  }
}

} // namespace
} // namespace simdbridge::test
