// SPDX-License-Identifier: Apache-2.0
// Every error code, with the byte offset worked out by hand for each input.
#include <gtest/gtest.h>

#include <string>

#include "simdbridge/parser.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

struct error_case {
  std::string text;
  error_code code;
  uint64_t offset;
};

const error_case cases[] = {
    {"", error_code::empty_input, 0},
    {" \n\t\r ", error_code::empty_input, 5},
    {"[1,2", error_code::unexpected_end, 4},
    {"{\"a\":", error_code::unexpected_end, 5},
    {"{\"a\"", error_code::unexpected_end, 4},
    {"\"abc", error_code::unexpected_end, 4},
    {"\"ab\\", error_code::unexpected_end, 4},
    {"\"\\u12", error_code::unexpected_end, 5},
    {"tru", error_code::unexpected_end, 3},
    {"-", error_code::unexpected_end, 1},
    {"[1.", error_code::unexpected_end, 3},
    {"[1e+", error_code::unexpected_end, 4},
    {"[\"\xE2\x82", error_code::unexpected_end, 4},
    {"[1,]", error_code::expected_value, 3},
    {"[,1]", error_code::expected_value, 1},
    {"]", error_code::expected_value, 0},
    {"{\"a\":}", error_code::expected_value, 5},
    {"[\xFF]", error_code::expected_value, 1},
    {"{1:2}", error_code::expected_key, 1},
    {"{\"a\":1,}", error_code::expected_key, 7},
    {"{\"a\" 1}", error_code::expected_colon, 5},
    {"{\"a\":1 \"b\":2}", error_code::expected_comma_or_brace, 7},
    {"{\"a\":1]", error_code::expected_comma_or_brace, 6},
    {"[1 2]", error_code::expected_comma_or_bracket, 3},
    {"[1}", error_code::expected_comma_or_bracket, 2},
    {"[1x]", error_code::expected_comma_or_bracket, 2},
    {"[1]]", error_code::trailing_content, 3},
    {"{} {}", error_code::trailing_content, 3},
    {"1 2", error_code::trailing_content, 2},
    {"[01]", error_code::invalid_number, 2},
    {"[-x]", error_code::invalid_number, 2},
    {"[1.e5]", error_code::invalid_number, 3},
    {"[1e]", error_code::invalid_number, 3},
    {"[.5]", error_code::expected_value, 1},
    {"[+1]", error_code::expected_value, 1},
    {"[tru]", error_code::invalid_literal, 1},
    {"[nulL]", error_code::invalid_literal, 1},
    {"[\"a\\x\"]", error_code::invalid_escape, 3},
    {"[\"a\\u12G4\"]", error_code::invalid_unicode_escape, 3},
    {"[\"a\tb\"]", error_code::control_character, 3},
    {std::string("[\"a\0b\"]", 7), error_code::control_character, 3},
    {"[\"a\xC0\xAF\"]", error_code::invalid_utf8, 3},
    {"[\"\xED\xA0\x80\"]", error_code::invalid_utf8, 2},
    {"[\"\xF4\x90\x80\x80\"]", error_code::invalid_utf8, 2},
    {"[\"ok\xE2\x82\x28\"]", error_code::invalid_utf8, 4},
    {"\xEF\xBB\xBF{}", error_code::byte_order_mark, 0},
    {"\xFF\xFE[\0]\0", error_code::wrong_encoding, 0},
    {std::string("[\0\"\0", 4), error_code::wrong_encoding, 0},
    {std::string("\0[\0\"", 4), error_code::wrong_encoding, 0},
};

TEST(ErrorOffsets, EachErrorHasItsCodeAndOffset) {
  parser p;
  for (const error_case &c : cases) {
    const outcome o = outcome_of(p.checksum(input::copy_of(c.text)));
    EXPECT_FALSE(o.ok) << '"' << c.text << "\" was accepted";
    EXPECT_EQ(error_name(o.code), std::string(error_name(c.code))) << '"' << c.text << '"';
    EXPECT_EQ(o.offset, c.offset) << '"' << c.text << '"';
    const error v = p.validate(input::copy_of(c.text));
    EXPECT_EQ(v.code, o.code) << '"' << c.text << '"';
    EXPECT_EQ(v.offset, o.offset) << '"' << c.text << '"';
  }
}

