// SPDX-License-Identifier: Apache-2.0
// The limits a parser enforces besides depth: the length of a number kept as text, and the
// length of a document (of each record, in a stream). Each is its own error, at its own
// offset, on every entry point, and the same whatever path read the input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simdbridge/document.h"
#include "simdbridge/parser.h"
#include "simdbridge/simdbridge_c.h"
#include "simdbridge/stream.h"
#include "simdbridge/binding_tape.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

error tape_error(parser &p, const std::string &json) {
  std::vector<uint64_t> words(2 * json.size() + 64);
  std::vector<uint8_t> strings(json.size() + 64);
  binding_tape_buffer out{words.data(), words.size(), strings.data(), strings.size()};
  return p.to_binding_tape(input::copy_of(json), out);
}

std::string every_entry_point(parser &p, const std::string &json) {
  const outcome sum = outcome_of(p.checksum(input::copy_of(json)));
  const std::string checksum = sum.ok ? "ok" : describe(sum);
  const error v = p.validate(input::copy_of(json));
  const error t = tape_error(p, json);
  document doc;
  const error d = p.parse(input::copy_of(json), doc);
  const std::string stream = describe(outcome_of(p.checksum_stream(input::copy_of(json))));
  const auto said = [](const error &e) { return e.ok() ? std::string("ok") : describe(outcome{false, 0, e.code, e.offset}); };
  // Every entry point must say the same; the checksum's answer stands for all.
  EXPECT_EQ(said(v), checksum) << json.substr(0, 40);
  if (!v.ok()) {
    EXPECT_EQ(said(v), checksum);
    EXPECT_EQ(said(t), checksum);
    if (d.code != error_code::unsupported_value) { EXPECT_EQ(said(d), checksum); }
    EXPECT_EQ(stream, checksum);
  } else {
    EXPECT_TRUE(t.ok() || t.code == error_code::unsupported_value) << describe(outcome{false, 0, t.code, t.offset});
  }
  return checksum;
}

TEST(Limits, ANumberKeptAsTextIsLimitedByLength) {
  parser p; // 1000 characters by default, as Jackson's maxNumberLength
  const std::string digits1000 = std::string(1000, '9'), digits1001 = std::string(1001, '9');
  EXPECT_EQ(every_entry_point(p, "[" + digits1000 + "]"), "ok");
  EXPECT_EQ(every_entry_point(p, "[" + digits1001 + "]"), "number_too_long at byte 1");
  EXPECT_EQ(every_entry_point(p, "{\"a\": -" + digits1000 + "}"), "number_too_long at byte 6");
  EXPECT_EQ(every_entry_point(p, digits1001), "number_too_long at byte 0");
  // Past the double range, with an exponent: kept as text, limited.
  EXPECT_EQ(every_entry_point(p, "[1." + std::string(1000, '0') + "e400]"), "number_too_long at byte 1");
  // A long number that reads as a double is linear to read: not limited.
  EXPECT_EQ(every_entry_point(p, "[0." + std::string(5000, '1') + "]"), "ok");
  EXPECT_EQ(every_entry_point(p, "[1" + std::string(5000, '0') + "e-5000]"), "ok");
  // Short big numbers are untouched.
  EXPECT_EQ(every_entry_point(p, "[18446744073709551616, 1e400]"), "ok");
  // The first error in reading order is the one reported: the number, read whole, comes first.
  EXPECT_EQ(every_entry_point(p, "[" + digits1001 + "x]"), "number_too_long at byte 1");
  EXPECT_EQ(every_entry_point(p, "[1,]" + digits1001), "expected_value at byte 3");

  parser_options o;
  o.max_number_length = 5;
  parser five(o);
  EXPECT_EQ(every_entry_point(five, "[12345678901234567890123]"), "number_too_long at byte 1");
  EXPECT_EQ(every_entry_point(five, "[123456789012345678901]"), "number_too_long at byte 1"); // past 64 bits
  EXPECT_EQ(every_entry_point(five, "[12345678901234567890]"), "ok");                         // within them
  o.max_number_length = 0;
  parser none(o);
  EXPECT_EQ(every_entry_point(none, "[" + std::string(100000, '7') + "]"), "ok");
}

