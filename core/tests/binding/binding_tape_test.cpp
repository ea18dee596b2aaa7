// SPDX-License-Identifier: Apache-2.0
// The binding tape (tape.h): its layout on small documents, the two readers writing the same
// tape, the checksum folded from the tape equal to the engine's on every corpus file, arrays
// too small, and errors with the validator's offsets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "checksum_sink.h"
#include "scalar_parser.h"
#include "simdbridge/binding_tape.h"
#include "binding_tape_sink.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

struct tape {
  std::vector<uint64_t> words;
  std::vector<uint8_t> strings;
  error e;

  binding_tape_entry kind(size_t w) const { return binding_tape_entry(words[w] >> 56); }
  uint64_t offset(size_t w) const { return words[w] & binding_tape_offset_mask; }
  size_t end(size_t w) const { return size_t(words[w + 1] >> 32); }
  uint32_t count(size_t w) const { return uint32_t(words[w + 1]); }
  std::string text(size_t w) const {
    return std::string(reinterpret_cast<const char *>(strings.data()) + (words[w + 1] >> 32), uint32_t(words[w + 1]));
  }
};

tape to_binding_tape(parser &p, const input &in, size_t word_capacity = 1 << 16, size_t string_capacity = 1 << 16,
                     bool strings_in_input = false) {
  tape t;
  t.words.assign(word_capacity, 0);
  t.strings.assign(string_capacity, 0);
  binding_tape_buffer out{t.words.data(), t.words.size(), t.strings.data(), t.strings.size()};
  out.strings_in_input = strings_in_input;
  t.e = p.to_binding_tape(in, out);
  if (t.e.ok() || t.e.code == error_code::output_too_small) {
    t.words.resize(out.words_used);
    t.strings.resize(out.strings_used);
  }
  return t;
}

tape to_binding_tape(parser &p, const std::string &json, size_t word_capacity = 1 << 16, size_t string_capacity = 1 << 16) {
  return to_binding_tape(p, input::copy_of(json), word_capacity, string_capacity);
}

/** The scalar parser alone writing the tape. */
tape slow_tape(const std::string &json) {
  tape t;
  t.words.assign(json.size() + 16, 0);
  t.strings.assign(json.size() + 16, 0);
  binding_tape_buffer out{t.words.data(), t.words.size(), t.strings.data(), t.strings.size()};
  std::vector<uint64_t> open(1024 + 1);
  std::vector<uint8_t> scopes;
  internal::binding_tape_sink sink(&out, open.data());
  internal::scalar_parser<internal::binding_tape_sink> slow(reinterpret_cast<const uint8_t *>(json.data()), json.size(),
                                                    1024, sink, scopes);
  t.e = slow.parse_document();
  t.words.resize(sink.words());
  t.strings.resize(sink.strings());
  return t;
}

/** docs/checksum.md folded from a tape. */
uint64_t fold_tape(const tape &t, const std::string &json, size_t w, uint64_t h) {
  using namespace internal;
  switch (t.kind(w)) {
  case binding_tape_entry::object: {
    h = fold(h, tag_object_begin, 0);
    for (size_t k = w + 2; k < t.end(w);) {
      h = fold(h, tag_key, uint32_t(t.words[k + 1]));
      h = fold_tape(t, json, k + 2, h);
      k = (t.kind(k + 2) == binding_tape_entry::object || t.kind(k + 2) == binding_tape_entry::array) ? t.end(k + 2) : k + 4;
    }
    return fold(h, tag_object_end, 0);
  }
  case binding_tape_entry::array: {
    h = fold(h, tag_array_begin, 0);
    for (size_t k = w + 2; k < t.end(w);) {
      h = fold_tape(t, json, k, h);
      k = (t.kind(k) == binding_tape_entry::object || t.kind(k) == binding_tape_entry::array) ? t.end(k) : k + 2;
    }
    return fold(h, tag_array_end, 0);
  }
  case binding_tape_entry::string: return fold(h, tag_string, uint32_t(t.words[w + 1]));
  case binding_tape_entry::int64:
  case binding_tape_entry::uint64: return fold(h, tag_integer, t.words[w + 1]);
  case binding_tape_entry::float64: return fold(h, tag_double, t.words[w + 1]);
  case binding_tape_entry::big_number: {
    const auto *token = reinterpret_cast<const uint8_t *>(json.data()) + t.offset(w);
    return fold(h, tag_double, double_bits(number_token_to_double(token, t.words[w + 1])));
  }
  case binding_tape_entry::true_value: return fold(h, tag_true, 0);
  case binding_tape_entry::false_value: return fold(h, tag_false, 0);
  case binding_tape_entry::null_value: return fold(h, tag_null, 0);
  }
  return 0;
}

