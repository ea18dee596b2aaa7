// SPDX-License-Identifier: Apache-2.0
// stream_reader's batches (whitespace format, next()): simdjson's parse_many over the input,
// handing over to reading one document at a time wherever it cannot account for every byte.
// next(document&) always reads one document at a time, so it is the reference: whatever the
// batch size, the limits and the damage, both ways give the same documents, the same offsets and
// the same error.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "simdbridge/document.h"
#include "simdbridge/stream.h"
#include "stream_trace.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

std::vector<std::string> batched(const std::string &text, const parser_options &options) {
  stream_reader reader(input::copy_of(text), stream_format::whitespace, options);
  return trace(reader, false, text);
}

std::vector<std::string> alone(const std::string &text, const parser_options &options) {
  stream_reader reader(input::copy_of(text), stream_format::whitespace, options);
  return trace(reader, true, text);
}

parser_options with_batch(size_t batch) {
  parser_options options;
  options.stream_batch_size = batch;
  return options;
}

/** A value of any kind: long strings and arrays (longer than small batches), escapes, non-ASCII,
 *  numbers that end where a batch may cut them, nesting up to `room` levels. */
std::string value(std::mt19937_64 &rng, int room) {
  switch (rng() % (room > 0 ? 10 : 6)) {
  case 0: return std::to_string(int64_t(rng() % 2000000) - 1000000);
  case 1: return rng() % 2 ? "-0.000123e+7" : "18446744073709551616"; // the second: not on a tape
  case 2: return rng() % 2 ? "true" : "null";
  case 3: return "\"" + std::string(rng() % 90, 'a' + char(rng() % 26)) + "\"";
  case 4: return "\"caf\xC3\xA9 \\u00e9\\n\\\"q\\\" \xF0\x9F\x98\x80\"";
  case 5: return "\"\"";
  case 6:
  case 7: {
    std::string out = "{";
    const size_t n = rng() % 5;
    for (size_t i = 0; i < n; i++) {
      out += (i ? "," : "") + std::string(rng() % 6 == 0 ? "\n " : "") + "\"k" + std::to_string(rng() % 9) +
             "\":" + value(rng, room - 1);
    }
    return out + "}";
  }
  default: {
    std::string out = "[";
    const size_t n = rng() % 6;
    for (size_t i = 0; i < n; i++) { out += (i ? "," : "") + value(rng, room - 1); }
    return out + "]";
  }
  }
}

/** A stream: mostly objects and arrays (what batches take), some scalars at the root, documents
 *  over several lines, several on a line, adjacent with no space; sometimes damaged or cut. */
std::string random_stream(std::mt19937_64 &rng) {
  std::string out;
  const size_t n = rng() % 30;
  for (size_t i = 0; i < n; i++) {
    std::string doc;
    const uint64_t kind = rng() % 12;
    if (kind < 2) {
      doc = value(rng, 0);
    } else {
      const bool object = kind % 2 == 0;
      doc = object ? "{\"id\":" : "[";
      doc += value(rng, 3);
      if (rng() % 2) { doc += (object ? ",\"x\":" : ",") + value(rng, 2); }
      doc += object ? "}" : "]";
    }
    const char *separators[] = {"\n", "\n", "\n", "\r\n", " ", "", "\n\n  \t", "\n"};
    out += doc + separators[rng() % 8];
  }
  switch (rng() % 8) {
  case 0:
  case 1: return out.empty() ? out : mutate(out, rng);
  case 2: return out.substr(0, out.empty() ? 0 : rng() % out.size()); // cut anywhere
  case 3: { // a byte that is not UTF-8 or a control character inside a string somewhere
    const size_t at = out.empty() ? 0 : rng() % out.size();
    return out.substr(0, at) + (rng() % 2 ? "[\"\xFF\"]" : "[\"\x01\"]") + out.substr(at);
  }
  default: return out;
  }
}

TEST(BatchedReading, AgreesWithReadingOneDocumentAtATime) {
  std::mt19937_64 rng(20261204);
  for (int round = 0; round < 1500; round++) {
    const std::string text = random_stream(rng);
    parser_options options = with_batch(std::vector<size_t>{32, 33, 47, 64, 100, 256, 1000, size_t(1) << 20}[rng() % 8]);
    switch (rng() % 6) { // limits, which batches must enforce as reading alone does
    case 0: options.max_depth = 1 + uint32_t(rng() % 4); break;
    case 1: options.max_document_length = 20 + rng() % 100; break;
    case 2: options.max_string_length = rng() % 40; break;
    default: break;
    }
    SCOPED_TRACE(text + "\nbatch " + std::to_string(options.stream_batch_size) + " depth " +
                 std::to_string(options.max_depth) + " length " + std::to_string(options.max_document_length) +
                 " string " + std::to_string(options.max_string_length));
    EXPECT_EQ(batched(text, options), alone(text, options));
  }
}

