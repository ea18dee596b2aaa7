// SPDX-License-Identifier: Apache-2.0
// block_reader (stream.h): whatever the block size, the thread count and how the source hands
// out its bytes, the documents, their offsets and the error are the stream_reader's over the
// whole input.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <tuple>
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

std::vector<std::string> expected(const std::string &text, stream_format format, parser_options limits = {}) {
  stream_reader reader(input::copy_of(text), format, limits);
  return trace(reader, false, text);
}

block_options options_of(stream_format format, size_t block_size, unsigned threads, const parser_options &limits = {}) {
  block_options options;
  options.format = format;
  options.block_size = block_size;
  options.threads = threads;
  options.parser = limits;
  return options;
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
    parser_options limits; // and under length limits that some documents pass, some lines too
    const uint64_t lengths[] = {0, 0, 16, 40, 100};
    limits.max_document_length = lengths[(round / 3) % 5];
    const std::vector<std::string> want = expected(text, format, limits);
    for (size_t block_size : {size_t(1), size_t(7), size_t(64), size_t(1) << 20}) {
      for (unsigned threads : {1u, 2u, 3u}) {
        const block_options options = options_of(format, block_size, threads, limits);
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

/**
 * Reads `reader` to its end; where that is an error, checks that its line and column are those
 * of its offset in `text` (the whole stream). Whether it ended in an error.
 */
bool ends_in_an_error_placed_in(block_reader &reader, const std::string &text) {
  result<bool> r = reader.next();
  while (r.ok() && r.value()) { r = reader.next(); }
  if (r.ok()) { return false; }
  uint64_t line = 0, column = 0;
  EXPECT_TRUE(reader.line_and_column(r.error().offset, line, column));
  EXPECT_EQ(std::pair(line, column), line_and_column_of(text, r.error().offset));
  return true;
}

TEST(BlockReader, AnErrorsLineAndColumnAreCountedAsTheBlocksAreCut) {
  // With count_lines, an error's line and column come from the blocks (for a stream that cannot
  // be read again, such as a pipe): those of its offset in the whole text, whatever the blocks,
  // threads and pieces, documents read again past a cut included.
  std::mt19937_64 rng(61207);
  const stream_format formats[] = {stream_format::whitespace, stream_format::lines, stream_format::json_seq};
  int errors = 0;
  for (int round = 0; round < 300; round++) {
    const stream_format format = formats[round % 3];
    std::string text = random_stream(rng, format);
    if (!text.empty()) { text = mutate(text, rng); }
    parser_options limits;
    limits.max_document_length = round % 4 == 3 ? 40 : 0;
    for (size_t block_size : {size_t(1), size_t(7), size_t(64), size_t(1) << 20}) {
      for (unsigned threads : {1u, 2u, 3u}) {
        block_options options = options_of(format, block_size, threads, limits);
        options.count_lines = true;
        piecewise_source source(text, 1 + rng() % 20);
        block_reader reader(source, options);
        SCOPED_TRACE(text + " block " + std::to_string(block_size) + " threads " + std::to_string(threads));
        errors += ends_in_an_error_placed_in(reader, text);
      }
    }
  }
  EXPECT_GT(errors, 500);
  // Blocks of many lines (the count takes 4080 bytes at a time), the error far into the last.
  std::string many;
  for (int i = 0; i < 20000; i++) { many += i % 7 == 0 ? "[1,\n2]\n" : "[1]\n"; }
  many += "[" + std::string(5000, ' ') + "2,]\n";
  for (size_t block_size : {size_t(4096), size_t(65536), size_t(1) << 20}) {
    for (unsigned threads : {1u, 2u}) {
      block_options options = options_of(stream_format::whitespace, block_size, threads);
      options.count_lines = true;
      piecewise_source source(many, 1 << 16);
      block_reader reader(source, options);
      result<bool> r = reader.next();
      while (r.ok() && r.value()) { r = reader.next(); }
      ASSERT_FALSE(r.ok());
      uint64_t line = 0, column = 0;
      ASSERT_TRUE(reader.line_and_column(r.error().offset, line, column));
      EXPECT_EQ(line, 20000u + 20000 / 7 + 1 + 1) << block_size << " " << threads;
      EXPECT_EQ(column, 5004u) << block_size << " " << threads;
    }
  }
  // Not asked for: no line or column.
  const std::string bad = "[1]\n[2,]\n";
  piecewise_source source(bad, 3);
  block_reader reader(source, options_of(stream_format::whitespace, 4, 1));
  result<bool> r = reader.next();
  while (r.ok() && r.value()) { r = reader.next(); }
  ASSERT_FALSE(r.ok());
  uint64_t line = 0, column = 0;
  EXPECT_FALSE(reader.line_and_column(7, line, column));
}

/** A checksum or count, or the error and its offset. */
std::string outcome(const result<uint64_t> &r) {
  if (!r.ok()) {
    return std::string("error ") + error_name(r.error().code) + " at " + std::to_string(r.error().offset);
  }
  return "ok " + std::to_string(r.value());
}

TEST(BlockReader, ChecksumAndValidationOfASourceAreTheParsersOverTheWholeStream) {
  // checksum_stream and validate_stream over a source (what the CLI reads files and pipes with)
  // against the parser's over the bytes in memory: the same checksum, count or error, whatever
  // the blocks, the threads and the source's pieces.
  std::mt19937_64 rng(20261206);
  for (int round = 0; round < 400; round++) {
    std::string text = random_stream(rng, stream_format::whitespace);
    if (round % 10 == 0) { text += "123456789012345678901234567890 -7 \"\\ud800\" 1e999\n"; } // off the tape
    parser_options limits;
    const uint64_t lengths[] = {0, 0, 16, 40, 100};
    limits.max_document_length = lengths[(round / 3) % 5];
    parser p(limits);
    const std::string checksum = outcome(p.checksum_stream(input::copy_of(text)));
    const std::string count = outcome(p.validate_stream(input::copy_of(text)));
    for (size_t block_size : {size_t(1), size_t(7), size_t(64), size_t(1) << 20}) {
      for (unsigned threads : {1u, 2u}) {
        SCOPED_TRACE(text + " block " + std::to_string(block_size) + " threads " + std::to_string(threads));
        const block_options options = options_of(stream_format::whitespace, block_size, threads, limits);
        piecewise_source pieces(text, 1 + rng() % 20);
        EXPECT_EQ(outcome(checksum_stream(pieces, options)), checksum);
        piecewise_source again(text, 1 + rng() % 20);
        EXPECT_EQ(outcome(validate_stream(again, options)), count);
      }
    }
  }
  const std::string spaces = std::string(1000, ' ') + "[1]";
  piecewise_source failing(spaces, 10, 100);
  EXPECT_EQ(outcome(checksum_stream(failing, block_options{})).rfind("error read_failed at ", 0), 0u);
}

TEST(BlockReader, TheChecksOfTheStreamsStartSeeItsFirstBytes) {
  // A first block cut after a line end in the first bytes left the checks of the stream's start
  // (UTF-16's zero bytes, a byte order mark) to a block that has none (found by make fuzz:
  // "\n\0..." was expected_value at 1, read whole wrong_encoding at 0).
  // So too a block with no line end read as it is (no limit) before it held 3 bytes, in every
  // format: "\xEF\xBB" was expected_value at 0 in blocks of 1, a byte order mark read whole.
  for (const std::string &text : {std::string("\n\0\0\0 W 1\0\n 3,", 14), std::string("\n\n\xEF\xBB\xBF[1]\n"),
                                  std::string("\r\n[1]\n\0\0\n", 10), std::string("\n[1]\n"),
                                  std::string("\xEF\xBB\xBF[1]\n"), std::string("a\0b", 3),
                                  std::string("\x1E\xEF\xBB\xBF[1]"), std::string("\x1E [\0", 4)}) {
    for (stream_format format : {stream_format::whitespace, stream_format::lines, stream_format::json_seq}) {
      const std::vector<std::string> want = expected(text, format);
      for (size_t block_size : {size_t(1), size_t(2), size_t(3), size_t(5)}) {
        for (unsigned threads : {1u, 2u}) {
          piecewise_source source(text, 1);
          block_reader reader(source, options_of(format, block_size, threads));
          EXPECT_EQ(trace(reader, false, text), want) << int(format) << " " << block_size << " " << threads;
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
  // The error where the whole input read at once has it: the document's start plus the limit
  // (the block reader said its start), and no more read of the line than a few blocks.
  const std::string text = "[1]\n[\"" + std::string(100000, 'x') + "\"]\n[2]\n";
  parser_options limits;
  limits.max_document_length = 1000;
  const std::vector<std::string> want = expected(text, stream_format::whitespace, limits);
  ASSERT_EQ(want.size(), 2u);
  EXPECT_EQ(want[1], "error document_too_long at 1004 after 1");
  for (stream_format format : {stream_format::whitespace, stream_format::lines}) {
    for (unsigned threads : {1u, 2u}) {
      const block_options options = options_of(format, 64, threads, limits);
      piecewise_source source(text, 64);
      block_reader reader(source, options);
      EXPECT_EQ(trace(reader, false, text), want) << threads;
    }
  }
}

/** `head`, then `byte` repeated to 64 MB (for the test, endless): it counts what was read of it. */
class endless_source final : public stream_source {
public:
  explicit endless_source(std::string head, uint8_t byte) : head_(std::move(head)), byte_(byte) {}
  result<size_t> read(uint8_t *into, size_t capacity) noexcept override {
    capacity = std::min<size_t>(capacity, (uint64_t(64) << 20) - at_);
    for (size_t i = 0; i < capacity; i++) { into[i] = at_ + i < head_.size() ? uint8_t(head_[at_ + i]) : byte_; }
    at_ += capacity;
    return capacity;
  }
  uint64_t read_so_far() const noexcept { return at_; }

private:
  std::string head_;
  uint8_t byte_;
  uint64_t at_ = 0;
};

TEST(BlockReader, ALineWithNoEndIsReadOnlyUntilItGoesWrong) {
  // With no length limit, a block with no line end grew until one came: a device of zeros, or
  // anything with no newline, was read into memory without end. It is now read as it is once
  // the block doubles, so the error is found within a few blocks.
  for (unsigned threads : {1u, 2u}) {
    const std::string spaces(5000, ' ');
    for (const auto &[head, byte, at] : {std::tuple{std::string(), uint8_t(0), uint64_t(0)},
                                         std::tuple{std::string("{} [1,2] "), uint8_t(0), uint64_t(9)},
                                         std::tuple{"[" + spaces, uint8_t('x'), uint64_t(5001)},
                                         std::tuple{std::string("\"abc"), uint8_t(0), uint64_t(4)}}) {
      endless_source source(head, byte);
      block_reader reader(source, options_of(stream_format::whitespace, 4096, threads));
      result<bool> r = reader.next();
      while (r.ok() && r.value()) { r = reader.next(); }
      ASSERT_FALSE(r.ok()) << head;
      EXPECT_EQ(r.error().offset, at) << head;
      EXPECT_LT(source.read_so_far(), uint64_t(64) << 10) << head;
    }
  }
}

TEST(BlockReader, ARecordWithNoEndIsReadOnlyUntilItGoesWrong) {
  // The same for the lines and json_seq formats: with no length limit, a record with no end
  // grew until one came (a device of zeros: a MemoryError in Python's loads_many). Its error
  // is now found within a few blocks, at the offset the whole input gives.
  const std::string spaces(5000, ' ');
  for (stream_format format : {stream_format::lines, stream_format::json_seq}) {
    const std::string rs = format == stream_format::json_seq ? "\x1e" : "";
    for (unsigned threads : {1u, 2u}) {
      for (const auto &[head, byte, at] : {std::tuple{std::string(), uint8_t(0), uint64_t(0)},
                                           std::tuple{rs + "{}\n" + rs + "[1,2]\n", uint8_t(0),
                                                      uint64_t(9 + 2 * rs.size())},
                                           std::tuple{rs + "[" + spaces, uint8_t('x'), uint64_t(5001 + rs.size())},
                                           std::tuple{rs + "[1] ", uint8_t('2'), uint64_t(4 + rs.size())},
                                           std::tuple{rs + "\"abc", uint8_t(1), uint64_t(4 + rs.size())}}) {
        const std::string whole = head + std::string(1 << 16, char(byte));
        const std::vector<std::string> want = expected(whole, format);
        ASSERT_EQ(want.back().rfind("error ", 0), 0u) << want.back();
        endless_source source(head, byte);
        block_reader reader(source, options_of(format, 4096, threads));
        result<bool> r = reader.next();
        while (r.ok() && r.value()) { r = reader.next(); }
        ASSERT_FALSE(r.ok()) << head;
        EXPECT_EQ(r.error().offset, at) << head;
        EXPECT_NE(want.back().find(" at " + std::to_string(at) + " "), std::string::npos) << want.back();
        EXPECT_LT(source.read_so_far(), uint64_t(64) << 10) << head;
      }
    }
  }
}

/**
 * A trace with each document's start moved past the white space before it: a record's bytes
 * (stream.h: begin()) may leave out some of the white space it starts with.
 */
std::vector<std::string> past_white_space(std::vector<std::string> lines, const std::string &text) {
  for (std::string &line : lines) {
    const size_t dash = line.find('-'), colon = line.find(':');
    if (line.rfind("error ", 0) == 0 || line == "end" || dash == std::string::npos || colon < dash) { continue; }
    size_t begin = std::stoul(line.substr(0, dash));
    while (begin < text.size() && std::string_view(" \t\r\n").find(text[begin]) != std::string_view::npos) { begin++; }
    std::string rest = line.substr(dash);
    if (const size_t bytes = rest.find(":bytes:"); bytes != std::string::npos) { // the bytes from begin
      rest = rest.substr(0, bytes + 7) + text.substr(begin, std::stoul(rest.substr(1)) - begin);
    }
    line = std::to_string(begin) + rest;
  }
  return lines;
}

TEST(BlockReader, RecordsOfWhiteSpaceWithNoEndYetAreReadAsTheWholeInput) {
  // With no limit, a lines or json_seq record that is white space alone so far keeps only its
  // last bytes: the documents, offsets, errors and lines after it are still the whole input's,
  // at the stream's start (json_seq: before its first RS) and after a record separator.
  std::mt19937_64 rng(61206);
  const char *const after[] = {"[1]", "{\"a\":2}", "x", "1 2", "\"\\u00e9\"", "\x1e[3]", "\xef\xbb\xbf[4]", "", "\t\r"};
  int errors = 0, documents = 0;
  for (int round = 0; round < 400; round++) {
    const stream_format format = round % 2 ? stream_format::json_seq : stream_format::lines;
    const std::string rs = format == stream_format::json_seq ? "\x1e" : "";
    std::string text;
    const size_t records = rng() % 4;
    for (size_t i = 0; i < records; i++) {
      const bool first = i == 0 && rng() % 3 == 0; // white space before a json_seq stream's first RS
      text += (first ? "" : rs) + std::string(rng() % 300, " \t\r"[rng() % 3]) + after[rng() % std::size(after)];
      text += rng() % 5 ? "\n" : "";
    }
    const std::vector<std::string> want = past_white_space(expected(text, format), text);
    for (size_t block_size : {size_t(1), size_t(7), size_t(64)}) {
      for (unsigned threads : {1u, 2u, 3u}) {
        SCOPED_TRACE(text + " block " + std::to_string(block_size) + " threads " + std::to_string(threads));
        block_options options = options_of(format, block_size, threads);
        options.count_lines = true;
        piecewise_source source(text, 1 + rng() % 20);
        block_reader reader(source, options);
        ASSERT_EQ(past_white_space(trace(reader, false, text), text), want);
        documents += int(want.size()) - 1;
      }
      // The error's line and column, counted over the bytes held back too.
      block_options options = options_of(format, block_size, 1);
      options.count_lines = true;
      piecewise_source source(text, 1 + rng() % 20);
      block_reader reader(source, options);
      SCOPED_TRACE(text);
      errors += ends_in_an_error_placed_in(reader, text);
    }
  }
  EXPECT_GT(errors, 200);
  EXPECT_GT(documents, 1000);
}

/** `head`, `fill` repeated to `count` bytes, then `tail`: the most heap in use seen while read. */
class heap_watching_source final : public stream_source {
public:
  heap_watching_source(std::string head, char fill, uint64_t count, std::string tail)
      : head_(std::move(head)), tail_(std::move(tail)), fill_(fill), count_(count), start_(heap_in_use()) {}
  result<size_t> read(uint8_t *into, size_t capacity) noexcept override {
    most_ = std::max(most_, heap_in_use() > start_ ? heap_in_use() - start_ : 0);
    const uint64_t size = head_.size() + count_ + tail_.size();
    const size_t n = size_t(std::min<uint64_t>(capacity, size - at_));
    for (size_t i = 0; i < n; i++, at_++) {
      const uint64_t past = at_ - head_.size(); // (wraps below head's end: unused there)
      into[i] = uint8_t(at_ < head_.size() ? head_[at_] : past < count_ ? fill_ : tail_[past - count_]);
    }
    return n;
  }
  size_t most_held() const noexcept { return most_; }

private:
  std::string head_, tail_;
  char fill_;
  uint64_t count_;
  uint64_t at_ = 0;
  size_t start_;
  size_t most_ = 0;
};

TEST(BlockReader, ARecordOfWhiteSpaceWithNoEndIsNotHeldWhole) {
  // With no limit, a lines or json_seq record of white space alone with no end (a pipe of
  // spaces) was held whole until its end came: 64 MB of it took 64 MB and more. It is now held
  // a few blocks at a time, and the record after it still read, at its offset.
  constexpr uint64_t spaces = uint64_t(64) << 20;
  for (stream_format format : {stream_format::lines, stream_format::json_seq}) {
    const std::string rs = format == stream_format::json_seq ? "\x1e" : "";
    for (const std::string &head : {std::string(), rs + "[0]\n" + rs}) {
      for (unsigned threads : {1u, 2u}) {
        SCOPED_TRACE(head + " threads " + std::to_string(threads));
        block_options options = options_of(format, 64 << 10, threads);
        options.count_lines = true;
        heap_watching_source source(head, ' ', spaces, "[1,x]\n");
        block_reader reader(source, options);
        size_t documents = 0;
        result<bool> r = reader.next();
        while (r.ok() && r.value()) {
          documents++;
          r = reader.next();
        }
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(documents, head.empty() ? 0u : 1u);
        // (json_seq: white space alone may come before the first RS; the '[' is the error.)
        const uint64_t at = head.size() + spaces + (head.empty() && !rs.empty() ? 0 : 3);
        EXPECT_EQ(r.error().offset, at) << error_name(r.error().code);
        uint64_t line = 0, column = 0;
        ASSERT_TRUE(reader.line_and_column(r.error().offset, line, column));
        EXPECT_EQ(line, head.empty() ? 1u : 2u);
        EXPECT_EQ(column, at - (head.empty() ? 0 : head.size() - rs.size()) + 1);
        EXPECT_LT(source.most_held(), size_t(8) << 20);
      }
    }
  }
}

TEST(BlockReader, LongRecordsWithNoLimitAreReadWholeInLinearTime) {
  // Records of 0.6 MB with no end until their last byte, whose every token may be cut at a
  // block's end, read as it is now and then (above): read whole, no error before their end.
  std::string record = "[";
  for (int i = 0; i < 60000; i++) {
    record += i ? "," : "";
    record += i % 6 == 0 ? std::to_string(i * 7919) : i % 6 == 1 ? "-1.25e+17" : i % 6 == 2 ? "true" :
              i % 6 == 3 ? "\"a\\u00e9\u00e9b\"" : i % 6 == 4 ? "{\"k\":null}" : "[false,[]]";
  }
  record += "]";
  for (stream_format format : {stream_format::lines, stream_format::json_seq}) {
    const std::string rs = format == stream_format::json_seq ? "\x1e" : "";
    const std::string text = rs + "[0]\n" + rs + record + "\n" + rs + record + "\n" + rs + "{}\n";
    const std::vector<std::string> want = expected(text, format);
    ASSERT_EQ(want.size(), 5u) << want.back(); // four documents, then the end
    ASSERT_EQ(want.back(), "end");
    for (size_t block_size : {size_t(7), size_t(64), size_t(4096)}) {
      for (unsigned threads : {1u, 2u}) {
        const auto start = std::chrono::steady_clock::now();
        piecewise_source source(text, 1 << 16);
        block_reader reader(source, options_of(format, block_size, threads));
        EXPECT_EQ(trace(reader, false, text), want) << block_size << " " << threads;
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_LT(seconds, 5.0) << block_size << " " << threads;
      }
    }
  }
}

TEST(BlockReader, LongLinesWithNoLimitAreReadWholeInLinearTime) {
  // One document of 2 MB on one line, documents sharing a long line, and numbers and
  // literals cut at blocks' ends, under no limit: the stream_reader's documents, and the long
  // document parsed about twice (blocks that end inside it double), not once a block.
  std::string one = "[", shared, numbers, literals;
  for (int i = 0; i < 1000000; i++) { one += (i ? "," : "") + std::to_string(i % 10); }
  one += "]\n[2]\n";
  for (int i = 0; i < 3000; i++) {
    shared += "{\"a\":" + std::to_string(i) + "} ";
    numbers += std::to_string(i * 7919) + " ";
    literals += i % 3 == 0 ? "true " : i % 3 == 1 ? "false\t" : "null  ";
  }
  for (const std::string *text : {&one, &shared, &numbers, &literals}) {
    const std::vector<std::string> want = expected(*text, stream_format::whitespace);
    for (size_t block_size : {size_t(7), size_t(64), size_t(4096)}) {
      for (unsigned threads : {1u, 2u, 3u}) {
        const auto start = std::chrono::steady_clock::now();
        piecewise_source source(*text, 1 << 16);
        block_reader reader(source, options_of(stream_format::whitespace, block_size, threads));
        EXPECT_EQ(trace(reader, false, *text), want) << block_size << " " << threads;
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // 2 MB of the long document each 8 µs a block were it parsed again with every block of 4 KB.
        EXPECT_LT(seconds, 5.0) << block_size << " " << threads;
      }
    }
  }
}

TEST(BlockReader, DocumentsSharingALineLongerThanTheLimitAreAllRead) {
  // Under a length limit, a block with no line end in more bytes than a document may take was
  // read as the stream's last: the documents after it were lost without an error (512 of
  // 10,000 read), or the one it ended inside was "too long". Also numbers and literals cut at
  // such a block's end, and a long line of the lines format holding a second document.
  std::string shared, numbers, literals;
  for (int i = 0; i < 3000; i++) {
    shared += "{\"a\":" + std::to_string(i) + "} ";
    numbers += std::to_string(i * 7919) + " ";
    literals += i % 3 == 0 ? "true " : i % 3 == 1 ? "false\t" : "null  ";
  }
  std::string lines_text = "[1]\n[2]\n[4]" + std::string(1500, ' ') + "[5]\n[6]\n"; // a second document past the limit
  for (int i = 0; i < 40; i++) { lines_text.insert(4, "[" + std::to_string(i) + "]" + std::string(size_t(i * 20), ' ') + "\n"); }
  parser_options limits;
  limits.max_document_length = 1000;
  for (const auto &[text, format] : {std::pair{shared, stream_format::whitespace}, std::pair{numbers, stream_format::whitespace},
                                     std::pair{literals, stream_format::whitespace}, std::pair{lines_text, stream_format::lines}}) {
    const std::vector<std::string> want = expected(text, format, limits);
    for (size_t block_size : {size_t(7), size_t(64), size_t(1000), size_t(4096)}) {
      for (unsigned threads : {1u, 2u, 3u}) {
        const block_options options = options_of(format, block_size, threads, limits);
        piecewise_source source(text, 1 + block_size % 13);
        block_reader reader(source, options);
        EXPECT_EQ(trace(reader, false, text), want) << text.substr(0, 40) << " block " << block_size << " threads " << threads;
      }
    }
  }
  EXPECT_EQ(expected(shared, stream_format::whitespace, limits).size(), 3001u); // and "end"
  // The difference that bounded reading costs: a record of those formats with more white space
  // than the limit on its line is refused, where the whole input measures its document alone.
  const std::string spaced = "[1]\n[2]" + std::string(3000, ' ') + "\n[3]\n";
  for (stream_format format : {stream_format::lines, stream_format::json_seq}) {
    std::string text = spaced;
    if (format == stream_format::json_seq) {
      text = "\x1e[1]\n\x1e[2]" + std::string(3000, ' ') + "\n\x1e[3]\n";
    }
    const block_options options = options_of(format, 64, 1, limits);
    piecewise_source source(text, 64);
    block_reader reader(source, options);
    const std::vector<std::string> got = trace(reader, false, text);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[1], format == stream_format::lines ? "error document_too_long at 1004 after 1"
                                                     : "error document_too_long at 1006 after 1");
    EXPECT_EQ(expected(text, format, limits).size(), 4u); // read whole: [1], [2], [3] and "end"
  }
}

} // namespace
} // namespace simdbridge::test