TEST(Tape, LayoutOfASmallDocument) {
  parser p;
  const std::string json = R"( {"a": [1, -2, 3.5, "x\n\u00e9"], "b": {}, "c": true, "d": null, "e": 18446744073709551615} )";
  tape t = to_binding_tape(p, json);
  ASSERT_TRUE(t.e.ok()) << t.e.message();
  ASSERT_EQ(t.kind(0), binding_tape_entry::object);
  EXPECT_EQ(t.offset(0), 1u);
  EXPECT_EQ(t.count(0), 5u);
  EXPECT_EQ(t.end(0), t.words.size());
  EXPECT_EQ(t.text(2), "a");
  EXPECT_EQ(t.offset(2), 2u); // the key's opening quote
  ASSERT_EQ(t.kind(4), binding_tape_entry::array);
  EXPECT_EQ(t.offset(4), 7u);
  EXPECT_EQ(t.count(4), 4u);
  EXPECT_EQ(t.end(4), 14u);
  EXPECT_EQ(t.kind(6), binding_tape_entry::int64);
  EXPECT_EQ(int64_t(t.words[7]), 1);
  EXPECT_EQ(t.offset(6), 8u);
  EXPECT_EQ(int64_t(t.words[9]), -2);
  EXPECT_EQ(t.kind(10), binding_tape_entry::float64);
  double d;
  std::memcpy(&d, &t.words[11], 8);
  EXPECT_EQ(d, 3.5);
  EXPECT_EQ(t.kind(12), binding_tape_entry::string);
  EXPECT_EQ(t.text(12), "x\n\xC3\xA9");
  EXPECT_EQ(t.words[12] & binding_tape_ascii, 0u);
  EXPECT_NE(t.words[2] & binding_tape_ascii, 0u); // "a"
  EXPECT_EQ(t.offset(12), json.find("\"x"));
  EXPECT_EQ(t.text(14), "b");
  EXPECT_EQ(t.kind(16), binding_tape_entry::object);
  EXPECT_EQ(t.count(16), 0u);
  EXPECT_EQ(t.end(16), 18u);
  EXPECT_EQ(t.kind(20), binding_tape_entry::true_value);
  EXPECT_EQ(t.kind(24), binding_tape_entry::null_value);
  EXPECT_EQ(t.kind(28), binding_tape_entry::uint64);
  EXPECT_EQ(t.words[29], UINT64_MAX);
}

TEST(Tape, WhatSimdjsonRefusesComesFromTheScalarParser) {
  parser p;
  const std::string json = R"([123456789012345678901234567890, -1e400, "\ud800x", "\ud83d\ude00", -9223372036854775808])";
  tape t = to_binding_tape(p, json);
  ASSERT_TRUE(t.e.ok()) << t.e.message();
  EXPECT_EQ(t.kind(2), binding_tape_entry::big_number);
  EXPECT_EQ(json.substr(t.offset(2), t.words[3]), "123456789012345678901234567890");
  EXPECT_EQ(t.kind(4), binding_tape_entry::big_number);
  EXPECT_EQ(json.substr(t.offset(4), t.words[5]), "-1e400");
  EXPECT_EQ(t.text(6), "\xED\xA0\x80x");
  EXPECT_NE(t.words[6] & binding_tape_lone_surrogate, 0u);
  EXPECT_EQ(t.text(8), "\xF0\x9F\x98\x80");
  EXPECT_EQ(t.words[8] & binding_tape_lone_surrogate, 0u);
  EXPECT_EQ(t.kind(10), binding_tape_entry::int64);
  EXPECT_EQ(int64_t(t.words[11]), INT64_MIN);
  for (const char *scalar : {"42", " \"s\" ", "true", "null", "-0.5"}) {
    tape s = to_binding_tape(p, scalar);
    ASSERT_TRUE(s.e.ok()) << scalar;
    EXPECT_EQ(s.words.size(), 2u);
  }
}