TEST(Limits, AStringLongerThanTheLimitIsRefusedAtItsQuote) {
  parser_options o;
  o.max_string_length = 10;
  parser p(o);
  const std::string ten = "\"" + std::string(10, 's') + "\"", eleven = "\"" + std::string(11, 's') + "\"";
  EXPECT_EQ(every_entry_point(p, "[" + ten + ", {" + ten + ": " + ten + "}]"), "ok");
  EXPECT_EQ(every_entry_point(p, "[1, " + eleven + "]"), "string_too_long at byte 4");
  EXPECT_EQ(every_entry_point(p, "{" + eleven + ": 1}"), "string_too_long at byte 1");  // a key
  EXPECT_EQ(every_entry_point(p, eleven), "string_too_long at byte 0");
  // Unescaped bytes count: six \u00e9 are 12 bytes (two each); ten \n are 10.
  EXPECT_EQ(every_entry_point(p, R"(["\n\n\n\n\n\n\n\n\n\n"])"), "ok");
  EXPECT_EQ(every_entry_point(p, "[\"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\"]"), "string_too_long at byte 1");
  // In a long document every string is checked, on the fast paths too.
  std::string records = "[";
  for (int i = 0; i < 2000; i++) { records += "{\"k\":\"abcdefghij\",\"n\":" + std::to_string(i) + "},"; }
  EXPECT_EQ(every_entry_point(p, records + ten + "]"), "ok");
  EXPECT_EQ(every_entry_point(p, records + eleven + "]"),
            "string_too_long at byte " + std::to_string(records.size()));
  // Streams: each record; extraction.
  const std::string stream = "{\"a\":\"abc\"}\n{\"a\":" + eleven + "}\n";
  for (size_t batch : {size_t(32), size_t(1) << 20}) {
    o.stream_batch_size = batch;
    parser s(o);
    EXPECT_EQ(describe(outcome_of(s.checksum_stream(input::copy_of(stream)))), "string_too_long at byte 17") << batch;
  }
  stream_reader reader(input::copy_of(stream), stream_format::lines, o);
  result<bool> r = reader.next();
  while (r.ok() && r.value()) { r = reader.next(); }
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, error_code::string_too_long);
  EXPECT_EQ(r.error().offset, 17u);
  column c{};
  std::vector<uint8_t> values(64), bytes(64);
  uint8_t validity[1] = {};
  c.pointer = "/a";
  c.pointer_length = 2;
  c.type = int32_t(column_type::string);
  c.values = values.data();
  c.validity = validity;
  c.string_bytes = bytes.data();
  c.string_capacity = bytes.size();
  extract_status status;
  const error e = p.extract(input::copy_of(stream), &c, 1, 8, status);
  EXPECT_EQ(e.code, error_code::string_too_long);
  EXPECT_EQ(e.offset, 17u);
}

TEST(Limits, ADocumentLongerThanTheLimitIsRefusedAtTheLimit) {
  parser_options o;
  o.max_document_length = 10;
  parser p(o);
  EXPECT_EQ(every_entry_point(p, "[1,2,3,4]"), "ok");
  const std::string eleven = "[1,2,3,4,5]";
  EXPECT_EQ(describe(outcome_of(p.checksum(input::copy_of(eleven)))), "document_too_long at byte 10");
  EXPECT_EQ(p.validate(input::copy_of(eleven)).code, error_code::document_too_long);
  EXPECT_EQ(tape_error(p, eleven).code, error_code::document_too_long);
  document doc;
  EXPECT_EQ(p.parse(input::copy_of(eleven), doc).code, error_code::document_too_long);
}

