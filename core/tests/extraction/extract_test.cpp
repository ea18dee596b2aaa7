// SPDX-License-Identifier: Apache-2.0
// Batch field extraction: JSON Pointers into NDJSON records, as columns.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "simdbridge/parser.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

/** Columns and their buffers, sized for `rows` rows and `string_bytes` bytes per string column. */
class column_set {
public:
  column_set(std::vector<std::pair<std::string, column_type>> specs, size_t rows,
             size_t string_bytes = 1 << 20)
      : specs_(std::move(specs)), rows_(rows) {
    for (auto &[pointer, type] : specs_) {
      values_.emplace_back((rows + 1) * 8);
      validity_.emplace_back((rows + 7) / 8);
      strings_.emplace_back(type == column_type::string ? string_bytes : 0);
    }
    for (size_t c = 0; c < specs_.size(); c++) {
      simdbridge_column col{};
      col.pointer = specs_[c].first.data();
      col.pointer_length = specs_[c].first.size();
      col.type = int32_t(specs_[c].second);
      col.values = values_[c].data();
      col.validity = validity_[c].data();
      col.string_bytes = strings_[c].data();
      col.string_capacity = strings_[c].size();
      columns_.push_back(col);
    }
  }

  error extract(parser &p, const std::string &text, extract_status &status, uint64_t max_rows = UINT64_MAX) {
    return p.extract(input::copy_of(text), columns_.data(), columns_.size(), std::min<uint64_t>(max_rows, rows_), status);
  }

  /** Row `row` as checksum_reference.py renders it. */
  std::string render(size_t row) const {
    std::string out;
    for (size_t c = 0; c < columns_.size(); c++) {
      if (c) { out += '\t'; }
      if (!(validity_[c][row / 8] >> (row % 8) & 1)) {
        out += "null";
        continue;
      }
      const uint8_t *v = values_[c].data();
      switch (specs_[c].second) {
      case column_type::int64: {
        int64_t x;
        std::memcpy(&x, v + row * 8, 8);
        out += std::to_string(x);
        break;
      }
      case column_type::float64: {
        uint64_t bits;
        std::memcpy(&bits, v + row * 8, 8);
        out += hex64(bits);
        break;
      }
      case column_type::boolean: out += v[row] ? "true" : "false"; break;
      case column_type::string: {
        int32_t begin, end;
        std::memcpy(&begin, v + row * 4, 4);
        std::memcpy(&end, v + (row + 1) * 4, 4);
        static const char digits[] = "0123456789abcdef";
        for (int32_t i = begin; i < end; i++) {
          out += digits[strings_[c][size_t(i)] >> 4];
          out += digits[strings_[c][size_t(i)] & 15];
        }
        break;
      }
      }
    }
    return out;
  }

  const simdbridge_column &operator[](size_t c) const { return columns_[c]; }
  /** The first offset of a string column. */
  int32_t first_offset(size_t c) const {
    int32_t v;
    std::memcpy(&v, values_[c].data(), 4);
    return v;
  }
  void fill(uint8_t byte) {
    for (auto &v : values_) { std::fill(v.begin(), v.end(), byte); }
  }

private:
  std::vector<std::pair<std::string, column_type>> specs_;
  size_t rows_;
  std::vector<std::vector<uint8_t>> values_, validity_, strings_;
  std::vector<simdbridge_column> columns_;
};

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) { end = text.size(); }
    out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

const std::vector<std::pair<std::string, column_type>> gharchive_columns = {
    {"/id", column_type::string},         {"/type", column_type::string},
    {"/actor/login", column_type::string}, {"/actor/id", column_type::int64},
    {"/repo/id", column_type::float64},    {"/public", column_type::boolean},
    {"/payload/size", column_type::int64}, {"/payload/commits/0/sha", column_type::string},
    {"/org/login", column_type::string},
};

