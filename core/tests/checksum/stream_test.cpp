// SPDX-License-Identifier: Apache-2.0
// Streams: where documents begin and end, errors in any batch with their exact offset, and the
// documents simdjson refuses in the middle of a stream.
#include <gtest/gtest.h>

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

} // namespace
} // namespace simdbridge::test