TEST(Tape, BothReadersWriteTheSameTapeOnTheCorpus) {
  parser p;
  for (const auto &path : list_files(data_directory() + "/jsonexamples", ".json")) {
    const std::string json = read_file(path);
    tape fast = to_binding_tape(p, json, json.size() + 16, json.size() + 16);
    ASSERT_TRUE(fast.e.ok()) << base_name(path) << ": " << fast.e.message();
    tape slow = slow_tape(json);
    ASSERT_TRUE(slow.e.ok()) << base_name(path);
    EXPECT_EQ(fast.words, slow.words) << base_name(path);
    EXPECT_EQ(fast.strings, slow.strings) << base_name(path);
    EXPECT_EQ(fold_tape(fast, json, 0, internal::checksum_seed), p.checksum(input::copy_of(json)).value())
        << base_name(path);
  }
}

TEST(Tape, EscapesOfEveryKindUnescapeAsTheScalarParserDoes) {
  // The walk unescapes strings itself (sixteen bytes at a time, escapes inline): every escape,
  // in runs and alone, at every position around the 16-byte blocks, in keys and in values.
  parser p;
  const char *pieces[] = {"\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\u0000", "\\u001f", "\\u00e9",
                          "\\u4E2D", "\\uffff", "\\ud83d\\ude00", "\xC3\xA9", "\xE4\xB8\xAD", "a", "bcdefghijklmnopq"};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 3000; i++) {
    std::string text;
    const int count = int(rng() % 24);
    for (int k = 0; k < count; k++) { text += pieces[rng() % (sizeof pieces / sizeof pieces[0])]; }
    const std::string json = "{\"" + text + "\": [\"" + text + "\", \"x" + text + "\"]}";
    tape fast = to_binding_tape(p, json);
    ASSERT_TRUE(fast.e.ok()) << json;
    tape slow = slow_tape(json);
    ASSERT_TRUE(slow.e.ok()) << json;
    EXPECT_EQ(fast.words, slow.words) << json;
    EXPECT_EQ(fast.strings, slow.strings) << json;
    // The sink's unescaper itself (the walk hands it the raw bytes past the opening quote).
    std::string raw = text + "\"" + std::string(64, ' ');
    std::vector<uint8_t> out(text.size() + 32);
    std::vector<uint64_t> words(2), open(1);
    binding_tape_buffer buffer{words.data(), words.size(), out.data(), out.size()};
    internal::binding_tape_sink sink(&buffer, open.data());
    ASSERT_TRUE(sink.escaped_string(reinterpret_cast<const uint8_t *>(raw.data()), 0, false)) << text;
    EXPECT_EQ(std::string(reinterpret_cast<const char *>(out.data()), sink.strings()), slow.text(2)) << text;
  }
  // Invalid escapes and lone surrogates: the validator's error, or the scalar parser's WTF-8.
  for (const char *bad : {"[\"\\u12\"]", "[\"\\u12G4\"]", "[\"\\q\"]", "[\"\\", "[\"\\u\"]"}) {
    tape t = to_binding_tape(p, bad);
    const error v = p.validate(input::copy_of(bad));
    ASSERT_FALSE(v.ok()) << bad;
    EXPECT_EQ(t.e.code, v.code) << bad;
    EXPECT_EQ(t.e.offset, v.offset) << bad;
  }
  for (const char *lone : {"[\"\\ud800\"]", "[\"\\udc00x\"]", "[\"\\ud83d\\u0041\"]", "[\"\\ud83d\\ud83d\\ude00\"]"}) {
    tape t = to_binding_tape(p, lone);
    ASSERT_TRUE(t.e.ok()) << lone;
    EXPECT_EQ(t.words, slow_tape(lone).words) << lone;
    EXPECT_NE(t.words[2] & binding_tape_lone_surrogate, 0u) << lone;
  }
}

TEST(Tape, AllAsciiLooksAtEveryByteAndNoneBeyond) {
  // Every length around the 16- and 64-byte steps and the 1 KB looks, one high byte at every
  // position; the bytes past the end (the caller's padding) are high and must not count.
  for (size_t n : {0, 1, 15, 16, 17, 63, 64, 65, 127, 200, 1023, 1024, 1025, 1087, 2048, 2100}) {
    std::vector<uint8_t> bytes(n + 64, 0xFF);
    std::fill(bytes.begin(), bytes.begin() + n, uint8_t('a'));
    EXPECT_TRUE(internal::all_ascii(bytes.data(), n)) << n;
    for (size_t at = 0; at < n; at++) {
      bytes[at] = 0x80;
      ASSERT_FALSE(internal::all_ascii(bytes.data(), n)) << n << " " << at;
      bytes[at] = 0x7F;
      ASSERT_TRUE(internal::all_ascii(bytes.data(), n)) << n << " " << at;
      bytes[at] = 'a';
    }
  }
}

