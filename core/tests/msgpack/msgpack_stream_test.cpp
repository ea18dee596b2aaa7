// SPDX-License-Identifier: Apache-2.0
// JSON to MessagePack over a stream_source: whatever the step, the thread count and how the
// source hands out its bytes, the bytes and the error are those of the whole stream converted
// at once, and a line with no end is refused without being read into memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "simdbridge/msgpack.h"
#include "simdbridge/stream.h"

namespace simdbridge {
namespace {

/** `text` in pieces of at most `piece` bytes, then (where `endless`) `fill` bytes to `total` (64 MB). */
class text_source final : public stream_source {
public:
  text_source(std::string text, size_t piece, bool endless = false, uint8_t fill = 0,
              uint64_t total = uint64_t(64) << 20)
      : text_(std::move(text)), piece_(piece), total_(endless ? total : text_.size()), fill_(fill) {}
  result<size_t> read(uint8_t *into, size_t capacity) noexcept override {
    const size_t n = size_t(std::min<uint64_t>({capacity, piece_, total_ - at_}));
    for (size_t i = 0; i < n; i++) { into[i] = at_ + i < text_.size() ? uint8_t(text_[at_ + i]) : fill_; }
    at_ += n;
    return n;
  }
  uint64_t read_so_far() const noexcept { return at_; }

private:
  std::string text_;
  size_t piece_;
  uint64_t total_;
  uint8_t fill_;
  uint64_t at_ = 0;
};

/** What a conversion gave: its bytes, then its error (if any) as "error CODE at OFFSET in N". */
std::string outcome(const std::vector<uint8_t> &out, const msgpack_error &e) {
  std::string s(out.begin(), out.end());
  if (!e.ok()) {
    s += "|error " + std::string(error_name(e.e.code)) + " at " + std::to_string(e.e.offset) + " in " +
         std::to_string(e.document);
  }
  return s;
}

/** The lines of `text` that hold its first `documents` documents (lines of white space are none). */
std::string first_documents(const std::string &text, uint64_t documents) {
  size_t at = 0;
  for (uint64_t n = 0; n < documents && at < text.size();) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    if (text.find_first_not_of(" \t\r\n", at) < end) { n++; }
    at = end;
  }
  return text.substr(0, at);
}

/**
 * The whole stream converted at once; where it fails, the documents before the failing one
 * (which a stream conversion has handed on), then the error.
 */
std::string whole(const std::string &text, const parser_options &limits) {
  parser p(limits);
  msgpack_options o;
  o.ndjson = true;
  std::vector<uint8_t> out;
  const msgpack_error e = json_to_msgpack(p, input::copy_of(text), o, out);
  if (!e.ok()) {
    const msgpack_error before = json_to_msgpack(p, input::copy_of(first_documents(text, e.document - 1)), o, out);
    EXPECT_TRUE(before.ok()) << text;
  }
  return outcome(out, e);
}

std::string streamed(text_source &source, const parser_options &limits, size_t block_size, unsigned threads) {
  parser p(limits);
  msgpack_options o;
  o.block_size = block_size;
  o.threads = threads;
  std::vector<uint8_t> out;
  const msgpack_error e = json_to_msgpack(p, source, o, [&](const uint8_t *data, size_t size) {
    out.insert(out.end(), data, data + size);
    return true;
  });
  return outcome(out, e);
}

std::string random_line(std::mt19937_64 &rng) {
  static const char *values[] = {"1", "-2.5e3", "\"s\\u00e9\"", "true", "null", "[1,[2]]", "{\"k\":{}}",
                                 "123456789012345678901234567890", "\"\"", "[]", "\"\\udfaa\""};
  std::string line = rng() % 4 == 0 ? "  " : rng() % 8 == 0 ? std::string(rng() % 300, ' ') : "";
  if (rng() % 16 == 0) { return line + "\n"; } // a line of white space
  const bool object = rng() % 2;
  line += object ? "{" : "[";
  for (int i = 0, n = int(rng() % 6); i < n; i++) {
    line += i ? "," : "";
    line += object ? "\"k" + std::to_string(i) + "\":" : "";
    line += values[rng() % (rng() % 8 ? 10 : 11)]; // now and then a lone surrogate
  }
  line += object ? "}" : "]";
  return line + (rng() % 5 == 0 ? "\r\n" : rng() % 7 == 0 ? "\n\n \n" : "\n");
}

TEST(MsgpackStream, TheBytesAndErrorsAreTheWholeStreamsInAnyStepsAndPieces) {
  std::mt19937_64 rng(20261206);
  for (int round = 0; round < 400; round++) {
    std::string text;
    for (int i = 0, n = int(rng() % 40); i < n; i++) { text += random_line(rng); }
    if (rng() % 2 && !text.empty()) { // a broken byte, a cut, or a line end taken away
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
      case 0: text[at] = "x\0\xff,]"[rng() % 5]; break;
      case 1: text.resize(at); break;
      default: text.erase(std::remove(text.begin() + ptrdiff_t(at), text.end(), '\n'), text.end()); break;
      }
    }
    parser_options limits;
    if (rng() % 4 == 0) { limits.max_document_length = 1 + rng() % 60; }
    const std::string want = whole(text, limits);
    const size_t block_size = 1 + rng() % 200;
    const size_t piece = 1 + rng() % 300;
    for (unsigned threads : {1u, 2u, 3u}) {
      text_source source(text, piece);
      EXPECT_EQ(streamed(source, limits, block_size, threads), want)
          << round << " block " << block_size << " piece " << piece << " threads " << threads << "\n" << text;
    }
  }
}

