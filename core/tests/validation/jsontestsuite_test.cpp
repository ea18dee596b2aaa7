// SPDX-License-Identifier: Apache-2.0
// JSONTestSuite (../shared/data/jsonchecker/minefield) and the JSON_checker pass/fail files.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "simdbridge/parser.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

std::string minefield() { return data_directory() + "/jsonchecker/minefield"; }

/** Checks the three ways in agree: checksum (On Demand + slow path), validate (DOM), scalar. */
void expect_consistent(const std::string &name, const std::string &text, const outcome &o) {
  parser p;
  const outcome slow = slow_checksum(text);
  EXPECT_EQ(o, slow) << name << ": engine " << describe(o) << ", scalar parser " << describe(slow);
  const error v = p.validate(input::copy_of(text));
  EXPECT_EQ(v.ok(), o.ok) << name;
  if (!o.ok) {
    EXPECT_EQ(v.code, o.code) << name;
    EXPECT_EQ(v.offset, o.offset) << name;
  }
}

TEST(JsonTestSuite, EveryYFileIsAccepted) {
  size_t count = 0;
  parser p;
  for (const std::string &path : list_files(minefield(), ".json")) {
    if (base_name(path).rfind("y_", 0) != 0) { continue; }
    const std::string text = read_file(path);
    const outcome o = outcome_of(p.checksum(input::copy_of(text)));
    EXPECT_TRUE(o.ok) << base_name(path) << ": " << describe(o);
    expect_consistent(base_name(path), text, o);
    count++;
  }
  EXPECT_EQ(count, 95u);
}

TEST(JsonTestSuite, EveryNFileIsRejectedWithAByteOffset) {
  size_t count = 0;
  parser p;
  for (const std::string &path : list_files(minefield(), ".json")) {
    if (base_name(path).rfind("n_", 0) != 0) { continue; }
    const std::string text = read_file(path);
    const outcome o = outcome_of(p.checksum(input::copy_of(text)));
    EXPECT_FALSE(o.ok) << base_name(path) << " was accepted";
    EXPECT_LE(o.offset, text.size()) << base_name(path);
    EXPECT_NE(o.code, error_code::invalid_argument) << base_name(path);
    EXPECT_NE(o.code, error_code::out_of_memory) << base_name(path);
    expect_consistent(base_name(path), text, o);
    count++;
  }
  EXPECT_EQ(count, 188u);
}

// Each implementation-defined case, and what the checksum contract makes of it. A change of
// behaviour shows here. Numbers past 64 bits or past the double range and lone surrogate
// escapes are valid JSON text that the contract defines; encodings other than UTF-8, invalid
// UTF-8 and a byte order mark are refused.
const std::map<std::string, std::string> implementation_defined = {
    {"i_number_double_huge_neg_exp.json", "accepted"},
    {"i_number_huge_exp.json", "accepted"},
    {"i_number_neg_int_huge_exp.json", "accepted"},
    {"i_number_pos_double_huge_exp.json", "accepted"},
    {"i_number_real_neg_overflow.json", "accepted"},
    {"i_number_real_pos_overflow.json", "accepted"},
    {"i_number_real_underflow.json", "accepted"},
    {"i_number_too_big_neg_int.json", "accepted"},
    {"i_number_too_big_pos_int.json", "accepted"},
    {"i_number_very_big_negative_int.json", "accepted"},
    {"i_object_key_lone_2nd_surrogate.json", "accepted"},
    {"i_string_1st_surrogate_but_2nd_missing.json", "accepted"},
    {"i_string_1st_valid_surrogate_2nd_invalid.json", "accepted"},
    {"i_string_UTF-16LE_with_BOM.json", "wrong_encoding at byte 0"},
    {"i_string_UTF-8_invalid_sequence.json", "invalid_utf8 at byte 7"},
    {"i_string_UTF8_surrogate_U+D800.json", "invalid_utf8 at byte 2"},
    {"i_string_incomplete_surrogate_and_escape_valid.json", "accepted"},
    {"i_string_incomplete_surrogate_pair.json", "accepted"},
    {"i_string_incomplete_surrogates_escape_valid.json", "accepted"},
    {"i_string_invalid_lonely_surrogate.json", "accepted"},
    {"i_string_invalid_surrogate.json", "accepted"},
    {"i_string_invalid_utf-8.json", "invalid_utf8 at byte 2"},
    {"i_string_inverted_surrogates_U+1D11E.json", "accepted"},
    {"i_string_iso_latin_1.json", "invalid_utf8 at byte 2"},
    {"i_string_lone_second_surrogate.json", "accepted"},
    {"i_string_lone_utf8_continuation_byte.json", "invalid_utf8 at byte 2"},
    {"i_string_not_in_unicode_range.json", "invalid_utf8 at byte 2"},
    {"i_string_overlong_sequence_2_bytes.json", "invalid_utf8 at byte 2"},
    {"i_string_overlong_sequence_6_bytes.json", "invalid_utf8 at byte 2"},
    {"i_string_overlong_sequence_6_bytes_null.json", "invalid_utf8 at byte 2"},
    {"i_string_truncated-utf-8.json", "invalid_utf8 at byte 2"},
    {"i_string_utf16BE_no_BOM.json", "wrong_encoding at byte 0"},
    {"i_string_utf16LE_no_BOM.json", "wrong_encoding at byte 0"},
    {"i_structure_500_nested_arrays.json", "accepted"},
    {"i_structure_UTF-8_BOM_empty_object.json", "byte_order_mark at byte 0"},
};