TEST(Tape, AllAsciiListsEveryBackslashAndNoneBeyond) {
  // The list of an input's backslashes (for strings left in the input): every length around the
  // 16- and 64-byte steps, backslashes at random places and runs of them, the bytes past the end
  // backslashes too (they must not be listed), and a list longer than allowed said to be.
  std::mt19937_64 rng(13);
  for (size_t n : {0, 1, 15, 16, 17, 63, 64, 65, 127, 200, 1023, 1024, 1025, 1087, 2048, 2100}) {
    for (int round = 0; round < 40; round++) {
      std::vector<uint8_t> bytes(n + 64, '\\');
      std::vector<uint32_t> expected;
      const size_t every = 1 + rng() % 40;
      for (size_t at = 0; at < n; at++) {
        bytes[at] = rng() % every == 0 ? '\\' : 'a';
        if (bytes[at] == '\\') { expected.push_back(uint32_t(at)); }
      }
      for (size_t most : {expected.size(), expected.size() + 3, expected.size() > 0 ? expected.size() - 1 : 0}) {
        std::vector<uint32_t> list(most + 1, 7);
        bool listed = false;
        ASSERT_TRUE(internal::all_ascii(bytes.data(), n, list.data(), most, listed)) << n;
        ASSERT_EQ(listed, expected.size() <= most) << n << " " << most;
        if (listed) {
          expected.push_back(UINT32_MAX);
          ASSERT_TRUE(std::equal(expected.begin(), expected.end(), list.begin())) << n << " " << most;
          expected.pop_back();
        }
      }
      if (n > 0) { // not ASCII: said so, whatever the list
        bytes[rng() % n] = 0xC3;
        std::vector<uint32_t> list(n + 1);
        bool listed = false;
        EXPECT_FALSE(internal::all_ascii(bytes.data(), n, list.data(), n, listed)) << n;
      }
    }
  }
}

namespace {

/** A string's bytes on a tape written with strings_in_input: in `json`, or in the tape's strings. */
std::string resolved(const tape &t, const std::string &json, size_t w) {
  if ((t.words[w] & binding_tape_in_input) == 0) { return t.text(w); }
  return json.substr(size_t(t.words[w + 1] >> 32), uint32_t(t.words[w + 1]));
}

/**
 * The tape written with strings_in_input against the one written without: the same entries,
 * every string value with no escape in an all-ASCII input left in the input (flagged ASCII, its
 * offset there) and the same bytes, keys and the rest copied as before.
 */
void expect_same_strings(parser &p, const std::string &json, size_t capacity) {
  const tape copied = to_binding_tape(p, input::copy_of(json), capacity, capacity);
  const tape left = to_binding_tape(p, input::copy_of(json), capacity, capacity, true);
  ASSERT_EQ(left.e.code, copied.e.code) << json;
  ASSERT_EQ(left.e.offset, copied.e.offset) << json;
  if (!copied.e.ok()) { return; }
  ASSERT_EQ(left.words.size(), copied.words.size()) << json;
  const bool ascii = std::all_of(json.begin(), json.end(), [](char c) { return uint8_t(c) < 0x80; });
  for (size_t w = 0; w < copied.words.size(); w += 2) {
    const uint64_t flag = left.words[w] & binding_tape_in_input;
    ASSERT_EQ(left.words[w] & ~binding_tape_in_input & ~binding_tape_ascii,
              copied.words[w] & ~binding_tape_ascii) << json << " word " << w;
    if (copied.kind(w) != binding_tape_entry::string) {
      ASSERT_EQ(flag, 0u);
      ASSERT_EQ(left.words[w + 1], copied.words[w + 1]) << json << " word " << w;
      continue;
    }
    ASSERT_EQ(resolved(left, json, w), copied.text(w)) << json << " word " << w;
    const size_t quote = size_t(copied.offset(w));
    const size_t close = quote + 1 + uint32_t(copied.words[w + 1]);
    const bool plain = close <= json.size() && json.compare(quote + 1, close - quote - 1, copied.text(w)) == 0 &&
                       json[close] == '"';
    // Left in the input exactly where it could be: a value (not a key) with no escape, in an
    // ASCII input; then flagged ASCII. (Inputs with many backslashes copy all: checked apart.)
    if (flag != 0) {
      EXPECT_TRUE(ascii && plain) << json << " word " << w;
      EXPECT_NE(left.words[w] & binding_tape_ascii, 0u) << json << " word " << w;
      EXPECT_EQ(left.words[w + 1] >> 32, quote + 1) << json << " word " << w;
    }
  }
}

} // namespace