TEST(MsgpackStream, ALineIsNotReadAsItIsBeforeItHoldsThreeBytes) {
  // Found by make fuzz: in steps of 1, a line with no end was read as it is at 2 bytes, before
  // the checks of its first bytes could see a byte order mark: expected_value at 0, where the
  // whole stream has byte_order_mark at 0. So too UTF-16's zero bytes.
  for (const std::string &text : {std::string("\xEF\xBB\xBF[223\0\0\0" "9-\0" "1", 14), std::string("a\0b", 3),
                                  std::string("[1]\n\xEF\xBB\xBF[2]\n"), std::string("  \xEF\xBB\xBF[1]")}) {
    const std::string want = whole(text, {});
    for (size_t block_size : {size_t(1), size_t(2), size_t(3)}) {
      for (unsigned threads : {1u, 2u}) {
        text_source source(text, 1);
        EXPECT_EQ(streamed(source, {}, block_size, threads), want) << block_size << " " << threads;
      }
    }
  }
}

TEST(MsgpackStream, ALineReadAsItIsGivesOnlyTheParsersErrors) {
  // Found by make fuzz: a line with no end yet, read as it is up to just past a lone surrogate
  // (which MessagePack cannot hold), was unsupported_value at 1; the whole line is first
  // trailing_content at 10, a parser's error, which comes before the conversion's.
  const std::string text = "[\"\\uDFAA\"]" + std::string(40, '&');
  const std::string want = whole(text, {});
  ASSERT_NE(want.find("trailing_content at 10"), std::string::npos) << want;
  for (size_t block_size : {size_t(1), size_t(3), size_t(5)}) {
    text_source source(text, 1);
    EXPECT_EQ(streamed(source, {}, block_size, 1), want) << block_size;
  }
}

