// SPDX-License-Identifier: Apache-2.0
// The test vectors of docs/checksum.md, through every way into the engine.
#include <gtest/gtest.h>

#include "simdbridge/parser.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

// Read from docs/checksum.md, the contract, not from the engine.
const std::vector<spec_vector> spec_vectors = read_spec_vectors();

class SpecVector : public ::testing::TestWithParam<spec_vector> {};

TEST_P(SpecVector, CopiedInput) {
  parser p;
  const auto r = p.checksum(input::copy_of(GetParam().json));
  ASSERT_TRUE(r.ok()) << describe(outcome_of(r));
  EXPECT_EQ(hex64(r.value()), GetParam().checksum);
}

TEST_P(SpecVector, PaddedInputParsedInPlaceWhateverThePaddingHolds) {
  parser p;
  for (char fill : {'\0', '1', '"', ']', ' ', '\\', 'e'}) {
    padded_copy copy(GetParam().json, fill);
    ASSERT_TRUE(copy.in().parsed_in_place());
    const auto r = p.checksum(copy.in());
    ASSERT_TRUE(r.ok()) << "fill " << int(fill) << ": " << describe(outcome_of(r));
    EXPECT_EQ(hex64(r.value()), GetParam().checksum) << "fill " << int(fill);
  }
}

TEST_P(SpecVector, ScalarParserAgrees) {
  const outcome slow = slow_checksum(GetParam().json);
  ASSERT_TRUE(slow.ok) << describe(slow);
  EXPECT_EQ(hex64(slow.checksum), GetParam().checksum);
}

TEST_P(SpecVector, SurroundingWhiteSpaceChangesNothing) {
  parser p;
  const auto r = p.checksum(input::copy_of(std::string(" \t\r\n") + GetParam().json + "\n \t"));
  ASSERT_TRUE(r.ok()) << describe(outcome_of(r));
  EXPECT_EQ(hex64(r.value()), GetParam().checksum);
}

TEST_P(SpecVector, ValidatesAndIsAOneDocumentStreamOnlyWithTheEndTag) {
  parser p;
  EXPECT_TRUE(p.validate(input::copy_of(GetParam().json)).ok());
  const auto stream = p.checksum_stream(input::copy_of(GetParam().json));
  ASSERT_TRUE(stream.ok()) << describe(outcome_of(stream));
  EXPECT_NE(hex64(stream.value()), GetParam().checksum); // tag 12 was folded after it
}

INSTANTIATE_TEST_SUITE_P(Contract, SpecVector, ::testing::ValuesIn(spec_vectors),
                         [](const ::testing::TestParamInfo<spec_vector> &info) {
                           return "vector" + std::to_string(info.index);
                         });

TEST(StreamVector, ThreeDocumentsAndABlankLine) {
  spec_vector stream;
  read_spec_vectors(&stream);
  ASSERT_EQ(stream.json, "{}\n[1]\n\n\"x\"\n");
  parser p;
  const auto r = p.checksum_stream(input::copy_of(stream.json));
  ASSERT_TRUE(r.ok()) << describe(outcome_of(r));
  EXPECT_EQ(hex64(r.value()), stream.checksum);
  EXPECT_EQ(hex64(slow_checksum_stream(stream.json).checksum), stream.checksum);
}

TEST(StreamVector, CarriageReturnsAndTabsAreWhiteSpaceToo) {
  spec_vector stream;
  read_spec_vectors(&stream);
  parser p;
  const auto r = p.checksum_stream(input::copy_of("\r\n{}\r\n\t[1]\r\n\r\n\"x\"\r\n"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(hex64(r.value()), stream.checksum);
}

TEST(StreamVector, AStreamWithoutDocumentsIsTheSeed) {
  parser p;
  for (const char *text : {"", " ", "\n\n\r\n\t "}) {
    const auto r = p.checksum_stream(input::copy_of(text));
    ASSERT_TRUE(r.ok()) << '"' << text << '"';
    EXPECT_EQ(hex64(r.value()), "cbf29ce484222325");
    EXPECT_EQ(p.validate_stream(input::copy_of(text)).value(), 0u);
  }
}

TEST(Input, SaysWhetherItIsParsedInPlace) {
  std::vector<uint8_t> buffer(10 + padding);
  EXPECT_TRUE(input::padded(buffer.data(), 10, buffer.size()).parsed_in_place());
  EXPECT_FALSE(input::padded(buffer.data(), 10, buffer.size() - 1).parsed_in_place());
  EXPECT_FALSE(input::copy_of(buffer.data(), 10).parsed_in_place());
  EXPECT_FALSE(input::padded(buffer.data(), 10, 5).well_formed());
  EXPECT_FALSE(input::padded(nullptr, 1, 100).well_formed());
  EXPECT_TRUE(input::padded(nullptr, 0, 0).well_formed());
}

TEST(Input, ABufferMayBeReusedAndShrinkBetweenCalls) {
  parser p;
  ASSERT_TRUE(p.checksum(input::copy_of(std::string(100000, ' ') + "[1]")).ok());
  const auto r = p.checksum(input::copy_of("{}"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(hex64(r.value()), "ad319677479e1db6");
}

} // namespace
} // namespace simdbridge::test

namespace simdbridge::test {
namespace {

TEST(Input, ANumberAtTheEndNeverReadsPastThePadding) {
  // simdjson scans a number until a byte that cannot continue it; a padding of digits would
  // let it run past the buffer (AddressSanitizer shows it). The parser copies such inputs.
  parser p;
  padded_copy truncated("[1,2,3", '7');
  EXPECT_EQ(describe(outcome_of(p.checksum(truncated.in()))), "unexpected_end at byte 6");
  EXPECT_EQ(describe(outcome_of(p.checksum_stream(truncated.in()))), "unexpected_end at byte 6");
  EXPECT_EQ(p.validate(truncated.in()).code, error_code::unexpected_end);
  padded_copy complete("[1,2,3]", '7');
  EXPECT_EQ(hex64(p.checksum(complete.in()).value()),
            hex64(p.checksum(input::copy_of("[1,2,3]")).value()));
  padded_copy root("123", 'e');
  EXPECT_EQ(hex64(p.checksum(root.in()).value()), hex64(p.checksum(input::copy_of("123")).value()));
}

} // namespace
} // namespace simdbridge::test