TEST(Extract, GhArchiveMatchesTheReferenceInOneCallAndInMany) {
  const std::string text = read_file(data_directory() + "/ndjson/gharchive-2015-01-01-0.ndjson");
  const std::vector<std::string> expected = lines_of(read_file(reference_path("reference_extract_gharchive.txt")));
  ASSERT_EQ(expected.size(), 7702u);
  parser p;
  column_set all(gharchive_columns, 8192, 32 << 20);
  extract_status status;
  const error e = all.extract(p, text, status);
  ASSERT_TRUE(e.ok()) << error_name(e.code) << " at " << e.offset;
  ASSERT_EQ(status.rows, expected.size());
  EXPECT_EQ(status.consumed, text.size());
  for (size_t row = 0; row < expected.size(); row++) { ASSERT_EQ(all.render(row), expected[row]) << "row " << row; }

  // Batches of at most 1000 rows and 16 KiB per string column, each call going on where the
  // last stopped.
  column_set small(gharchive_columns, 1000, 16 << 10);
  size_t row = 0, offset = 0, calls = 0;
  while (offset < text.size()) {
    const error e2 = small.extract(p, text.substr(offset), status);
    ASSERT_TRUE(e2.ok()) << error_name(e2.code);
    ASSERT_GT(status.consumed, 0u);
    for (size_t r = 0; r < status.rows; r++) { ASSERT_EQ(small.render(r), expected[row + r]) << "row " << row + r; }
    row += status.rows;
    offset += status.consumed;
    calls++;
  }
  EXPECT_EQ(row, expected.size());
  EXPECT_GT(calls, 8u); // more than the row limit alone needs: string capacity cut batches too
}

// Found by make fuzz: with no row (blank lines only, or nothing), a string column's offsets
// were left as they were; they are rows + 1, so the first is 0 whatever follows.
TEST(Extract, AStringColumnsFirstOffsetIsWrittenEvenWithNoRow) {
  parser p;
  for (const char *text : {"", "\n", " \n\n"}) {
    column_set c({{"/a", column_type::string}, {"/b", column_type::int64}}, 4);
    c.fill(0xA5);
    extract_status status;
    ASSERT_TRUE(c.extract(p, text, status).ok());
    EXPECT_EQ(status.rows, 0u);
    EXPECT_EQ(c.first_offset(0), 0) << '"' << text << '"';
  }
}

TEST(Extract, PointersMissingValuesNullsAndDuplicates) {
  const std::string batch =
      "{\"a\":1,\"b\":{\"c\":[10,20,{\"d\":\"x\"}]},\"s\":\"h\\u00e9\",\"t\":true,\"a~b\":5,\"a/b\":6}\n"
      "\n"
      "  \r\n"
      "{\"a\":null,\"b\":{\"c\":[]},\"t\":false,\"dup\":\"first\",\"dup\":\"second\"}\r\n"
      "{\"b\":[1],\"a\":2.5e0}";
  parser p;
  column_set set({{"/a", column_type::float64},
                  {"/b/c/1", column_type::int64},
                  {"/b/c/2/d", column_type::string},
                  {"/s", column_type::string},
                  {"/t", column_type::boolean},
                  {"/a~0b", column_type::int64},
                  {"/a~1b", column_type::int64},
                  {"/dup", column_type::string},
                  {"/b/c/01", column_type::int64},
                  {"/b/0", column_type::int64}},
                 16);
  extract_status status;
  const error e = set.extract(p, batch, status);
  ASSERT_TRUE(e.ok()) << error_name(e.code) << " at " << e.offset;
  ASSERT_EQ(status.rows, 3u);
  const std::string one = hex64(0x3ff0000000000000ULL), two_and_a_half = hex64(0x4004000000000000ULL);
  EXPECT_EQ(set.render(0), one + "\t20\t78\t68c3a9\ttrue\t5\t6\tnull\tnull\tnull");
  EXPECT_EQ(set.render(1), "null\tnull\tnull\tnull\tfalse\tnull\tnull\t7365636f6e64\tnull\tnull");
  EXPECT_EQ(set.render(2), two_and_a_half + "\tnull\tnull\tnull\tnull\tnull\tnull\tnull\tnull\t1");
}

TEST(Extract, TheWholeDocumentAndScalarsAtTheRoot) {
  parser p;
  column_set set({{"", column_type::int64}, {"", column_type::float64}}, 4);
  extract_status status;
  ASSERT_TRUE(set.extract(p, "1\n2\n3", status).ok());
  ASSERT_EQ(status.rows, 3u);
  EXPECT_EQ(set.render(2), "3\t" + hex64(0x4008000000000000ULL));
}