TEST(MsgpackStream, ALineWithNoEndIsReadOnlyUntilItGoesWrong) {
  // Bytes with no line end (a device of zeros), white space with no end, and either after
  // documents, with and without a limit: an error (or the end) within a few steps, not 64 MB
  // read; the same error as the whole stream's, where its line is cut at 64 KB.
  const std::string spaces(3000, ' ');
  struct endless {
    std::string head;
    uint8_t fill;
    uint64_t limit;
  };
  for (const endless &c : {endless{"", 0, 0}, endless{"[1]\n{\"a\":2}\n", 0, 0}, endless{"[1]\n[" + spaces, 'x', 0},
                           endless{"[1]\n", ' ', 0}, endless{"[1]\n", ' ', 100}, endless{"[1]\n", 0, 100},
                           endless{"[1]\n" + spaces + "[2]", ' ', 100}, endless{"[1]\n[2,", '3', 0}}) {
    parser_options limits;
    limits.max_document_length = c.limit;
    for (unsigned threads : {1u, 2u}) {
      text_source source(c.head, 4096, true, c.fill);
      const std::string got = streamed(source, limits, 4096, threads);
      const std::string cut = c.head + std::string(65536, char(c.fill));
      if (c.fill == ' ' && c.head.back() == '\n') { // white space alone: read to its end, kept short
        EXPECT_EQ(source.read_so_far(), uint64_t(64) << 20);
      } else {
        EXPECT_LT(source.read_so_far(), uint64_t(1) << 20) << c.head;
      }
      if (c.fill == '3') {
        EXPECT_NE(got.find("|error "), std::string::npos) << "an endless number";
      } else {
        EXPECT_EQ(got, whole(cut, limits)) << c.head;
      }
    }
  }
}

TEST(MsgpackStream, AFailedWriteStopsTheConversion) {
  std::string text;
  for (int i = 0; i < 10000; i++) { text += "[" + std::to_string(i) + "]\n"; }
  text_source source(text, 1 << 16);
  parser p;
  msgpack_options o;
  o.block_size = 1024;
  int calls = 0;
  const msgpack_error e = json_to_msgpack(p, source, o, [&](const uint8_t *, size_t) { return ++calls < 3; });
  EXPECT_EQ(e.e.code, error_code::write_failed);
  EXPECT_EQ(calls, 3);
  EXPECT_LT(source.read_so_far(), text.size());
}

TEST(MsgpackStream, AFailedReadIsAnErrorAtItsOffsetInBothDirections) {
  std::string json, packed;
  for (int i = 0; i < 1000; i++) {
    json += "[" + std::to_string(i) + "]\n";
    packed += "\x91\x01";
  }
  /** The text in pieces of at most 7 bytes; the first read once 700 are read fails. */
  class failing final : public stream_source {
  public:
    explicit failing(const std::string &text) : text_(text) {}
    result<size_t> read(uint8_t *into, size_t capacity) noexcept override {
      if (at_ >= 700) { return error{error_code::read_failed, 0}; }
      const size_t n = std::min<size_t>(capacity, 7);
      std::memcpy(into, text_.data() + at_, n);
      at_ += n;
      return n;
    }
    size_t at() const noexcept { return at_; }

  private:
    const std::string &text_;
    size_t at_ = 0;
  };
  msgpack_options o;
  o.block_size = 64;
  parser p;
  const auto drop = [](const uint8_t *, size_t) { return true; };
  failing a(json), b(packed);
  const msgpack_error to = json_to_msgpack(p, a, o, drop);
  const msgpack_error back = msgpack_to_json(b, o, drop);
  EXPECT_EQ(to.e.code, error_code::read_failed);
  EXPECT_EQ(to.e.offset, a.at()); // where the bytes it failed to read would have gone
  EXPECT_GE(a.at(), 700u);
  EXPECT_EQ(back.e.code, error_code::read_failed);
  EXPECT_EQ(back.e.offset, b.at());
}

// MessagePack to JSON over a source.

/** Where the first `n` values of a MessagePack stream end (each read alone: it ends where trailing content starts). */
size_t first_values(const std::string &packed, uint64_t n) {
  size_t at = 0;
  std::vector<uint8_t> scratch;
  for (uint64_t i = 0; i < n; i++) {
    const msgpack_error e = msgpack_to_json(input::copy_of(packed.data() + at, packed.size() - at), {}, scratch);
    at = e.ok() ? packed.size() : at + size_t(e.e.offset);
  }
  return at;
}

