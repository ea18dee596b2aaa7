// SPDX-License-Identifier: Apache-2.0
// JSON to MessagePack and back: the encodings byte for byte, the corpus round trip, streams on
// any number of threads, and hostile MessagePack (truncations, bad bytes, length claims, nesting).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <simdjson.h>

#include "msgpack/blocks.h"
#include "parser_state.h"
#include "simdbridge/msgpack.h"
#include "test_support.h"

namespace simdbridge {
namespace {

/** The bytes of hex digits, spaces between them ignored. */
std::string from_hex(std::string hex) {
  hex.erase(std::remove(hex.begin(), hex.end(), ' '), hex.end());
  return test::from_hex(hex);
}

std::string packed(const std::string &json, msgpack_options o = {}) {
  parser p;
  std::vector<uint8_t> out;
  const msgpack_error e = json_to_msgpack(p, input::copy_of(json), o, out);
  EXPECT_TRUE(e.ok()) << json << ": " << e.e.message() << " at " << e.e.offset;
  return std::string(out.begin(), out.end());
}

std::string hex(const std::string &bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string unpacked(const std::string &msgpack, msgpack_options o = {}) {
  std::vector<uint8_t> out;
  const msgpack_error e = msgpack_to_json(input::copy_of(msgpack), o, out);
  EXPECT_TRUE(e.ok()) << hex(msgpack) << ": " << e.e.message() << " at " << e.e.offset;
  return std::string(out.begin(), out.end());
}

msgpack_error unpack_error(const std::string &msgpack, msgpack_options o = {}) {
  std::vector<uint8_t> out;
  const msgpack_error e = msgpack_to_json(input::copy_of(msgpack), o, out);
  EXPECT_TRUE(out.empty() || e.ok());
  return e;
}

TEST(JsonToMsgpack, IntegersTakeTheirSmallestForm) {
  // As msgpack.packb(json.loads(x)) writes them: positive integers unsigned.
  const std::pair<const char *, const char *> cases[] = {
      {"0", "00"},
      {"127", "7f"},
      {"128", "cc80"},
      {"255", "ccff"},
      {"256", "cd0100"},
      {"65535", "cdffff"},
      {"65536", "ce00010000"},
      {"4294967295", "ceffffffff"},
      {"4294967296", "cf0000000100000000"},
      {"9223372036854775807", "cf7fffffffffffffff"},
      {"9223372036854775808", "cf8000000000000000"},
      {"18446744073709551615", "cfffffffffffffffff"},
      {"-1", "ff"},
      {"-32", "e0"},
      {"-33", "d0df"},
      {"-128", "d080"},
      {"-129", "d1ff7f"},
      {"-32768", "d18000"},
      {"-32769", "d2ffff7fff"},
      {"-2147483648", "d280000000"},
      {"-2147483649", "d3ffffffff7fffffff"},
      {"-9223372036854775808", "d38000000000000000"},
      {"-0", "00"}, // json.loads gives int 0
  };
  for (const auto &[json, expected] : cases) { EXPECT_EQ(hex(packed(json)), expected) << json; }
}

TEST(JsonToMsgpack, OtherNumbersAreFloat64) {
  EXPECT_EQ(hex(packed("1.0")), "cb3ff0000000000000");
  EXPECT_EQ(hex(packed("-0.0")), "cb8000000000000000");
  EXPECT_EQ(hex(packed("2.5e0")), "cb4004000000000000");
  EXPECT_EQ(hex(packed("1e400")), "cb7ff0000000000000");  // past the double range: inf, as float()
  EXPECT_EQ(hex(packed("-1e400")), "cbfff0000000000000");
  EXPECT_EQ(hex(packed("18446744073709551616")), "cb43f0000000000000"); // 2^64: past 64 bits
  EXPECT_EQ(hex(packed("-9223372036854775809")), "cbc3e0000000000000");
}

TEST(JsonToMsgpack, StringsAndContainersTakeTheSmallestHeader) {
  const auto str = [](size_t n) { return "\"" + std::string(n, 'x') + "\""; };
  EXPECT_EQ(hex(packed(str(0))), "a0");
  EXPECT_EQ(hex(packed(str(31))).substr(0, 2), "bf");
  EXPECT_EQ(hex(packed(str(32))).substr(0, 4), "d920");
  EXPECT_EQ(hex(packed(str(255))).substr(0, 4), "d9ff");
  EXPECT_EQ(hex(packed(str(256))).substr(0, 6), "da0100");
  EXPECT_EQ(hex(packed(str(65535))).substr(0, 6), "daffff");
  EXPECT_EQ(hex(packed(str(65536))).substr(0, 10), "db00010000");
  EXPECT_EQ(packed(str(65536)).size(), 65536u + 5);
  const auto array = [](size_t n) {
    std::string s = "[";
    for (size_t i = 0; i < n; i++) { s += i ? ",0" : "0"; }
    return s + "]";
  };
  EXPECT_EQ(hex(packed(array(0))), "90");
  EXPECT_EQ(hex(packed(array(15))).substr(0, 2), "9f");
  EXPECT_EQ(hex(packed(array(16))).substr(0, 6), "dc0010");
  EXPECT_EQ(hex(packed(array(65535))).substr(0, 6), "dcffff");
  EXPECT_EQ(hex(packed(array(65536))).substr(0, 10), "dd00010000");
  std::string object = "{";
  for (int i = 0; i < 16; i++) { object += (i ? ",\"" : "\"") + std::to_string(i) + "\":null"; }
  EXPECT_EQ(hex(packed(object + "}")).substr(0, 8), "de0010a1");
  EXPECT_EQ(hex(packed(R"({"a":[1,2.5],"b":{"c":true,"d":false,"e":null},"é":"\u00e9\n"})")),
            "83a16192" "01" "cb4004000000000000" "a16283a163c3a164c2a165c0" "a2c3a9" "a3c3a90a");
}

/**
 * `json`'s MessagePack from the structural walk (expected to take it), and from the binding tape:
 * a parser whose string length limit is just under the document's takes the tape route for it,
 * and no string of the document can reach that limit.
 */
void expect_walk_writes_the_tapes_bytes(std::string json, const std::string &what) {
  json.resize(std::max<size_t>(json.size(), 4), ' '); // room for a limit of at least 1
  parser walking;
  std::vector<uint8_t> walked, taped;
  ASSERT_TRUE(internal::walked_msgpack(walking, input::copy_of(json), walked)) << what;
  parser_options limited;
  limited.max_string_length = json.size() - 3;
  parser taping(limited);
  const msgpack_error e = json_to_msgpack(taping, input::copy_of(json), {}, taped);
  ASSERT_TRUE(e.ok()) << what << ": " << e.e.message();
  EXPECT_EQ(hex(std::string(walked.begin(), walked.end())), hex(std::string(taped.begin(), taped.end()))) << what;
}

TEST(JsonToMsgpack, TheStructuralWalkWritesWhatTheTapeWrites) {
  const auto str = [](size_t n, const std::string &unit) {
    std::string s = "\"";
    while (s.size() < n + 1) { s += unit; }
    return s + "\"";
  };
  const auto array = [](size_t n, const std::string &element) {
    std::string s = "[";
    for (size_t i = 0; i < n; i++) { s += (i ? "," : "") + element; }
    return s + "]";
  };
  const auto object = [](size_t n, const std::string &value) {
    std::string s = "{";
    for (size_t i = 0; i < n; i++) { s += (i ? ",\"" : "\"") + std::to_string(i) + "\":" + value; }
    return s + "}";
  };
  // Headers at each size boundary: strings as they are and with escapes (unescaped after a
  // fixstr's header, then moved on), containers wide and nested in wide ones.
  for (size_t n : {0, 1, 15, 16, 17, 31, 32, 33, 255, 256, 257, 65535, 65536, 65537}) {
    const std::string size = std::to_string(n);
    expect_walk_writes_the_tapes_bytes("[" + str(n, "x") + "]", "string of " + size);
    expect_walk_writes_the_tapes_bytes("[" + str(n, "\\n") + "," + str(n, "\\u00e9y") + "]", "escaped " + size);
    expect_walk_writes_the_tapes_bytes("{" + str(n, "\\\"") + ":" + str(n, "é") + "}", "key and UTF-8 " + size);
    expect_walk_writes_the_tapes_bytes(array(n, "0"), "array of " + size);
    expect_walk_writes_the_tapes_bytes(object(n, "[]"), "object of " + size);
  }
  expect_walk_writes_the_tapes_bytes(array(17, array(16, object(3, array(20, "1.5")))), "wide in wide");
  expect_walk_writes_the_tapes_bytes(array(3, object(70000, "{}")), "wider than 65535");
  // MessagePack at its largest for the text: 9 bytes for each 3-byte float.
  expect_walk_writes_the_tapes_bytes(array(1000, "1e1"), "floats");
  expect_walk_writes_the_tapes_bytes(object(1000, "1e1"), "floats in an object");
  expect_walk_writes_the_tapes_bytes(R"([-0,-0.0,0,-1,-33,127,128,255,256,65535,65536,4294967295,4294967296,)"
                                     R"(-2147483649,9223372036854775807,18446744073709551615,-9223372036854775808,)"
                                     R"(1e308,-1e-308,0.1,true,false,null,"",{},[]])",
                                     "every scalar");
  size_t files = 0;
  for (const std::string &path : test::list_files(test::data_directory() + "/jsonexamples", ".json")) {
    expect_walk_writes_the_tapes_bytes(test::read_file(path), test::base_name(path));
    files++;
  }
  EXPECT_GE(files, 20u);
  // What the walk leaves to the tape: a scalar root, a number past 64 bits, a lone surrogate,
  // an error.
  parser p;
  std::vector<uint8_t> out;
  for (const char *json : {"\"x\"", "[123456789012345678901234567890]", R"(["\ud800"])", "[1,]", "{\"a\" 1}"}) {
    EXPECT_FALSE(internal::walked_msgpack(p, input::copy_of(std::string(json)), out)) << json;
  }
}

TEST(JsonToMsgpack, DuplicateKeysAreKeptInOrder) {
  EXPECT_EQ(hex(packed(R"({"a":1,"b":2,"a":3})")), "83a16101a16202a16103");
}

TEST(JsonToMsgpack, ErrorsHaveTheirOffsets) {
  parser p;
  std::vector<uint8_t> out;
  msgpack_error e = json_to_msgpack(p, input::copy_of(R"({"a":})"), {}, out);
  EXPECT_EQ(e.e.code, error_code::expected_value);
  EXPECT_EQ(e.e.offset, 5u);
  EXPECT_EQ(e.document, 1u);
  // A lone surrogate has no UTF-8, so no MessagePack string (msgpack-python refuses it too).
  e = json_to_msgpack(p, input::copy_of(R"(["ok","\ud800"])"), {}, out);
  EXPECT_EQ(e.e.code, error_code::unsupported_value);
  EXPECT_EQ(e.e.offset, 6u);
  EXPECT_TRUE(out.empty());
  // The parser's limits apply.
  parser shallow(parser_options{2});
  e = json_to_msgpack(shallow, input::copy_of("[[[1]]]"), {}, out);
  EXPECT_EQ(e.e.code, error_code::depth_limit);
}

TEST(JsonToMsgpack, NdjsonIsAValuePerLineOnAnyNumberOfThreads) {
  std::string ndjson;
  std::string expected;
  for (int i = 0; i < 3000; i++) {
    const std::string line = "{\"i\":" + std::to_string(i) + ",\"s\":\"" + std::string(size_t(i % 40), 'y') + "\"}";
    ndjson += line + (i % 7 == 0 ? "\r\n\n  \n" : "\n");
    expected += packed(line);
  }
  for (unsigned threads : {1u, 2u, 4u}) {
    for (size_t block : {size_t(1), size_t(100), size_t(4096), size_t(1) << 20}) {
      msgpack_options o;
      o.ndjson = true;
      o.threads = threads;
      o.block_size = block;
      EXPECT_EQ(packed(ndjson, o), expected) << threads << " threads, blocks of " << block;
    }
  }
  // The first error in input order wins, whatever thread found it, with its document and offset.
  std::string bad = ndjson;
  const size_t at = bad.find("{\"i\":2500,");
  bad[at + 5] = 'x';
  for (unsigned threads : {1u, 3u}) {
    parser p;
    std::vector<uint8_t> out;
    msgpack_options o;
    o.ndjson = true;
    o.threads = threads;
    o.block_size = 64;
    const msgpack_error e = json_to_msgpack(p, input::copy_of(bad), o, out);
    EXPECT_EQ(e.e.code, error_code::expected_value) << threads;
    EXPECT_EQ(e.e.offset, at + 5) << threads;
    EXPECT_EQ(e.document, 2501u) << threads;
    EXPECT_TRUE(out.empty());
  }
}

TEST(JsonToMsgpack, AParserUsedAgainGivesEachCallItsOwnBytesThreadsAndLimits) {
  // The parser keeps its converters, their parsers and buffers between calls: each call must
  // still be its own, on as many threads as it asks, under the limits set since.
  std::string ndjson, expected;
  for (int i = 0; i < 500; i++) {
    const std::string line =
        "{\"i\":" + std::to_string(i) + ",\"a\":[[[[[\"" + std::string(size_t(i % 50), 'z') + "\"]]]]]}";
    ndjson += line + "\n";
    expected += packed(line);
  }
  // Six levels deep: under a limit of five, every thread refuses its lines, the first in order.
  parser_options shallow;
  shallow.max_depth = 5;
  parser p(shallow);
  std::vector<uint8_t> out;
  msgpack_options o;
  o.ndjson = true;
  o.block_size = 256;
  o.threads = 3;
  const msgpack_error e = json_to_msgpack(p, input::copy_of(ndjson), o, out);
  EXPECT_EQ(e.e.code, error_code::depth_limit);
  EXPECT_EQ(e.document, 1u);
  EXPECT_TRUE(out.empty());
  // The default limit again: the threads' parsers take it too (kept at five, they would refuse).
  ASSERT_TRUE(p.set_options({}).ok());
  for (unsigned threads : {3u, 1u, 2u, 3u}) {
    o.threads = threads;
    ASSERT_TRUE(json_to_msgpack(p, input::copy_of(ndjson), o, out).ok()) << threads;
    EXPECT_EQ(std::string(out.begin(), out.end()), expected) << threads << " threads";
    ASSERT_TRUE(json_to_msgpack(p, input::copy_of(R"({"one":[1,2]})"), {}, out).ok());
    EXPECT_EQ(hex(std::string(out.begin(), out.end())), "81a36f6e65920102");
  }
  // trim() frees what the parser kept; the next call makes it again.
  ASSERT_NE(internal::parser_internals::state(p)->msgpack, nullptr);
  p.trim();
  EXPECT_EQ(internal::parser_internals::state(p)->msgpack, nullptr);
  ASSERT_TRUE(json_to_msgpack(p, input::copy_of(ndjson), o, out).ok());
  EXPECT_EQ(std::string(out.begin(), out.end()), expected);
}

TEST(JsonToMsgpack, AnOutputPastFourMegabytesIsCopiedOutOnTheThreadsInOrder) {
  // Past 4 MB, the blocks' outputs are copied into the caller's memory on the threads asked
  // for, in runs of blocks: the bytes must be those of one thread, both ways.
  std::string ndjson;
  for (int i = 0; i < 60000; i++) {
    const std::string text(size_t(40 + i % 61), char('a' + i % 26));
    ndjson += "{\"i\":" + std::to_string(i) + ",\"s\":\"" + text + "\"}\n";
  }
  ASSERT_GT(ndjson.size(), size_t(5) << 20);
  parser p;
  msgpack_options o;
  o.ndjson = true;
  o.threads = 1;
  std::vector<uint8_t> one, many, text_one, text_many;
  ASSERT_TRUE(json_to_msgpack(p, input::copy_of(ndjson), o, one).ok());
  msgpack_options back;
  back.stream = true;
  back.threads = 1;
  ASSERT_TRUE(msgpack_to_json(input::copy_of(one.data(), one.size()), back, text_one).ok());
  EXPECT_EQ(std::string(text_one.begin(), text_one.end()), ndjson);
  for (unsigned threads : {2u, 3u, 7u}) {
    for (size_t block : {size_t(1) << 16, size_t(1) << 20}) {
      o.threads = back.threads = threads;
      o.block_size = back.block_size = block;
      ASSERT_TRUE(json_to_msgpack(p, input::copy_of(ndjson), o, many).ok());
      EXPECT_TRUE(many == one) << threads << " threads, blocks of " << block;
      ASSERT_TRUE(msgpack_to_json(input::copy_of(one.data(), one.size()), back, text_many).ok());
      EXPECT_TRUE(text_many == text_one) << threads << " threads, blocks of " << block;
    }
  }
}

TEST(MsgpackToJson, EveryKindOfValue) {
  EXPECT_EQ(unpacked(from_hex("c0")), "null");
  EXPECT_EQ(unpacked(from_hex("c3")), "true");
  EXPECT_EQ(unpacked(from_hex("c2")), "false");
  EXPECT_EQ(unpacked(from_hex("7f")), "127");
  EXPECT_EQ(unpacked(from_hex("e0")), "-32");
  EXPECT_EQ(unpacked(from_hex("ccff")), "255");
  EXPECT_EQ(unpacked(from_hex("cdffff")), "65535");
  EXPECT_EQ(unpacked(from_hex("ceffffffff")), "4294967295");
  EXPECT_EQ(unpacked(from_hex("cfffffffffffffffff")), "18446744073709551615");
  EXPECT_EQ(unpacked(from_hex("d080")), "-128");
  EXPECT_EQ(unpacked(from_hex("d18000")), "-32768");
  EXPECT_EQ(unpacked(from_hex("d280000000")), "-2147483648");
  EXPECT_EQ(unpacked(from_hex("d38000000000000000")), "-9223372036854775808");
  // Floats as Python's repr writes them; NaN and the infinities as null.
  EXPECT_EQ(unpacked(from_hex("cb3ff0000000000000")), "1.0");
  EXPECT_EQ(unpacked(from_hex("cb3ee4f8b588e368f1")), "1e-05");
  EXPECT_EQ(unpacked(from_hex("cb4341c37937e08000")), "1e+16");
  EXPECT_EQ(unpacked(from_hex("ca3f000000")), "0.5");
  EXPECT_EQ(unpacked(from_hex("ca3dcccccd")), "0.10000000149011612"); // float32 0.1, widened
  EXPECT_EQ(unpacked(from_hex("cb7ff8000000000000")), "null");
  EXPECT_EQ(unpacked(from_hex("cbfff0000000000000")), "null");
  EXPECT_EQ(unpacked(from_hex("a3c3a90a")), "\"é\\n\"");
  EXPECT_EQ(unpacked(from_hex("d903616263")), "\"abc\"");
  EXPECT_EQ(unpacked(from_hex("c403010203")), "\"AQID\"");
  EXPECT_EQ(unpacked(from_hex("c4020102")), "\"AQI=\"");
  EXPECT_EQ(unpacked(from_hex("c40101")), "\"AQ==\"");
  EXPECT_EQ(unpacked(from_hex("90")), "[]");
  EXPECT_EQ(unpacked(from_hex("80")), "{}");
  EXPECT_EQ(unpacked(from_hex("9301 9190 80")), "[1,[[]],{}]");
  EXPECT_EQ(unpacked(from_hex("82a161 92 01 c0 a162 81 a163 c3")), R"({"a":[1,null],"b":{"c":true}})");
  // Keys that are not strings, as strings.
  EXPECT_EQ(unpacked(from_hex("86 01 02 ff 03 c3 04 c0 05 cb3ff8000000000000 06 c40101 07")),
            R"({"1":2,"-1":3,"true":4,"null":5,"1.5":6,"AQ==":7})");
}

TEST(MsgpackToJson, OptionsDecideWhatJsonCannotHold) {
  EXPECT_EQ(unpack_error(from_hex("d6ff00000001")).e.code, error_code::msgpack_unsupported); // a timestamp
  msgpack_options o;
  o.ext_as_null = true;
  EXPECT_EQ(unpacked(from_hex("92 d6ff00000001 c7030501 0203"), o), "[null,null]");
  o = {};
  o.binary_as_base64 = false;
  EXPECT_EQ(unpack_error(from_hex("91c40101"), o).e.code, error_code::msgpack_unsupported);
  EXPECT_EQ(unpack_error(from_hex("91c40101"), o).e.offset, 1u);
  EXPECT_EQ(unpack_error(from_hex("a2c328")).e.code, error_code::invalid_utf8);
  o = {};
  o.validate_utf8 = false;
  EXPECT_EQ(unpacked(from_hex("a2c328"), o), "\"\xc3(\"");
  EXPECT_EQ(unpack_error(from_hex("81 9101 02")).e.code, error_code::msgpack_unsupported); // an array as a key
}

TEST(MsgpackToJson, HostileInputIsAnErrorWithItsOffset) {
  EXPECT_EQ(unpack_error("").e.code, error_code::empty_input);
  EXPECT_EQ(unpack_error(from_hex("c1")).e.code, error_code::msgpack_invalid);
  EXPECT_EQ(unpack_error(from_hex("9201c1")).e.offset, 2u);
  EXPECT_EQ(unpack_error(from_hex("0101")).e.code, error_code::trailing_content);
  EXPECT_EQ(unpack_error(from_hex("0101")).e.offset, 1u);
  // Lengths the input cannot back: refused before anything is read or made for them.
  for (const char *claim : {"ddffffffff", "dfffffffff", "dbffffffff00", "c6ffffffff", "c9ffffffff01", "dc0003 01 02"}) {
    const msgpack_error e = unpack_error(from_hex(claim));
    EXPECT_EQ(e.e.code, error_code::msgpack_truncated) << claim;
    EXPECT_EQ(e.e.offset, 0u) << claim;
  }
  // Nesting past the limit.
  const std::string deep(100000, char(0x91));
  EXPECT_EQ(unpack_error(deep + std::string(1, '\0')).e.code, error_code::depth_limit);
  msgpack_options o;
  o.max_depth = 3;
  EXPECT_EQ(unpacked(from_hex("91919100"), o), "[[[0]]]");
  EXPECT_EQ(unpack_error(from_hex("9191919100"), o).e.code, error_code::depth_limit);
  EXPECT_EQ(unpack_error(from_hex("9191919190"), o).e.code, error_code::depth_limit);
  // Every prefix of a valid value is truncated, never read past.
  const std::string whole = from_hex("83a161 92 01 cb4004000000000000 a162 83 a163 c3 a164 c4020102 a165 d38000000000000000"
                                     "a2c3a9 dc0002 ca3f000000 d903616263");
  ASSERT_FALSE(unpacked(whole).empty());
  for (size_t n = 1; n < whole.size(); n++) {
    const std::string prefix = whole.substr(0, n);
    std::vector<uint8_t> exact(prefix.begin(), prefix.end()); // no byte past the end to read
    std::vector<uint8_t> out;
    const msgpack_error e = msgpack_to_json(input::copy_of(exact.data(), exact.size()), {}, out);
    EXPECT_EQ(e.e.code, error_code::msgpack_truncated) << n;
  }
}

TEST(MsgpackToJson, Utf8IsCheckedAsSimdjsonChecksIt) {
  // Short strings are checked by the converter itself, long ones by simdjson: both must agree
  // with simdjson on every string, valid or not, of every length around the switch (64 bytes).
  std::mt19937_64 rng(7);
  const std::vector<std::string> pieces = {"a", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc0\xaf",
                                           "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf5", "\x80", "\xc3",
                                           "\xe2\x82", "\xf0\x9f\x98", "\xff"};
  for (int round = 0; round < 20000; round++) {
    std::string s;
    const size_t target = size_t(rng() % 90);
    while (s.size() < target) { s += rng() % 4 ? "x" : pieces[rng() % pieces.size()]; }
    std::string value = "\xdb" + std::string(1, char(s.size() >> 24)) + char(s.size() >> 16) + char(s.size() >> 8) +
                        char(s.size()) + s;
    std::vector<uint8_t> out;
    const bool valid = simdjson::validate_utf8(s.data(), s.size());
    const msgpack_error e = msgpack_to_json(input::copy_of(value), {}, out);
    EXPECT_EQ(e.ok(), valid) << hex(s);
    if (!valid) { EXPECT_EQ(e.e.code, error_code::invalid_utf8) << hex(s); }
  }
}

TEST(MsgpackToJson, RandomBytesNeverCrash) {
  std::mt19937_64 rng(2026);
  for (int round = 0; round < 20000; round++) {
    std::vector<uint8_t> bytes(size_t(rng() % 64));
    for (uint8_t &b : bytes) { b = uint8_t(rng()); }
    std::vector<uint8_t> out;
    msgpack_options o;
    o.stream = round % 2 == 1;
    const msgpack_error e = msgpack_to_json(input::copy_of(bytes.data(), bytes.size()), o, out);
    if (e.ok() && !o.stream) { // what it wrote is JSON that packs back
      parser p;
      std::vector<uint8_t> again;
      EXPECT_TRUE(json_to_msgpack(p, input::copy_of(out.data(), out.size()), {}, again).ok());
    }
  }
}

TEST(MsgpackToJson, StreamsAreALinePerValueOnAnyNumberOfThreads) {
  std::string values, expected;
  std::vector<size_t> starts;
  for (int i = 0; i < 5000; i++) {
    const std::string json = "{\"n\":" + std::to_string(i * 7919) + ",\"l\":[" + std::to_string(i) + ",1.5,\"" +
                             std::string(size_t(i % 50), 'z') + "\"]}";
    starts.push_back(values.size());
    values += packed(json);
    expected += json + "\n";
  }
  for (unsigned threads : {1u, 2u, 4u}) {
    for (size_t block : {size_t(1), size_t(333), size_t(1) << 20}) {
      msgpack_options o;
      o.stream = true;
      o.threads = threads;
      o.block_size = block;
      EXPECT_EQ(unpacked(values, o), expected) << threads << " threads, blocks of " << block;
    }
  }
  msgpack_options o;
  o.stream = true;
  EXPECT_EQ(unpacked("", o), "");
  // A broken value: its document and offset, whether the skim finds it (a truncation, a
  // reserved byte) or a block does (invalid UTF-8), on any number of threads; the error is the
  // one the value gives read alone (the first in reading order, where the skim found another).
  const std::string cut_last = values.substr(starts[4999], values.size() - 3 - starts[4999]);
  const msgpack_error cut_alone = unpack_error(cut_last);
  EXPECT_EQ(cut_alone.e.code, error_code::msgpack_truncated);
  const std::string deep_and_cut = std::string(2000, char(0x91)) + "\x92"; // past the depth, then cut
  const msgpack_error deep_alone = unpack_error(deep_and_cut);
  EXPECT_EQ(deep_alone.e.code, error_code::depth_limit);
  const std::string bad_text_then_cut = from_hex("92 a2c328"); // invalid UTF-8, then the array cut
  const msgpack_error bad_text_alone = unpack_error(bad_text_then_cut);
  EXPECT_EQ(bad_text_alone.e.code, error_code::invalid_utf8);
  for (unsigned threads : {1u, 4u}) {
    o.threads = threads;
    o.block_size = 100;
    msgpack_error e = unpack_error(values.substr(0, values.size() - 3), o);
    EXPECT_EQ(e.e.code, error_code::msgpack_truncated);
    EXPECT_EQ(e.e.offset, starts[4999] + cut_alone.e.offset);
    EXPECT_EQ(e.document, 5000u);
    for (const auto &[tail, alone] :
         {std::make_pair(deep_and_cut, deep_alone), std::make_pair(bad_text_then_cut, bad_text_alone)}) {
      e = unpack_error(values + tail, o);
      EXPECT_EQ(e.e.code, alone.e.code) << hex(tail);
      EXPECT_EQ(e.e.offset, values.size() + alone.e.offset) << hex(tail);
      EXPECT_EQ(e.document, 5001u) << hex(tail);
    }
    std::string bad = values;
    bad[starts[1234]] = char(0xc1);
    e = unpack_error(bad, o);
    EXPECT_EQ(e.e.code, error_code::msgpack_invalid);
    EXPECT_EQ(e.e.offset, starts[1234]);
    EXPECT_EQ(e.document, 1235u);
    bad = values;
    bad[starts[4000] - 1] = char(0xff); // the last 'z' of value 3999's string
    e = unpack_error(bad, o);
    EXPECT_EQ(e.e.code, error_code::invalid_utf8);
    EXPECT_EQ(e.document, 4000u);
  }
}

TEST(MsgpackToJson, AParserKeepsTheBuffersAndGivesEachCallItsOwnText) {
  // With a parser, the blocks' and the value's output buffers are kept from call to call (what
  // they held is left in them): each call must still give its own text, whatever came before,
  // an error included, on any number of threads.
  std::string values, expected;
  for (int i = 0; i < 3000; i++) {
    const std::string json = "{\"i\":" + std::to_string(i) + ",\"s\":\"" + std::string(size_t(i % 40), 'q') + "\"}";
    values += packed(json);
    expected += json + "\n";
  }
  const std::string small = packed(R"([1,"two"])");
  const std::string bad = values + from_hex("92 01 c1");
  parser p;
  const auto with_parser = [&](const std::string &in, const msgpack_options &o) {
    std::vector<uint8_t> out;
    const msgpack_error e = msgpack_to_json(p, input::copy_of(in), o, internal::into(out));
    return std::make_pair(e, std::string(out.begin(), out.end()));
  };
  msgpack_options stream;
  stream.stream = true;
  stream.block_size = 500;
  for (unsigned threads : {3u, 1u, 2u, 3u}) {
    stream.threads = threads;
    auto [e, text] = with_parser(values, stream);
    ASSERT_TRUE(e.ok()) << threads;
    EXPECT_EQ(text, expected) << threads << " threads";
    std::tie(e, text) = with_parser(small, {});
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(text, R"([1,"two"])");
    std::tie(e, text) = with_parser(bad, stream);
    EXPECT_EQ(e.e.code, error_code::msgpack_invalid);
    EXPECT_EQ(e.e.offset, values.size() + 2);
    EXPECT_EQ(e.document, 3001u);
    EXPECT_TRUE(text.empty());
    std::tie(e, text) = with_parser(small.substr(0, small.size() - 1), {});
    EXPECT_EQ(e.e.code, error_code::msgpack_truncated);
    std::tie(e, text) = with_parser(small, stream);
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(text, "[1,\"two\"]\n");
  }
  parser::state *st = internal::parser_internals::state(p);
  ASSERT_NE(st->msgpack_json, nullptr);
  EXPECT_FALSE(st->msgpack_json->spare.empty());
  p.trim();
  EXPECT_EQ(st->msgpack_json, nullptr);
  // Past 64 MB of buffers, the call frees them once done.
  const std::string big = from_hex("c6 04000000") + std::string(size_t(1) << 26, '\x01');
  msgpack_options base64;
  auto [e, text] = with_parser(big, base64);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(text.size(), ((size_t(1) << 26) + 2) / 3 * 4 + 2);
  EXPECT_TRUE(st->msgpack_json->spare.empty());
}

TEST(MsgpackToJson, TheCorpusGoesRoundAndBack) {
  // JSON to MessagePack to JSON to MessagePack: the second MessagePack is the first (a fixed
  // point: what is written back is the same values), for every file of the corpus.
  size_t files = 0;
  for (const std::string &path : test::list_files(test::data_directory() + "/jsonexamples", ".json")) {
    const std::string json = test::read_file(path);
    parser p;
    std::vector<uint8_t> first, text, second;
    const msgpack_error e = json_to_msgpack(p, input::copy_of(json), {}, first);
    if (!e.ok()) {
      ADD_FAILURE() << test::base_name(path) << ": " << e.e.message();
      continue;
    }
    ASSERT_TRUE(msgpack_to_json(input::copy_of(first.data(), first.size()), {}, text).ok()) << path;
    ASSERT_TRUE(json_to_msgpack(p, input::copy_of(text.data(), text.size()), {}, second).ok()) << path;
    EXPECT_EQ(first, second) << test::base_name(path);
    files++;
  }
  EXPECT_GE(files, 20u);
}

} // namespace
} // namespace simdbridge
