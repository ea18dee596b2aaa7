// SPDX-License-Identifier: Apache-2.0
// The stream reader (stream.h) and documents that own their tape (document.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simdbridge/document.h"
#include "simdbridge/stream.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

/** Every document of a stream: its rendering, or "bytes:" + its text where not on the tape. */
std::vector<std::string> read_all(const std::string &text, stream_format format, std::string *error_out = nullptr) {
  stream_reader reader(input::copy_of(text), format);
  std::vector<std::string> out;
  for (;;) {
    auto r = reader.next();
    if (!r.ok()) {
      if (error_out) { *error_out = std::string(error_name(r.error().code)) + " at " + std::to_string(r.error().offset); }
      return out;
    }
    if (!r.value()) { return out; }
    const tape_view t = reader.tape();
    out.push_back(t.words ? render(t, reader.value_index())
                          : "bytes:" + text.substr(reader.begin(), reader.end() - reader.begin()));
  }
}

TEST(Document, OwnsItsTapeAcrossLaterParses) {
  parser p;
  document first, second;
  ASSERT_TRUE(p.parse(input::copy_of(R"({"a":[1,-2,3.5,"x\n",true,false,null,18446744073709551615]})"), first).ok());
  ASSERT_TRUE(p.parse(input::copy_of("[\"other\"]"), second).ok());
  ASSERT_TRUE(p.checksum(input::copy_of("[1,2,3]")).ok());
  EXPECT_EQ(render(first.tape(), tape_view::first), "{\"a\":[1,-2,3.500000,\"x\n\",true,false,null,18446744073709551615]}");
  EXPECT_EQ(first.tape().count(tape_view::first), 1u);
  EXPECT_EQ(first.tape().count(tape_view::first + 2), 8u);
  EXPECT_EQ(render(second.tape(), tape_view::first), "[\"other\"]");
  document moved = std::move(first);
  EXPECT_EQ(moved.tape().kind(tape_view::first), tape_kind::object);
}

TEST(Document, ErrorsAndUnsupportedValues) {
  parser p;
  document doc;
  const error e = p.parse(input::copy_of("[1,]"), doc);
  EXPECT_EQ(e.code, error_code::expected_value);
  EXPECT_EQ(e.offset, 3u);
  EXPECT_EQ(doc.tape().words, nullptr);
  EXPECT_EQ(p.parse(input::copy_of("[1e400]"), doc).code, error_code::unsupported_value);
  EXPECT_EQ(p.parse(input::copy_of("\"\\ud800\""), doc).code, error_code::unsupported_value);
}

TEST(Document, NestsToTheDepthLimitWithAScalarInside) {
  parser p; // default limit: 1024 levels
  document doc;
  for (const char *scalar : {"", "1", "\"s\""}) {
    const std::string deepest = std::string(1024, '[') + scalar + std::string(1024, ']');
    ASSERT_TRUE(p.parse(input::copy_of(deepest), doc).ok()) << scalar;
    size_t i = tape_view::first;
    for (int level = 0; level < 1023; level++) { i++; }
    EXPECT_EQ(doc.tape().kind(i), tape_kind::array);
    const std::string too_deep = std::string(1025, '[') + scalar + std::string(1025, ']');
    EXPECT_EQ(p.parse(input::copy_of(too_deep), doc).code, error_code::depth_limit) << scalar;
  }
}

TEST(StreamReader, NestsToTheDepthLimitWithAScalarInside) {
  const std::string deepest = std::string(1024, '[') + "1" + std::string(1024, ']');
  const std::string rendered = std::string(1024, '[') + "1" + std::string(1024, ']');
  for (stream_format f : {stream_format::whitespace, stream_format::lines}) {
    EXPECT_EQ(read_all(deepest + "\n[2]\n" + deepest, f), (std::vector<std::string>{rendered, "[2]", rendered}));
    std::string err;
    read_all("[2]\n[" + deepest + "]", f, &err);
    EXPECT_EQ(err, "depth_limit at 1028");
  }
  EXPECT_EQ(read_all("[" + std::string(1023, '[') + "1" + std::string(1023, ']') + ",[3]]", stream_format::array).size(), 2u);
}

TEST(StreamReader, Whitespace) {
  EXPECT_EQ(read_all("{\"a\":1}\n\n[1,\n 2]\n\"s\" 3 {}{}\ntrue\r\n", stream_format::whitespace),
            (std::vector<std::string>{"{\"a\":1}", "[1,2]", "\"s\"", "3", "{}", "{}", "true"}));
  EXPECT_EQ(read_all("[1]\n[18446744073709551616] {\"x\":2}\n", stream_format::whitespace),
            (std::vector<std::string>{"[1]", "bytes:[18446744073709551616]", "{\"x\":2}"}));
  EXPECT_TRUE(read_all("  \n ", stream_format::whitespace).empty());
  std::string err;
  EXPECT_EQ(read_all("{}\n[1,]\n{}", stream_format::whitespace, &err).size(), 1u);
  EXPECT_EQ(err, "expected_value at 6");
  read_all("[1] truefalse", stream_format::whitespace, &err);
  EXPECT_EQ(err, "invalid_literal at 8");
  read_all("\xEF\xBB\xBF{}", stream_format::whitespace, &err);
  EXPECT_EQ(err, "byte_order_mark at 0");
}