std::string unpacked_whole(const std::string &packed, uint32_t max_depth, uint64_t max_value_length = 0) {
  msgpack_options o;
  o.stream = true;
  o.max_depth = max_depth;
  o.max_value_length = max_value_length;
  std::vector<uint8_t> out;
  const msgpack_error e = msgpack_to_json(input::copy_of(packed), o, out);
  if (!e.ok()) {
    const std::string before = packed.substr(0, first_values(packed, e.document - 1));
    EXPECT_TRUE(msgpack_to_json(input::copy_of(before), o, out).ok());
  }
  return outcome(out, e);
}

std::string unpacked_streamed(text_source &source, uint32_t max_depth, size_t block_size, unsigned threads,
                              uint64_t max_value_length = 0) {
  msgpack_options o;
  o.max_depth = max_depth;
  o.max_value_length = max_value_length;
  o.block_size = block_size;
  o.threads = threads;
  std::vector<uint8_t> out;
  const msgpack_error e = msgpack_to_json(source, o, [&](const uint8_t *data, size_t size) {
    out.insert(out.end(), data, data + size);
    return true;
  });
  return outcome(out, e);
}

TEST(MsgpackStream, MessagePackToJsonGivesTheWholeStreamsTextAndErrors) {
  std::mt19937_64 rng(61206);
  int limited = 0; // rounds whose limit was passed
  for (int round = 0; round < 400; round++) {
    std::string json;
    for (int i = 0, n = int(rng() % 30); i < n; i++) { json += random_line(rng); }
    msgpack_options to;
    to.ndjson = true;
    parser p;
    std::vector<uint8_t> packed_bytes;
    if (!json_to_msgpack(p, input::copy_of(json), to, packed_bytes).ok()) { continue; } // (a lone surrogate)
    std::string packed(packed_bytes.begin(), packed_bytes.end());
    if (rng() % 2 && !packed.empty()) { // a broken byte, a cut, a claim of more than comes
      const size_t at = rng() % packed.size();
      switch (rng() % 4) {
      case 0: packed[at] = char(0xc1); break;
      case 1: packed.resize(at); break;
      case 2: packed.insert(at, "\xdd\x00\x01\x00\x00", 5); break;
      default: packed[at] = char(rng()); break;
      }
    }
    const uint32_t depth = rng() % 3 == 0 ? 2 : 1024;
    const uint64_t limit = round % 3 == 0 ? 1 + rng() % 40 : 0;
    const std::string want = unpacked_whole(packed, depth, limit);
    const size_t block_size = 1 + rng() % 100;
    const size_t piece = 1 + rng() % 200;
    limited += limit != 0 && want.find("document_too_long") != std::string::npos;
    for (unsigned threads : {1u, 2u, 3u}) {
      text_source source(packed, piece);
      EXPECT_EQ(unpacked_streamed(source, depth, block_size, threads, limit), want)
          << round << " block " << block_size << " piece " << piece << " threads " << threads << " limit " << limit;
    }
  }
  EXPECT_GT(limited, 30);
}