TEST(Tape, StringValuesLeftInTheInputReadAsTheCopiedOnes) {
  // With strings_in_input, string values with no escape stay where they are in the input:
  // keys, escaped strings and non-ASCII inputs copied as before. Random documents mixing
  // plain strings, escapes and white space before the next structural, on both kinds of arrays.
  parser p;
  const char *pieces[] = {"a", "bcdefghijklmnopqrstu", "\\n", "\\\"", "\\\\", "\\u0041", "\\u00e9", " ", "\xC3\xA9", "\"\""};
  const char *gaps[] = {"", " ", "\n\t ", "  \r\n"};
  std::mt19937_64 rng(17);
  for (int i = 0; i < 3000; i++) {
    const bool allow_high = rng() % 4 == 0;
    const auto text = [&]() {
      std::string t;
      const int count = int(rng() % 6);
      for (int k = 0; k < count; k++) {
        const char *piece = pieces[rng() % (sizeof pieces / sizeof pieces[0])];
        if (!allow_high && (uint8_t(piece[0]) >= 0x80)) { continue; }
        if (std::string(piece) == "\"\"") { continue; }
        t += piece;
      }
      return t;
    };
    const auto gap = [&]() { return std::string(gaps[rng() % (sizeof gaps / sizeof gaps[0])]); };
    std::string json = "{" + gap();
    const int members = 1 + int(rng() % 6);
    for (int m = 0; m < members; m++) {
      json += (m > 0 ? "," + gap() : "") + "\"" + text() + "\"" + gap() + ":" + gap();
      if (rng() % 3 == 0) {
        json += "[" + gap() + "\"" + text() + "\"" + gap() + "," + gap() + "\"" + text() + "\"" + gap() + "]";
      } else {
        json += "\"" + text() + "\"";
      }
      json += gap();
    }
    json += "}";
    for (size_t capacity : {size_t(1) << 16, json.size() + 2}) { expect_same_strings(p, json, capacity); }
  }
  for (const char *json : {R"(["a"])", R"(["a" ])", "[\"\"]", R"({"k":"v"})", R"([1,"x\"y",2])", "[\"x\\\\\"]", "[\"a\" , \"b\"]",
                           // Errors keep their offsets (the string's end is found from the next structural).
                           R"(["a" "b"])", R"(["a"x])", R"(["a",])", R"({"a" "b"})", R"(["abc)", "[\"a\"\u0001]"}) {
    expect_same_strings(p, json, 1 << 16);
  }
  const tape t = to_binding_tape(p, input::copy_of(std::string(R"({"key":"value","k2":"a\nb"})")), 1 << 16, 1 << 16, true);
  ASSERT_TRUE(t.e.ok());
  EXPECT_EQ(t.words[2] & binding_tape_in_input, 0u); // the key: copied
  EXPECT_NE(t.words[4] & binding_tape_in_input, 0u); // "value"
  EXPECT_EQ(t.words[5], (uint64_t(8) << 32) | 5);
  EXPECT_EQ(t.words[8] & binding_tape_in_input, 0u); // escaped: copied
  EXPECT_EQ(t.strings.size(), 3u + 2u + 3u); // key, k2, "a\nb"
}

TEST(Tape, StringsLeftInTheInputOnTheCorpus) {
  parser p;
  for (const auto &path : list_files(data_directory() + "/jsonexamples", ".json")) {
    const std::string json = read_file(path);
    expect_same_strings(p, json, json.size() + 16);
  }
  // More backslashes than one per 32 bytes: every string copied, as without the option.
  std::string json = "[";
  for (int i = 0; i < 200; i++) { json += std::string(i > 0 ? "," : "") + "\"\\n\",\"plain\""; }
  json += "]";
  const tape t = to_binding_tape(p, input::copy_of(json), 1 << 16, 1 << 16, true);
  ASSERT_TRUE(t.e.ok());
  for (size_t w = 2; w < t.words.size(); w += 2) { EXPECT_EQ(t.words[w] & binding_tape_in_input, 0u) << w; }
}

