// SPDX-License-Identifier: Apache-2.0
// Streams: where documents begin and end, errors in any batch with their exact offset, and the
// documents simdjson refuses in the middle of a stream.
#include <gtest/gtest.h>

#include <cstring>
#include <iterator>
#include <optional>
#include <random>
#include <string>

#include "simdbridge/parser.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

/** n NDJSON lines, each {"id":i,"name":"abcdefgh"}. */
std::string lines(size_t n) {
  std::string out;
  for (size_t i = 0; i < n; i++) { out += "{\"id\":" + std::to_string(i) + ",\"name\":\"abcdefgh\"}\n"; }
  return out;
}

size_t line_start(const std::string &text, size_t line) {
  size_t pos = 0;
  for (size_t i = 0; i < line; i++) { pos = text.find('\n', pos) + 1; }
  return pos;
}

outcome stream_outcome(const std::string &text, size_t batch = size_t(1) << 20) {
  parser p(parser_options{SIMDBRIDGE_DEFAULT_MAX_DEPTH, batch});
  return outcome_of(p.checksum_stream(input::copy_of(text)));
}

TEST(Stream, DocumentsMayTouchWhereTheyCannotBeConfused) {
  for (const char *text : {"{}{}", "[1]2", "\"a\"\"b\"", "\"a\"1", "1[2]", "[]{}[]", "1 2 3"}) {
    const outcome fast = stream_outcome(text);
    EXPECT_TRUE(fast.ok) << text << ": " << describe(fast);
    EXPECT_EQ(fast, slow_checksum_stream(text)) << text;
  }
  parser p;
  EXPECT_EQ(p.validate_stream(input::copy_of("{}{} [1]2")).value(), 4u);
  EXPECT_EQ(p.validate_stream(input::copy_of("1 2 3")).value(), 3u);
}

TEST(Stream, NumbersAndLiteralsMustNotRunIntoTheNextDocument) {
  const struct {
    const char *text;
    error_code code;
    uint64_t offset;
  } cases[] = {
      {"truefalse", error_code::invalid_literal, 4},
      {"1x", error_code::invalid_number, 1},
      {"1\"a\"", error_code::invalid_number, 1},
      {"null1", error_code::invalid_literal, 4},
      {"[1]\n12a", error_code::invalid_number, 6},
  };
  for (const auto &c : cases) {
    const outcome o = stream_outcome(c.text);
    EXPECT_FALSE(o.ok) << c.text;
    EXPECT_EQ(error_name(o.code), std::string(error_name(c.code))) << c.text;
    EXPECT_EQ(o.offset, c.offset) << c.text;
  }
}

TEST(Stream, AnErrorInAnyBatchIsReportedAtItsExactOffset) {
  const std::string base = lines(20000);
  for (size_t batch : {size_t(64), size_t(4096), size_t(65536), size_t(1) << 20}) {
    for (size_t broken_line : {size_t(0), size_t(1), size_t(777), size_t(15555), size_t(19999)}) {
      const size_t start = line_start(base, broken_line);
      // Invalid UTF-8 in a string: simdjson's first stage reports it at the batch's start.
      std::string text = base;
      text[start + 20] = char(0xFF);
      outcome o = stream_outcome(text, batch);
      EXPECT_EQ(describe(o), "invalid_utf8 at byte " + std::to_string(start + 20))
          << "batch " << batch << " line " << broken_line;
      // A missing comma: a second-stage error.
      text = base;
      text[text.find(',', start)] = ' ';
      o = stream_outcome(text, batch);
      EXPECT_EQ(describe(o), "expected_comma_or_brace at byte " +
                                 std::to_string(text.find("\"name", start)))
          << "batch " << batch << " line " << broken_line;
      // An unclosed string swallows the rest of the stream.
      text = base;
      text[start + 12] = '\\';
      o = stream_outcome(text, batch);
      EXPECT_FALSE(o.ok) << "batch " << batch << " line " << broken_line;
      EXPECT_EQ(o, slow_checksum_stream(text)) << "batch " << batch << " line " << broken_line;
    }
  }
}