TEST(Extract, ATypeMismatchNamesTheColumnAndTheRecord) {
  parser p;
  column_set set({{"/a", column_type::int64}, {"/b", column_type::int64}}, 8);
  extract_status status;
  const std::string batch = "{\"a\":1,\"b\":2}\n{\"a\":1,\"b\":\"NA\"}\n";
  const error e = set.extract(p, batch, status);
  EXPECT_EQ(e.code, error_code::type_mismatch);
  EXPECT_EQ(e.offset, 14u);
  EXPECT_EQ(status.error_column, 1);
  for (const char *bad : {"{\"a\":1.5}", "{\"a\":true}", "{\"a\":9223372036854775808}", "{\"a\":[]}"}) {
    EXPECT_EQ(set.extract(p, bad, status).code, error_code::type_mismatch) << bad;
  }
  column_set strings({{"/a", column_type::string}}, 8);
  EXPECT_EQ(strings.extract(p, "{\"a\":1}", status).code, error_code::type_mismatch);
  column_set booleans({{"/a", column_type::boolean}}, 8);
  EXPECT_EQ(booleans.extract(p, "{\"a\":0}", status).code, error_code::type_mismatch);
}

TEST(Extract, InvalidJsonGivesItsOffsetInTheBatch) {
  parser p;
  column_set set({{"/a", column_type::int64}}, 8);
  extract_status status;
  const std::string batch = "{\"a\":1}\n{\"a\":2,}\n{\"a\":3}\n";
  const error e = set.extract(p, batch, status);
  EXPECT_EQ(e.code, error_code::expected_key);
  EXPECT_EQ(e.offset, 15u);
  EXPECT_EQ(set.extract(p, "{\"a\":1}\n{\"a\":", status).code, error_code::unexpected_end);
  EXPECT_EQ(set.extract(p, "{\"a\":1} {\"a\":2}\n", status).code, error_code::trailing_content);
  EXPECT_EQ(set.extract(p, "{\"a\":1,\n\"b\":2}\n", status).code, error_code::unexpected_end);
  const error u = set.extract(p, "{\"a\":1}\n{\"a\":2,\"big\":18446744073709551616}\n", status);
  EXPECT_EQ(u.code, error_code::unsupported_value);
  EXPECT_EQ(u.offset, 8u);
}

TEST(Extract, InvalidPointersAndBuffers) {
  parser p;
  extract_status status;
  for (const char *bad : {"a", "/a~", "/a~2"}) {
    column_set set({{"/ok", column_type::int64}, {bad, column_type::int64}}, 4);
    EXPECT_EQ(set.extract(p, "{}", status).code, error_code::invalid_pointer) << bad;
    EXPECT_EQ(status.error_column, 1);
  }
  simdbridge_column broken{};
  broken.pointer = "/a";
  broken.pointer_length = 2;
  broken.type = 9; // no such type
  EXPECT_EQ(p.extract(input::copy_of("{}"), &broken, 1, 1, status).code, error_code::invalid_argument);
  broken.type = SIMDBRIDGE_COLUMN_INT64; // and no buffers
  EXPECT_EQ(p.extract(input::copy_of("{}"), &broken, 1, 1, status).code, error_code::invalid_argument);
}

TEST(Extract, StopsBeforeARecordThatDoesNotFit) {
  parser p;
  column_set set({{"/s", column_type::string}}, 2, 8);
  extract_status status;
  const std::string batch = "{\"s\":\"abcd\"}\n{\"s\":\"efgh\"}\n{\"s\":\"ij\"}\n";
  ASSERT_TRUE(set.extract(p, batch, status).ok());
  EXPECT_EQ(status.rows, 2u);
  EXPECT_EQ(status.consumed, 26u);
  EXPECT_EQ(set.render(1), "65666768");
  column_set tight({{"/s", column_type::string}}, 8, 6);
  ASSERT_TRUE(tight.extract(p, batch, status).ok());
  EXPECT_EQ(status.rows, 1u); // "efgh" would pass the 6 bytes
  EXPECT_EQ(status.consumed, 13u);
  column_set none({{"/s", column_type::string}}, 8, 3);
  EXPECT_EQ(none.extract(p, batch, status).code, error_code::output_too_small);
}