TEST(Tape, EachStringIsFlaggedAsciiExactlyWhenItIs) {
  // The walk tracks no top bits where the whole input is ASCII: there only an escape can make a
  // string non-ASCII. Documents of many strings, ASCII or not, one non-ASCII string among
  // ASCII ones at every place, raw or escaped; each string's flag as the scalar parser sets it
  // (exactly: ASCII, and only ASCII), with arrays that need no checks and arrays that do.
  parser p;
  const char *ascii[] = {"", "a", "abcdefghijklmnop", "abcdefghijklmnopq", "0123456789012345678901234567890123", "\\n\\t",
                         "\\u0041\\u007f", "x\\\\y"};
  const char *other[] = {"\xC3\xA9", "abcdefghijklmno\xC3\xA9", "\\u00e9", "\\u0080", "abcdefghijklmnopqrstuvwxyz\xE4\xB8\xAD",
                         "\\ud83d\\ude00", "\xF0\x9F\x98\x80"};
  std::mt19937_64 rng(11);
  for (int i = 0; i < 2000; i++) {
    const int count = 1 + int(rng() % 12);
    const int odd = int(rng() % (count + 1)); // count: none
    std::string json = "{\"k\":[";
    for (int k = 0; k < count; k++) {
      json += k > 0 ? "," : "";
      json += "\"";
      json += k == odd ? other[rng() % (sizeof other / sizeof other[0])] : ascii[rng() % (sizeof ascii / sizeof ascii[0])];
      json += "\"";
    }
    json += "]}";
    for (size_t capacity : {size_t(1) << 16, json.size() + 2}) { // roomy; too tight to skip the checks
      tape fast = to_binding_tape(p, json, capacity, capacity);
      ASSERT_TRUE(fast.e.ok()) << json;
      tape slow = slow_tape(json);
      ASSERT_TRUE(slow.e.ok()) << json;
      ASSERT_EQ(fast.words, slow.words) << json;
      for (int k = 0; k < count; k++) {
        const size_t w = 6 + 2 * size_t(k);
        const std::string text = fast.text(w);
        const bool is_ascii = std::all_of(text.begin(), text.end(), [](char c) { return uint8_t(c) < 0x80; });
        EXPECT_EQ((fast.words[w] & binding_tape_ascii) != 0, is_ascii) << json << " " << k;
      }
    }
  }
}

TEST(Tape, JsonTestSuiteAndJsonCheckerFilesAsTheValidatorSeesThem) {
  // The fast reader checks the grammar itself (structural_walk.h): on every file of JSONTestSuite
  // and JSON_checker, the tape is the scalar parser's where the validator accepts, and the error
  // is the validator's (code and offset) where it rejects.
  parser p;
  std::vector<std::string> paths = list_files(data_directory() + "/jsonchecker/minefield", ".json");
  for (const std::string &path : list_files(data_directory() + "/jsonchecker", ".json")) { paths.push_back(path); }
  ASSERT_GT(paths.size(), 300u);
  for (const std::string &path : paths) {
    const std::string json = read_file(path);
    tape t = to_binding_tape(p, json);
    const error v = p.validate(input::copy_of(json));
    if (v.ok()) {
      ASSERT_TRUE(t.e.ok()) << base_name(path) << ": " << t.e.message();
      tape slow = slow_tape(json);
      EXPECT_EQ(t.words, slow.words) << base_name(path);
      EXPECT_EQ(t.strings, slow.strings) << base_name(path);
    } else {
      EXPECT_EQ(t.e.code, v.code) << base_name(path);
      EXPECT_EQ(t.e.offset, v.offset) << base_name(path);
    }
  }
}

TEST(Tape, TruncatedAndDamagedCorpusFilesAsTheValidatorSeesThem) {
  parser p;
  std::mt19937_64 rng(12345);
  for (const auto &path : list_files(data_directory() + "/jsonexamples", ".json")) {
    std::string json = read_file(path);
    if (json.size() > 64 * 1024) { json.resize(64 * 1024); } // a prefix: invalid, mostly
    for (int round = 0; round < 60; round++) {
      std::string mutated = json;
      if (round % 3 == 0) {
        mutated.resize(rng() % (json.size() + 1));
      } else {
        mutated = mutate(json, rng);
      }
      tape t = to_binding_tape(p, mutated, mutated.size() + 16, mutated.size() + 16);
      const error v = p.validate(input::copy_of(mutated));
      if (v.ok()) {
        ASSERT_TRUE(t.e.ok()) << base_name(path) << " round " << round;
        tape slow = slow_tape(mutated);
        EXPECT_EQ(t.words, slow.words) << base_name(path) << " round " << round;
      } else {
        EXPECT_EQ(t.e.code, v.code) << base_name(path) << " round " << round;
        EXPECT_EQ(t.e.offset, v.offset) << base_name(path) << " round " << round;
      }
    }
  }
}

