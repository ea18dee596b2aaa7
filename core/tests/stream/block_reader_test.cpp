// SPDX-License-Identifier: Apache-2.0
// block_reader (stream.h): whatever the block size, the thread count and how the source hands
// out its bytes, the documents, their offsets and the error are the stream_reader's over the
// whole input.
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

/** A source that hands out at most `piece` bytes per read, or fails after `fail_after` bytes. */
class piecewise_source final : public stream_source {
public:
  piecewise_source(const std::string &text, size_t piece, size_t fail_after = SIZE_MAX)
      : text_(text), piece_(piece), fail_after_(fail_after) {}
  result<size_t> read(uint8_t *into, size_t capacity) noexcept override {
    if (at_ >= fail_after_) { return error{error_code::read_failed, 0}; }
    const size_t n = std::min({capacity, piece_, text_.size() - at_});
    std::memcpy(into, text_.data() + at_, n);
    at_ += n;
    return n;
  }

private:
  const std::string &text_;
  size_t piece_;
  size_t fail_after_;
  size_t at_ = 0;
};

std::vector<std::string> expected(const std::string &text, stream_format format) {
  stream_reader reader(input::copy_of(text), format);
  return trace(reader, false, text);
}

std::string random_document(std::mt19937_64 &rng, int depth = 0) {
  switch (rng() % (depth > 3 ? 4 : 7)) {
  case 0: return std::to_string(int64_t(rng() % 2000) - 1000);
  case 1: return "\"s" + std::to_string(rng() % 100) + "\"";
  case 2: return rng() % 2 ? "true" : "null";
  case 3: return rng() % 8 == 0 ? "123456789012345678901234567890" : "1.5e3"; // past 64 bits: not on a tape
  case 4:
  case 5: {
    std::string out = "{";
    const size_t n = rng() % 4;
    const bool lines = rng() % 4 == 0; // over several lines
    for (size_t i = 0; i < n; i++) {
      out += (i ? "," : "") + std::string(lines ? "\n  " : "") + "\"k" + std::to_string(i) + "\":" + random_document(rng, depth + 1);
    }
    return out + (lines ? "\n}" : "}");
  }
  default: {
    std::string out = "[";
    const size_t n = rng() % 5;
    for (size_t i = 0; i < n; i++) { out += (i ? "," : "") + random_document(rng, depth + 1); }
    return out + "]";
  }
  }
}

/** A stream of random documents in `format`, sometimes damaged. */
std::string random_stream(std::mt19937_64 &rng, stream_format format) {
  std::string out;
  const size_t n = rng() % 40;
  for (size_t i = 0; i < n; i++) {
    std::string doc = random_document(rng);
    if (format == stream_format::lines) {
      for (char &c : doc) { c = c == '\n' ? ' ' : c; }
      out += doc + (rng() % 6 == 0 ? "\n\n" : "\n");
    } else if (format == stream_format::json_seq) {
      out += "\x1e" + doc + "\n";
    } else {
      out += doc + (rng() % 5 == 0 ? " " : rng() % 7 == 0 ? "\n \n" : "\n");
    }
  }
  if (rng() % 4 == 0 && !out.empty()) { out = mutate(out, rng); }
  return out;
}

TEST(BlockReader, SameDocumentsOffsetsAndErrorsAsOneReader) {
  std::mt19937_64 rng(20261202);
  const stream_format formats[] = {stream_format::whitespace, stream_format::lines, stream_format::json_seq};
  for (int round = 0; round < 400; round++) {
    const stream_format format = formats[round % 3];
    const std::string text = random_stream(rng, format);
    const std::vector<std::string> want = expected(text, format);
    for (size_t block_size : {size_t(1), size_t(7), size_t(64), size_t(1) << 20}) {
      for (unsigned threads : {1u, 2u, 3u}) {
        block_options options;
        options.format = format;
        options.block_size = block_size;
        options.threads = threads;
        const bool keep = round % 2 == 1;
        SCOPED_TRACE(text + " block " + std::to_string(block_size) + " threads " + std::to_string(threads));
        {
          block_reader reader(input::copy_of(text), options);
          EXPECT_EQ(trace(reader, keep, text), want);
        }
        {
          padded_copy padded(text);
          block_reader reader(padded.in(), options);
          EXPECT_EQ(trace(reader, keep, text), want);
        }
        {
          piecewise_source source(text, 1 + rng() % 20);
          block_reader reader(source, options);
          EXPECT_EQ(trace(reader, keep, text), want);
        }
      }
    }
  }
}

TEST(BlockReader, DocumentsLongerThanTheBlockAndOverManyLines) {
  std::string text;
  for (int i = 0; i < 50; i++) {
    text += "{\n\"a\": [\n" + std::string(size_t(i * 37), ' ') + "1,\n2\n],\n\"b\": \"" + std::string(size_t(i * 11), 'x') +
            "\"\n}\n";
  }
  const std::vector<std::string> want = expected(text, stream_format::whitespace);
  ASSERT_EQ(want.size(), 51u);
  for (unsigned threads : {1u, 2u, 4u}) {
    block_options options;
    options.block_size = 16;
    options.threads = threads;
    piecewise_source source(text, 5);
    block_reader reader(source, options);
    EXPECT_EQ(trace(reader, false, text), want) << threads;
  }
}

TEST(BlockReader, AReadFailureIsAnErrorAtItsOffset) {
  std::string text;
  for (int i = 0; i < 100; i++) { text += "[" + std::to_string(i) + "]\n"; }
  for (unsigned threads : {1u, 2u}) {
    block_options options;
    options.block_size = 32;
    options.threads = threads;
    piecewise_source source(text, 10, 100);
    block_reader reader(source, options);
    const std::vector<std::string> got = trace(reader, false, text);
    ASSERT_FALSE(got.empty());
    EXPECT_EQ(got.back().rfind("error read_failed at ", 0), 0u) << got.back();
    EXPECT_LT(got.size(), 40u); // the documents before the failure, not past it
  }
}

TEST(BlockReader, ALineOverTheLengthLimitStopsReadingAndSaysSo) {
  std::string text = "[1]\n[\"" + std::string(100000, 'x') + "\"]\n[2]\n";
  for (unsigned threads : {1u, 2u}) {
    block_options options;
    options.block_size = 64;
    options.threads = threads;
    options.parser.max_document_length = 1000;
    piecewise_source source(text, 64);
    block_reader reader(source, options);
    const std::vector<std::string> got = trace(reader, false, text);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[1], "error document_too_long at 4 after 1");
  }
}

} // namespace
} // namespace simdbridge::test