TEST(ErrorOffsets, EveryCodeHasANameAndAMessage) {
  for (int32_t code = 0; code <= SIMDBRIDGE_MSGPACK_UNSUPPORTED; code++) {
    EXPECT_STRNE(error_name(error_code(code)), "unknown") << code;
    EXPECT_STRNE(error_message(error_code(code)), "unknown error") << code;
  }
  EXPECT_STREQ(error_name(error_code(999)), "unknown");
  EXPECT_STREQ(error_message(error_code(-1)), "unknown error");
}

TEST(Depth, TheLimitIsExactInBothPaths) {
  for (uint32_t limit : {1u, 5u, 64u, 1024u}) {
    parser p(parser_options{limit});
    for (const char *open_close : {"[]", "{}"}) {
      auto nested = [&](uint32_t depth) {
        std::string s;
        for (uint32_t i = 0; i < depth; i++) { s += open_close[0] == '[' ? "[" : "{\"k\":"; }
        s += "1";
        for (uint32_t i = 0; i < depth; i++) { s += open_close[1]; }
        return s;
      };
      const std::string at_limit = nested(limit);
      EXPECT_TRUE(p.checksum(input::copy_of(at_limit)).ok()) << limit << open_close;
      EXPECT_TRUE(p.validate(input::copy_of(at_limit)).ok()) << limit << open_close;
      EXPECT_TRUE(slow_checksum(at_limit, limit).ok) << limit << open_close;
      const std::string past = nested(limit + 1);
      const size_t offset = open_close[0] == '[' ? limit : limit * 5;
      const outcome o = outcome_of(p.checksum(input::copy_of(past)));
      EXPECT_EQ(describe(o), "depth_limit at byte " + std::to_string(offset)) << limit << open_close;
      const error v = p.validate(input::copy_of(past));
      EXPECT_EQ(v.code, error_code::depth_limit) << limit << open_close;
      EXPECT_EQ(v.offset, offset) << limit << open_close;
    }
  }
}

TEST(Depth, AMillionOpenBracketsNeverOverflowTheStack) {
  parser p;
  const std::string deep(1000000, '[');
  EXPECT_EQ(describe(outcome_of(p.checksum(input::copy_of(deep)))), "depth_limit at byte 1024");
  EXPECT_EQ(describe(outcome_of(p.checksum_stream(input::copy_of(deep)))), "depth_limit at byte 1024");
  std::string closed = deep + std::string(1000000, ']');
  EXPECT_EQ(describe(outcome_of(p.checksum(input::copy_of(closed)))), "depth_limit at byte 1024");
  parser unlimited(parser_options{2000000});
  const auto r = unlimited.checksum(input::copy_of(closed));
  EXPECT_TRUE(r.ok()) << describe(outcome_of(r));
}

TEST(HugeInput, LongStringsAndNumbersAndManyValues) {
  parser p;
  const std::string long_string = "[\"" + std::string(50u << 20, 'x') + "\"]";
  ASSERT_TRUE(p.checksum(input::copy_of(long_string)).ok());
  const std::string long_number = "[1" + std::string(1u << 20, '0') + "]"; // 10^(2^20): +infinity
  EXPECT_EQ(describe(outcome_of(p.checksum(input::copy_of(long_number)))), "number_too_long at byte 1");
  parser_options no_number_limit;
  no_number_limit.max_number_length = 0;
  parser unlimited(no_number_limit);
  const auto big = unlimited.checksum(input::copy_of(long_number));
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big.value(), p.checksum(input::copy_of("[1e400]")).value());
  const std::string long_fraction = "[0." + std::string(1u << 20, '0') + "1]"; // 10^-(2^20+1): 0
  const auto tiny = p.checksum(input::copy_of(long_fraction));
  ASSERT_TRUE(tiny.ok());
  EXPECT_EQ(tiny.value(), p.checksum(input::copy_of("[0.0]")).value());
  std::string many = "[";
  for (int i = 0; i < 2000000; i++) { many += "1,"; }
  many += "1]";
  EXPECT_TRUE(p.checksum(input::copy_of(many)).ok());
  many.pop_back();
  EXPECT_EQ(describe(outcome_of(p.checksum(input::copy_of(many)))),
            "unexpected_end at byte " + std::to_string(many.size()));
}

} // namespace
} // namespace simdbridge::test