TEST(Tape, ArraysTooSmallSayWhatTheyNeed) {
  parser p;
  const std::string json = R"({"key": ["a string", "another", [1, 2, 3], {"x": "y"}]})";
  tape full = to_binding_tape(p, json);
  ASSERT_TRUE(full.e.ok());
  for (size_t words : {size_t(0), size_t(2), size_t(7), full.words.size() - 1}) {
    tape small = to_binding_tape(p, json, words, 1 << 10);
    EXPECT_EQ(small.e.code, error_code::output_too_small) << words;
    EXPECT_EQ(small.words.size(), full.words.size());
  }
  tape few_bytes = to_binding_tape(p, json, 1 << 10, 5);
  EXPECT_EQ(few_bytes.e.code, error_code::output_too_small);
  EXPECT_EQ(few_bytes.strings.size(), full.strings.size());
  tape exact = to_binding_tape(p, json, full.words.size(), full.strings.size());
  ASSERT_TRUE(exact.e.ok()) << error_name(exact.e.code) << " " << full.words.size() << " " << full.strings.size();
  EXPECT_EQ(exact.words, full.words);
}

TEST(Tape, ErrorsHaveTheValidatorsOffsets) {
  parser p;
  for (const char *bad : {"[1,]", "{\"a\" 1}", "[\"\\x\"]", "[1 2]", "", "  ", "{\"a\":[}", "[\"\x01\"]", "01",
                          "[1e]", "\xEF\xBB\xBF[]", "[\"\xC3\"]", "tru", "{}x"}) {
    tape t = to_binding_tape(p, bad);
    const error v = p.validate(input::copy_of(bad));
    ASSERT_FALSE(v.ok()) << bad;
    EXPECT_EQ(t.e.code, v.code) << bad;
    EXPECT_EQ(t.e.offset, v.offset) << bad;
  }
  EXPECT_EQ(to_binding_tape(p, std::string(1025, '[') + std::string(1025, ']')).e.code, error_code::depth_limit);
}

// The walk skips its capacity checks where the words hold two per structural and the strings
// the input's bytes and 16 more (parser::to_binding_tape). Arrays of exactly that size, on their own
// heap blocks so that AddressSanitizer sees a write past them: strings that end the input,
// escapes at a string's end, short and long ones; the tape equals the scalar parser's.
TEST(Tape, TheUncheckedWalkStaysInArraysOfItsBound) {
  parser p;
  std::vector<std::string> docs;
  for (size_t n = 0; n <= 70; n++) {
    docs.push_back("[\"" + std::string(n, 'a') + "\"]");
    docs.push_back("{\"" + std::string(n, 'k') + "\":\"" + std::string(n, 'v') + "\\n\"}");
    docs.push_back("[\"" + std::string(n, 'e') + "\\u00e9\\\"\",\"\xC3\xA9" + std::string(n % 17, 'x') + "\"]");
  }
  docs.push_back("[1,2,3,4,5,6,7,8,9,0]");
  docs.push_back("[[],{},[[]],\"\",true,false,null,-1.5e3]");
  for (const std::string &json : docs) {
    const tape checked = slow_tape(json); // the scalar parser's, checked
    ASSERT_TRUE(checked.e.ok()) << json;
    auto words = std::make_unique<uint64_t[]>(2 * json.size()); // at least two per structural
    auto strings = std::make_unique<uint8_t[]>(json.size() + 16);
    binding_tape_buffer out{words.get(), 2 * json.size(), strings.get(), json.size() + 16};
    ASSERT_TRUE(p.to_binding_tape(input::copy_of(json), out).ok()) << json;
    ASSERT_EQ(out.words_used, checked.words.size()) << json;
    ASSERT_EQ(out.strings_used, checked.strings.size()) << json;
    EXPECT_TRUE(std::equal(checked.words.begin(), checked.words.end(), words.get())) << json;
    EXPECT_TRUE(std::equal(checked.strings.begin(), checked.strings.end(), strings.get())) << json;
  }
}