TEST(Stream, DocumentsSimdjsonRefusesAreReadOnTheSlowPathMidStream) {
  const std::string base = lines(5000);
  std::string text = base;
  text.insert(line_start(base, 2500), "[18446744073709551616, 1e400, \"\\ud800\"]\n");
  const outcome expected = slow_checksum_stream(text);
  ASSERT_TRUE(expected.ok) << describe(expected);
  for (size_t batch : {size_t(64), size_t(4096), size_t(1) << 20}) {
    EXPECT_EQ(stream_outcome(text, batch), expected) << "batch " << batch;
  }
  parser p;
  EXPECT_EQ(p.validate_stream(input::copy_of(text)).value(), 5001u);
}

TEST(Stream, ADocumentLargerThanABatchIsStillRead) {
  std::string big = "[";
  for (int i = 0; i < 100000; i++) { big += std::to_string(i) + ","; }
  big += "0]";
  const std::string text = "[1]\n" + big + "\n" + big + "\n{\"a\":2}\n";
  const outcome expected = slow_checksum_stream(text);
  ASSERT_TRUE(expected.ok);
  for (size_t batch : {size_t(32), size_t(4096), size_t(65536)}) {
    EXPECT_EQ(stream_outcome(text, batch), expected) << "batch " << batch;
  }
}

TEST(Stream, ATruncatedLastDocumentIsAnErrorNotADroppedDocument) {
  const std::string text = lines(100) + "{\"id\":100,\"na";
  const outcome o = stream_outcome(text);
  EXPECT_EQ(describe(o), "unexpected_end at byte " + std::to_string(text.size()));
  EXPECT_EQ(describe(stream_outcome(text, 64)), describe(o));
  EXPECT_EQ(describe(stream_outcome("[1]\n[")), "unexpected_end at byte 5");
  EXPECT_EQ(describe(stream_outcome("[1] \"abc")), "unexpected_end at byte 8");
}

TEST(Stream, AByteOrderMarkOrUtf16IsNamed) {
  EXPECT_EQ(describe(stream_outcome("\xEF\xBB\xBF{}\n{}")), "byte_order_mark at byte 0");
  EXPECT_EQ(describe(stream_outcome(std::string("{\0}\0", 4))), "wrong_encoding at byte 0");
  EXPECT_EQ(describe(stream_outcome("{} \xEF\xBB\xBF{}")), "expected_value at byte 3");
}

TEST(Stream, ErrorsAfterValidDocumentsPointIntoTheWholeInput) {
  EXPECT_EQ(describe(stream_outcome("{}\n[1,]\n")), "expected_value at byte 6");
  EXPECT_EQ(describe(stream_outcome("{}\n]\n")), "expected_value at byte 3");
  EXPECT_EQ(describe(stream_outcome("{} , {}")), "expected_value at byte 3");
}

/** A random stream of small documents, sometimes touching, sometimes damaged. */
std::string random_stream(std::mt19937_64 &rng) {
  static const char *const documents[] = {
      "1", "12", "-3.5e2", "0", "true", "null", "false", "\"x\"", "\"\"", "[1]", "{}", "[]", "{\"a\":[1,2]}", "[[]]",
      "123456789",
      // Scalars longer than the smallest batches, which parse_many may cut.
      "0.000000000000000000000000000000000000000000000000000000000000000000000000000001",
      "\"abcdefghijklmnopqrstuvwxyz abcdefghijklmnopqrstuvwxyz \\n\\u00e9 abcdefghijklmnopqrstuvwxyz\"",
      "-12345678901234567890123456789012345678901234567890e-5"};
  static const char *const separators[] = {"", "", " ", "\n", "\r\n", "\t", "\n\n"};
  static const char *const junk[] = {"x", "\"", "]", "}", ",", ":", "-", ".", "e", "[", "\xC3"};
  std::string text;
  const size_t count = rng() % 60;
  for (size_t i = 0; i < count; i++) {
    text += separators[rng() % std::size(separators)];
    text += rng() % 40 == 0 ? junk[rng() % std::size(junk)] : documents[rng() % std::size(documents)];
  }
  // Sometimes one byte damaged anywhere, inside a long scalar too.
  if (!text.empty() && rng() % 4 == 0) { text[rng() % text.size()] = junk[rng() % std::size(junk)][0]; }
  return text;
}