TEST(MsgpackToJson, AValuePastTheLengthLimitIsAnErrorAtItsStartPlusTheLimit) {
  // Each value of a stream (or the whole input) at most max_value_length bytes: past it, the
  // limit's error at the value's start plus the limit, unless it went wrong within those bytes
  // or at the byte after them (as a JSON document past max_document_length).
  const std::string ok = "\x01\x93\x01\x02\x03\x02"; // 1 [1,2,3] 2
  struct want_case {
    std::string packed;
    uint64_t limit;
    std::string outcome;
  };
  for (const want_case &c : {want_case{ok, 4, "1\n[1,2,3]\n2\n"},
                             want_case{ok, 3, "1\n|error document_too_long at 4 in 2"},
                             want_case{"\x01\x93\x01\xc1\x03", 3, "1\n|error msgpack_invalid at 3 in 2"},
                             want_case{"\x01\x93\x01\x02\xc1", 3, "1\n|error msgpack_invalid at 4 in 2"},
                             want_case{"\x01\x93\x01\x02", 3, "1\n|error msgpack_truncated at 1 in 2"},
                             want_case{"\x01\x93\x01\x02", 2, "1\n|error document_too_long at 3 in 2"},
                             want_case{"\x01\xdd\xff\xff\xff\xff", 4, "1\n|error document_too_long at 5 in 2"}}) {
    EXPECT_EQ(unpacked_whole(c.packed, 1024, c.limit), c.outcome) << c.limit;
    text_source source(c.packed, 1);
    EXPECT_EQ(unpacked_streamed(source, 1024, 1, 1, c.limit), c.outcome) << c.limit;
  }
  // A single value: the whole input is the document.
  msgpack_options o;
  o.max_value_length = 3;
  std::vector<uint8_t> out;
  EXPECT_EQ(outcome(out, msgpack_to_json(input::copy_of(std::string("\x92\x01\x02")), o, out)), "[1,2]");
  const msgpack_error e = msgpack_to_json(input::copy_of(std::string("\x93\x01\x02\x03")), o, out);
  EXPECT_EQ(e.e.code, error_code::document_too_long);
  EXPECT_EQ(e.e.offset, 3u);
  // An array that claims more items than ever come, from a source without end: held only to
  // the limit, not read on.
  for (unsigned threads : {1u, 2u}) {
    text_source source("\x01\xdd\xff\xff\xff\xff", 4096, true, 0, uint64_t(64) << 20);
    msgpack_options limited;
    limited.max_value_length = 100000;
    limited.block_size = 4096;
    limited.threads = threads;
    const msgpack_error r = msgpack_to_json(source, limited, [](const uint8_t *, size_t) { return true; });
    EXPECT_EQ(r.e.code, error_code::document_too_long);
    EXPECT_EQ(r.e.offset, 100001u);
    EXPECT_EQ(r.document, 2u);
    EXPECT_LT(source.read_so_far(), uint64_t(1) << 20);
  }
}

TEST(MsgpackStream, AValueThatNeverEndsIsRefusedWhereItGoesWrong) {
  // A pipe of zeros is a stream of zeros (positive fixints): written as they come, in bounded
  // memory. Arrays nested without end (past the depth limit), and a string of bad UTF-8 in a
  // value that never ends: refused within a few steps.
  struct endless {
    std::string head;
    uint8_t fill;
  };
  for (const endless &c : {endless{"", 0}, endless{"\x01", 0x91}, endless{"\x01", 0x92},
                           endless{"\x01\x92\xa2\xff\xfe", 0x92}}) {
    for (unsigned threads : {1u, 2u}) {
      const uint64_t total = uint64_t(c.head.empty() ? 8 : 64) << 20;
      text_source source(c.head, 4096, true, c.fill, total);
      size_t written = 0;
      msgpack_options o;
      o.block_size = 4096;
      o.threads = threads;
      const msgpack_error e = msgpack_to_json(source, o, [&](const uint8_t *, size_t size) {
        written += size;
        return true;
      });
      if (c.fill == 0 && c.head.empty()) {
        EXPECT_TRUE(e.ok());
        EXPECT_EQ(written, 2 * total); // "0\n" for each zero
        continue;
      }
      EXPECT_LT(source.read_so_far(), uint64_t(1) << 20) << int(c.fill);
      const std::string cut = c.head + std::string(300000, char(c.fill));
      const std::string want = unpacked_whole(cut, SIMDBRIDGE_DEFAULT_MAX_DEPTH);
      EXPECT_EQ(outcome({}, e), want.substr(want.find("|error"))) << int(c.fill);
    }
  }
}

} // namespace
} // namespace simdbridge