// An input with no padding (input::copy_of) is copied next to zeros before it is parsed, and
// read no further than its end. Each document here ends just before a page that cannot be read
// (or `padding` bytes, or one byte fewer, before it), the bytes between filled with what would
// lead a reader on (digits, letters, a quote, a backslash, high bytes): no read may reach that
// page, and the tape, or the error and its offset, must be those of the document padded with
// zeros. (The copy is what keeps the walk inside the input when another thread changes the
// input meanwhile.)
TEST(Tape, UnpaddedInputsAreReadNoFurtherThanTheirEnd) {
  const guarded_page pages;
  ASSERT_TRUE(pages.ok());
  const std::vector<std::string> docs = {
      R"({"a":[1,2.5,-3e10,true,false,null,"x\u00e9y\n"],"b":{}})", "[1]", "[1]   ", "[[[]]]", "{}",
      "[\"" + std::string(300, 'p') + "\"]", "[12345678901234567890123]", "[1.7976931348623157e309]",
      "[\"\\ud83d\\ude00\"]", R"({"users":[{"id":1,"name":"x"}]})",
      // not JSON, or not where the walk takes it: each ends where a reader could run on
      "[1,2,3", "{\"a\":1", "[tru", "[fals", "[nul", "[\"abc", "[\"a\\u12", "[\"\\", "[1.5e", "[-", "[1]2",
      "{\"a\":\"b\"}x", "[1,2,3]]", "12345", "\"str\"", "true", "[\"a\"", "[0x", "{\"a\":tr"};
  parser p;
  for (const std::string &json : docs) {
    const tape expected = to_binding_tape(p, padded_copy(json, '\0').in()); // the same document padded with zeros
    for (const uint8_t fill : {uint8_t('1'), uint8_t('e'), uint8_t('"'), uint8_t('\\'), uint8_t('a'), uint8_t(0xFF)}) {
      for (const size_t gap : {size_t(padding), size_t(padding - 1), size_t(0)}) {
        uint8_t *const at = pages.end() - gap - json.size();
        std::memset(pages.begin(), fill, pages.size());
        std::memcpy(at, json.data(), json.size());
        const tape t = to_binding_tape(p, input::copy_of(at, json.size()));
        ASSERT_EQ(t.e.code, expected.e.code) << json << " gap " << gap << " fill " << int(fill);
        ASSERT_EQ(t.e.offset, expected.e.offset) << json << " gap " << gap;
        if (t.e.ok()) {
          EXPECT_EQ(t.words, expected.words) << json;
          EXPECT_EQ(t.strings, expected.strings) << json;
        }
      }
    }
  }
}

// The sink keeps a slot per open container (max_depth of them, and one for the root): a
// document exactly that deep, on both readers (a number past 64 bits sends it to the scalar
// parser), with every level's count and end, and one level more refused. The sanitizer build
// checks the slots' bounds.
TEST(Tape, NestingUpToTheDepthLimitOnBothReaders) {
  for (const uint32_t depth : {1u, 2u, 3u, 64u, 1024u}) {
    parser p(parser_options{depth});
    for (const std::string number : {"1", "18446744073709551616"}) {
      // Arrays at even levels ([0, ...]), objects at odd ones ({"k": ...}); the innermost holds
      // the number (and a string where it is an array).
      std::string json = (depth - 1) % 2 == 0 ? "[" + number + ",\"x\"]" : "{\"k\":" + number + "}";
      for (uint32_t d = depth - 1; d-- > 0;) { json = d % 2 == 0 ? "[0," + json + "]" : "{\"k\":" + json + "}"; }
      tape t = to_binding_tape(p, json);
      ASSERT_TRUE(t.e.ok()) << depth << " " << error_name(t.e.code);
      for (uint32_t d = 0; d < depth; d++) {
        const size_t w = 4 * size_t(d); // a container, then 0 (or a key), then the next level
        const bool array = d % 2 == 0;
        ASSERT_EQ(t.kind(w), array ? binding_tape_entry::array : binding_tape_entry::object) << depth << " " << d;
        EXPECT_EQ(t.end(w), t.words.size()) << depth << " " << d; // each closes at the very end
        EXPECT_EQ(t.count(w), array ? 2u : 1u) << depth << " " << d;
      }
      const size_t number_at = 4 * size_t(depth - 1) + ((depth - 1) % 2 == 0 ? 2 : 4); // past the key in an object
      EXPECT_EQ(t.kind(number_at), number.size() > 1 ? binding_tape_entry::big_number : binding_tape_entry::int64) << depth;
    }
    const std::string deeper = std::string(depth + 1, '[') + std::string(depth + 1, ']');
    EXPECT_EQ(to_binding_tape(p, deeper).e.code, error_code::depth_limit) << depth;
  }
}

} // namespace
} // namespace simdbridge::test