// In a stream the limit holds for each record, not the whole input; every reader agrees, at
// every batch size.
TEST(Limits, InAStreamEachRecordIsLimited) {
  parser_options o;
  o.max_document_length = 12;
  const std::string ok = "{\"a\":123456}\n[1,2]   \n\"abcdefghij\"\n";
  const std::string bad = ok + "  {\"a\":1234567}\n{}";
  const size_t at = ok.size() + 2 + 12;
  for (size_t batch : {size_t(32), size_t(40), size_t(64), size_t(1) << 20}) {
    o.stream_batch_size = batch;
    parser p(o);
    EXPECT_TRUE(p.validate_stream(input::copy_of(ok)).ok()) << batch;
    EXPECT_EQ(describe(outcome_of(p.checksum_stream(input::copy_of(bad)))),
              "document_too_long at byte " + std::to_string(at)) << batch;
  }
  for (stream_format format : {stream_format::whitespace, stream_format::lines}) {
    stream_reader reader(input::copy_of(bad), format, o);
    result<bool> r = reader.next();
    while (r.ok() && r.value()) { r = reader.next(); }
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, error_code::document_too_long);
    EXPECT_EQ(r.error().offset, at);
  }
  // Extraction: each line is a record.
  parser p(o);
  column c{};
  std::vector<int64_t> values(8);
  uint8_t validity[1] = {};
  c.pointer = "/a";
  c.pointer_length = 2;
  c.type = int32_t(column_type::int64);
  c.values = values.data();
  c.validity = validity;
  extract_status status;
  const error e = p.extract(input::copy_of("{\"a\":1}\n {\"a\":123456789} \n"), &c, 1, 8, status);
  EXPECT_EQ(e.code, error_code::document_too_long);
  EXPECT_EQ(e.offset, 9u + 12u);
}

// Found by make fuzz: parse_many's second thread parses at simdjson's default depth, and a stream
// read in several batches accepted, from its second batch on, what the limit refuses.
TEST(Limits, ADepthLimitBelowTheDefaultHoldsInEveryBatch) {
  const std::string deep = std::string(21, '[') + std::string(21, ']');
  const std::string stream = "184407440746744" + deep + "\n" + deep + "\n";
  for (size_t batch : {size_t(32), size_t(47), size_t(1) << 20}) {
    parser_options o;
    o.max_depth = 8;
    o.stream_batch_size = batch;
    parser p(o);
    EXPECT_EQ(describe(outcome_of(p.checksum_stream(input::copy_of(stream)))), "depth_limit at byte 23") << batch;
    EXPECT_EQ(p.validate_stream(input::copy_of(stream)).error().code, error_code::depth_limit) << batch;
    o.max_depth = 21;
    parser deeper(o);
    EXPECT_TRUE(deeper.validate_stream(input::copy_of(stream)).ok()) << batch;
  }
}

// One parser, its limits changed between calls (a thread's parser shared by mappers that differ).
TEST(Limits, SetOptionsChangesEveryLimitForTheCallsThatFollow) {
  const std::string deep = std::string(50, '[') + std::string(50, ']');
  const std::string big = "[" + std::string(30, '9') + "]";
  parser p;
  for (int round = 0; round < 3; round++) {
    parser_options o;
    o.max_depth = 10;
    o.max_number_length = 20;
    o.max_document_length = 90;
    ASSERT_TRUE(p.set_options(o).ok());
    EXPECT_EQ(p.validate(input::copy_of(deep)).code, error_code::document_too_long);
    EXPECT_EQ(p.validate(input::copy_of(std::string(11, '[') + std::string(11, ']'))).code, error_code::depth_limit);
    EXPECT_TRUE(p.validate(input::copy_of(std::string(10, '[') + std::string(10, ']'))).ok());
    EXPECT_EQ(p.checksum(input::copy_of(big)).error().code, error_code::number_too_long);
    ASSERT_TRUE(p.set_options(parser_options{}).ok());
    EXPECT_TRUE(p.validate(input::copy_of(deep)).ok());
    EXPECT_TRUE(p.checksum(input::copy_of(big)).ok());
  }
  // Through the C API.
  simdbridge_parser *c = simdbridge_parser_new(0);
  const auto *bytes = reinterpret_cast<const uint8_t *>(deep.data());
  ASSERT_EQ(simdbridge_parser_set_limits(c, 49, 0, 0, 0), SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(simdbridge_validate(c, bytes, deep.size(), deep.size()).error, SIMDBRIDGE_DEPTH_LIMIT);
  ASSERT_EQ(simdbridge_parser_set_limits(c, 0, 0, 0, 0), SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(simdbridge_validate(c, bytes, deep.size(), deep.size()).error, SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(simdbridge_parser_set_limits(nullptr, 0, 0, 0, 0), SIMDBRIDGE_INVALID_ARGUMENT);
  simdbridge_parser_free(c);
}

} // namespace
} // namespace simdbridge::test