TEST(JsonTestSuite, EachIFileHasItsListedOutcome) {
  std::set<std::string> seen;
  parser p;
  for (const std::string &path : list_files(minefield(), ".json")) {
    const std::string name = base_name(path);
    if (name.rfind("i_", 0) != 0) { continue; }
    seen.insert(name);
    const auto expected = implementation_defined.find(name);
    ASSERT_NE(expected, implementation_defined.end()) << name << " is new: list its outcome";
    const std::string text = read_file(path);
    const outcome o = outcome_of(p.checksum(input::copy_of(text)));
    EXPECT_EQ(o.ok ? "accepted" : describe(o), expected->second) << name;
    expect_consistent(name, text, o);
  }
  EXPECT_EQ(seen.size(), implementation_defined.size()) << "a listed i_ file is missing";
}

TEST(JsonChecker, PassFilesAreAcceptedAndFailFilesRejected) {
  // JSON_checker predates RFC 8259: these "fail" files are valid JSON text today, or numbers
  // past the double range that the checksum contract defines (+/-infinity).
  const std::set<std::string> valid_under_rfc_8259 = {
      "fail01_EXCLUDE.json", // a string at the root
      "fail18_EXCLUDE.json", // 20 levels of nesting, far below the limit
      "fail39_EXCLUDE.json", // duplicate keys
      "fail41_toolarge.json", // 2^64: past 64 bits, folded as a double
      "fail60.json",          // 1e+1111: +infinity
      "fail73.json",          // 1e+308 written with 45 digits: +infinity
  };
  parser p;
  size_t pass = 0, fail = 0;
  for (const std::string &path : list_files(data_directory() + "/jsonchecker", ".json")) {
    const std::string name = base_name(path);
    const std::string text = read_file(path);
    const outcome o = outcome_of(p.checksum(input::copy_of(text)));
    if (name.rfind("pass", 0) == 0 || valid_under_rfc_8259.count(name)) {
      EXPECT_TRUE(o.ok) << name << ": " << describe(o);
      pass++;
    } else {
      EXPECT_FALSE(o.ok) << name << " was accepted";
      EXPECT_LE(o.offset, text.size());
      fail++;
    }
    expect_consistent(name, text, o);
  }
  EXPECT_EQ(pass, 27u + valid_under_rfc_8259.size()); // 27 pass files
  EXPECT_EQ(fail, 81u - valid_under_rfc_8259.size());  // 81 fail files
}

TEST(JsonChecker, NdjsonFiles) {
  parser p;
  const std::string dir = data_directory() + "/jsonchecker/";
  EXPECT_TRUE(p.checksum_stream(input::copy_of(read_file(dir + "pass01.ndjson"))).ok());
  EXPECT_EQ(p.validate_stream(input::copy_of(read_file(dir + "pass02.ndjson"))).value(), 5u);
  const std::string fail = read_file(dir + "fail01.ndjson");
  const outcome o = outcome_of(p.checksum_stream(input::copy_of(fail)));
  EXPECT_EQ(describe(o), "expected_comma_or_bracket at byte " + std::to_string(fail.find('}')));
  EXPECT_EQ(o, slow_checksum_stream(fail));
}

} // namespace
} // namespace simdbridge::test