TEST(StreamReader, Lines) {
  EXPECT_EQ(read_all("{\"a\":1}\n\n  \n[2]\r\n3", stream_format::lines),
            (std::vector<std::string>{"{\"a\":1}", "[2]", "3"}));
  std::string err;
  read_all("{\"a\":1}\n[1,\n2]\n", stream_format::lines, &err);
  EXPECT_EQ(err, "unexpected_end at 11");
  read_all("{} {}\n", stream_format::lines, &err);
  EXPECT_EQ(err, "trailing_content at 3");
  EXPECT_EQ(read_all("[1]\n[-1e999]\n", stream_format::lines), (std::vector<std::string>{"[1]", "bytes:[-1e999]"}));
}

TEST(StreamReader, JsonTextSequences) {
  EXPECT_EQ(read_all("\x1E{\"a\":1}\n\x1E\x1E[2]\n\x1E\"x\"\n", stream_format::json_seq),
            (std::vector<std::string>{"{\"a\":1}", "[2]", "\"x\""}));
  std::string err;
  read_all("{}\x1E[]", stream_format::json_seq, &err);
  EXPECT_EQ(err, "expected_value at 0");
  read_all("\x1E[1,2\n\x1E[3]", stream_format::json_seq, &err);
  EXPECT_EQ(err, "unexpected_end at 6");
}

TEST(StreamReader, CommaAndArray) {
  EXPECT_EQ(read_all("{\"a\":1}, [2] ,\"x\"", stream_format::comma),
            (std::vector<std::string>{"{\"a\":1}", "[2]", "\"x\""}));
  EXPECT_EQ(read_all(" [1,{\"b\":[]},\"c\"] ", stream_format::array),
            (std::vector<std::string>{"1", "{\"b\":[]}", "\"c\""}));
  EXPECT_TRUE(read_all("[]", stream_format::array).empty());
  std::string err;
  read_all("1, 2,", stream_format::comma, &err);
  EXPECT_EQ(err, "expected_value at 5");
  read_all("  {\"a\":1}", stream_format::array, &err);
  EXPECT_EQ(err, "expected_array at 2");
  read_all("[1, 1e999]", stream_format::array, &err);
  EXPECT_EQ(err, "unsupported_value at 0");
}

TEST(StreamReader, IntoDocumentsThatOutliveTheReader) {
  std::vector<document> docs;
  {
    const std::string text = "{\"a\":1}\n[2,3] \"x\"\n[18446744073709551616]\n";
    stream_reader reader(input::copy_of(text), stream_format::whitespace);
    for (;;) {
      document doc;
      auto r = reader.next(doc);
      ASSERT_TRUE(r.ok());
      if (!r.value()) { break; }
      if (reader.tape().words == nullptr) {
        EXPECT_EQ(text.substr(reader.begin(), reader.end() - reader.begin()), "[18446744073709551616]");
        continue;
      }
      EXPECT_EQ(reader.tape().words, doc.tape().words);
      docs.push_back(std::move(doc));
    }
    stream_reader array(input::copy_of("[1]"), stream_format::array);
    document doc;
    EXPECT_EQ(array.next(doc).error().code, error_code::invalid_argument);
  }
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(render(docs[0].tape(), tape_view::first), "{\"a\":1}");
  EXPECT_EQ(render(docs[1].tape(), tape_view::first), "[2,3]");
  EXPECT_EQ(render(docs[2].tape(), tape_view::first), "\"x\"");
}

TEST(StreamReader, TheCorpusStreamsAgreeWithTheChecksumEngine) {
  // Every document the reader yields, folded, gives the stream checksum of the engine.
  for (const std::string &path : list_files(data_directory() + "/ndjson", ".ndjson")) {
    const std::string text = read_file(path);
    size_t documents = 0;
    for (stream_format format : {stream_format::whitespace, stream_format::lines}) {
      stream_reader reader(input::copy_of(text), format);
      documents = 0;
      for (auto r = reader.next(); r.ok() && r.value(); r = reader.next()) {
        ASSERT_NE(reader.tape().words, nullptr);
        documents++;
      }
    }
    parser p;
    EXPECT_EQ(p.validate_stream(input::copy_of(text)).value(), documents) << base_name(path);
  }
}

} // namespace
} // namespace simdbridge::test