TEST(Extract, DamagedBatchesFailWhereValidationFails) {
  // Every record is fully validated: a damaged batch fails at the offset where reading the
  // same bytes as a stream of lines fails.
  const std::string text = read_file(data_directory() + "/ndjson/gharchive-2015-01-01-0.ndjson").substr(0, 200000);
  const std::string head = text.substr(0, text.rfind('\n') + 1);
  std::mt19937_64 rng(9);
  parser p;
  column_set set(gharchive_columns, 1024, 1 << 20);
  extract_status status;
  size_t failures = 0;
  for (int i = 0; i < 300; i++) {
    std::string damaged = head;
    damaged[rng() % damaged.size()] = "{}[],:\"\\0x\xFF\n"[rng() % 13];
    const error e = set.extract(p, damaged, status);
    if (e.ok()) { continue; }
    failures++;
    if (e.code == error_code::type_mismatch) { continue; }
    // The record that failed, read alone, fails at the same place.
    const size_t start = damaged.rfind('\n', e.offset == 0 ? 0 : e.offset - 1);
    const size_t record = start == std::string::npos ? 0 : start + 1;
    const size_t end = damaged.find('\n', record);
    const std::string line = damaged.substr(record, end == std::string::npos ? std::string::npos : end - record);
    const outcome alone = slow_checksum(line);
    ASSERT_FALSE(alone.ok) << line;
    ASSERT_EQ(alone.offset + record, e.offset) << line;
    ASSERT_EQ(alone.code, e.code) << line;
  }
  EXPECT_GT(failures, 100u); // many damaged bytes fall inside strings and stay valid
}

} // namespace
} // namespace simdbridge::test

namespace simdbridge::test {
namespace {

TEST(Document, ParseOnceThenReadFieldsByPointer) {
  parser p;
  ASSERT_TRUE(p.document_parse(input::copy_of(R"({"id":7,"x":2.5,"ok":true,"s":"h\u00e9","n":null,"a":[1,{"b":"c"}]})")).ok());
  uint8_t out[64];
  bool present = false;
  size_t size = 0;
  ASSERT_TRUE(p.document_field("/id", column_type::int64, out, sizeof out, present, size).ok());
  int64_t id;
  std::memcpy(&id, out, 8);
  EXPECT_TRUE(present);
  EXPECT_EQ(id, 7);
  ASSERT_TRUE(p.document_field("/x", column_type::float64, out, sizeof out, present, size).ok());
  double x;
  std::memcpy(&x, out, 8);
  EXPECT_EQ(x, 2.5);
  ASSERT_TRUE(p.document_field("/ok", column_type::boolean, out, sizeof out, present, size).ok());
  EXPECT_EQ(out[0], 1);
  ASSERT_TRUE(p.document_field("/s", column_type::string, out, sizeof out, present, size).ok());
  EXPECT_EQ(std::string(reinterpret_cast<char *>(out), size), "h\xC3\xA9");
  ASSERT_TRUE(p.document_field("/a/1/b", column_type::string, out, sizeof out, present, size).ok());
  EXPECT_EQ(std::string(reinterpret_cast<char *>(out), size), "c");
  for (const char *nowhere : {"/n", "/missing", "/a/5", "/id/x"}) {
    ASSERT_TRUE(p.document_field(nowhere, column_type::int64, out, sizeof out, present, size).ok());
    EXPECT_FALSE(present) << nowhere;
  }
  EXPECT_EQ(p.document_field("/s", column_type::int64, out, sizeof out, present, size).code, error_code::type_mismatch);
  EXPECT_EQ(p.document_field("/s", column_type::string, out, 2, present, size).code, error_code::output_too_small);
  EXPECT_EQ(p.document_field("s", column_type::int64, out, sizeof out, present, size).code, error_code::invalid_pointer);
}

TEST(Document, ErrorsAndTheDocumentsLifetime) {
  parser p;
  uint8_t out[8];
  bool present;
  size_t size;
  EXPECT_EQ(p.document_field("/a", column_type::int64, out, 8, present, size).code, error_code::invalid_argument);
  const error e = p.document_parse(input::copy_of("{\"a\":1,}"));
  EXPECT_EQ(e.code, error_code::expected_key);
  EXPECT_EQ(e.offset, 7u);
  EXPECT_EQ(p.document_parse(input::copy_of("[18446744073709551616]")).code, error_code::unsupported_value);
  ASSERT_TRUE(p.document_parse(input::copy_of("{\"a\":1}")).ok());
  ASSERT_TRUE(p.checksum(input::copy_of("[2]")).ok()); // any other call lets the document go
  EXPECT_EQ(p.document_field("/a", column_type::int64, out, 8, present, size).code, error_code::invalid_argument);
}

} // namespace
} // namespace simdbridge::test