TEST(BatchedReading, ManyDocumentsAcrossManyBatches) {
  // 2000 documents over batches of 64 bytes: every document cut somewhere by a batch's end.
  std::mt19937_64 rng(7);
  std::string text;
  for (int i = 0; i < 2000; i++) { text += "{\"id\":" + std::to_string(i) + ",\"v\":" + value(rng, 3) + "}\n"; }
  for (size_t batch : {size_t(32), size_t(64), size_t(1000), size_t(1) << 20}) {
    const std::vector<std::string> got = batched(text, with_batch(batch));
    ASSERT_EQ(got.size(), 2001u) << batch;
    EXPECT_EQ(got.back(), "end");
    EXPECT_EQ(got, alone(text, with_batch(batch)));
  }
}

TEST(BatchedReading, DocumentsLongerThanABatch) {
  const std::string big = "[\"" + std::string(5000, 'x') + "\",[" + std::string(300, '[') + std::string(300, ']') + "]]";
  const std::string text = "{\"a\":1}\n" + big + "\n{\"b\":2}\n" + big + big + "\n[3]";
  const std::vector<std::string> got = batched(text, with_batch(64));
  ASSERT_EQ(got.size(), 7u);
  EXPECT_EQ(got[0], "0-7:{\"a\":1}");
  EXPECT_EQ(got[1].substr(0, got[1].find(':')), "8-" + std::to_string(8 + big.size()));
  EXPECT_EQ(got[6], "end");
  EXPECT_EQ(got, alone(text, with_batch(64)));
}

TEST(BatchedReading, ErrorsNamedAtTheirByteWhereverTheBatchStarts) {
  std::string text;
  for (int i = 0; i < 300; i++) { text += "{\"n\":" + std::to_string(i) + "}\n"; }
  const size_t bad = text.size() + 7; // the byte that is not UTF-8
  const std::string damaged = text + "[\"abcde\xFF\"]\n{\"n\":1}\n";
  for (size_t batch : {size_t(32), size_t(100), size_t(4096), size_t(1) << 20}) {
    stream_reader reader(input::copy_of(damaged), stream_format::whitespace, with_batch(batch));
    uint64_t documents = 0;
    result<bool> r = reader.next();
    for (; r.ok() && r.value(); r = reader.next()) { documents++; }
    ASSERT_FALSE(r.ok()) << batch;
    EXPECT_EQ(r.error().code, error_code::invalid_utf8) << batch;
    EXPECT_EQ(r.error().offset, bad) << batch;
    EXPECT_EQ(documents, 300u) << batch;
    const result<bool> after = reader.next(); // the reader stays at its end
    EXPECT_TRUE(after.ok() && !after.value());
  }
  // An unfinished last document: the end of the input, where it was cut.
  const std::string cut = text + "{\"n\":[1,2";
  std::vector<std::string> got = batched(cut, with_batch(64));
  EXPECT_EQ(got.back(), "error unexpected_end at " + std::to_string(cut.size()) + " after 300");
  // Bytes after a document that begin no document.
  got = batched("[1] [2] ]x", with_batch(32));
  EXPECT_EQ(got, alone("[1] [2] ]x", with_batch(32)));
  EXPECT_EQ(got.size(), 3u);
}

TEST(BatchedReading, ScalarsAtTheRootBetweenContainers) {
  // Numbers at the root that a batch's end may cut: read alone, whole.
  std::string text;
  for (int i = 0; i < 200; i++) { text += (i % 3 ? "[" + std::to_string(i) + "] " : "") + "123456789012 "; }
  for (size_t batch : {size_t(32), size_t(33), size_t(50)}) {
    const std::vector<std::string> got = batched(text, with_batch(batch));
    EXPECT_EQ(got, alone(text, with_batch(batch)));
    for (const std::string &d : got) {
      if (d.find(":1") != std::string::npos) { EXPECT_EQ(d.substr(d.find(':') + 1), "123456789012"); }
    }
  }
}

TEST(BatchedReading, MixesWithNextIntoADocumentAndStartsOverOnReset) {
  const std::string text = "{\"a\":1}\n[2]\n{\"c\":3}\n[4]\n";
  stream_reader reader(input::copy_of(text), stream_format::whitespace, with_batch(32));
  ASSERT_TRUE(reader.next().value());
  EXPECT_EQ(render(reader.tape(), reader.value_index()), "{\"a\":1}");
  document kept;
  ASSERT_TRUE(reader.next(kept).value());
  ASSERT_TRUE(reader.next().value());
  EXPECT_EQ(render(reader.tape(), reader.value_index()), "{\"c\":3}");
  EXPECT_EQ(render(kept.tape(), tape_view::first), "[2]");
  EXPECT_EQ(reader.count(), 3u);

  const std::string other = "[10]\n[11]\n";
  reader.reset(input::copy_of(other), false);
  ASSERT_TRUE(reader.next().value());
  EXPECT_EQ(render(reader.tape(), reader.value_index()), "[10]");
  EXPECT_EQ(reader.begin(), 0u);
  EXPECT_EQ(reader.end(), 4u);
  ASSERT_TRUE(reader.next().value());
  EXPECT_EQ(render(reader.tape(), reader.value_index()), "[11]");
  EXPECT_FALSE(reader.next().value());
}

} // namespace
} // namespace simdbridge::test