// Every batch size gives the scalar parser's verdict: the same checksum, or the same error at
// the same offset, and the same number of documents.
TEST(Stream, EveryBatchSizeGivesTheSameVerdict) {
  std::mt19937_64 rng(20261201);
  const size_t batches[] = {32, 33, 37, 48, 64, 100, 257, size_t(1) << 20};
  for (int round = 0; round < 4000; round++) {
    const std::string text = random_stream(rng);
    const outcome expected = slow_checksum_stream(text);
    std::optional<uint64_t> documents;
    for (size_t batch : batches) {
      ASSERT_EQ(stream_outcome(text, batch), expected) << "batch " << batch << ": " << text;
      parser p(parser_options{SIMDBRIDGE_DEFAULT_MAX_DEPTH, batch});
      const result<uint64_t> v = p.validate_stream(input::copy_of(text));
      ASSERT_EQ(v.ok(), expected.ok) << "batch " << batch << ": " << text;
      if (!v.ok()) {
        ASSERT_EQ(v.error().code, expected.code) << "batch " << batch << ": " << text;
        ASSERT_EQ(v.error().offset, expected.offset) << "batch " << batch << ": " << text;
      } else if (documents) {
        ASSERT_EQ(v.value(), *documents) << "batch " << batch << ": " << text;
      } else {
        documents = v.value();
      }
    }
  }
}

// A number that ends exactly where the default batch ends, followed directly by a string: the
// same error as one byte earlier or later (it was accepted at that one position).
TEST(Stream, ANumberEndingAtABatchEndMustStillNotTouchAString) {
  const size_t batch = size_t(1) << 20;
  for (long shift = -2; shift <= 2; shift++) {
    for (const char *tail : {"\"x\"", "x", "true"}) {
      std::string text;
      while (text.size() + 16 < batch) { text += "{}\n"; }
      text.append(size_t(long(batch) + shift - 2 - long(text.size())), ' ');
      text += "12";
      text += tail;
      const size_t number_end = text.size() - std::strlen(tail);
      const outcome o = stream_outcome(text);
      EXPECT_EQ(describe(o), "invalid_number at byte " + std::to_string(number_end)) << shift << " " << tail;
      parser p;
      EXPECT_FALSE(p.validate_stream(input::copy_of(text)).ok()) << shift << " " << tail;
    }
  }
}

// Found by make fuzz: parse_many, cutting a batch inside a root scalar, called the part it saw
// valid and never read the rest ("0.000" of "0.000A0006"). Every byte of a long number or
// string damaged, at every small batch size: the scalar parser's verdict.
TEST(Stream, ARootScalarCutByABatchIsReadWhole) {
  const std::string scalars[] = {
      "0." + std::string(90, '0') + "6",
      "\"" + std::string(90, 'a') + "\"",
      "-" + std::string(95, '7'),
  };
  for (const std::string &scalar : scalars) {
    for (size_t at = 1; at + 1 < scalar.size(); at += 3) {
      for (char damage : {'A', '\x01', '"', ' '}) {
        for (const char *after : {"", "]", " 1", "\n{}"}) {
          std::string text = scalar;
          text[at] = damage;
          text += after;
          const outcome expected = slow_checksum_stream(text);
          for (size_t batch = 32; batch < 110; batch += 7) {
            ASSERT_EQ(stream_outcome(text, batch), expected) << "batch " << batch << ": " << text;
          }
        }
      }
    }
  }
}

} // namespace
} // namespace simdbridge::test
