// SPDX-License-Identifier: Apache-2.0
// Arrow handed over by a careless producer: schemas nested past the depth limit (or in a
// cycle), and arrays whose offsets or children do not hold what they claim. Each is refused
// with a message, by the reader and the writer alike, before anything is read through it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "arrow/schema.h"
#include "simdbridge/arrow.h"
#include "simdbridge/simdbridge_c.h"

namespace simdbridge::test {
namespace {

using arrow::field;
using arrow::kind;
using arrow::named;

void release_nothing(ArrowSchema *) {}
void release_nothing(ArrowArray *) {}

/** A chain of ArrowSchemas: a record struct, then `lists` lists, then int64. */
struct schema_chain {
  std::vector<ArrowSchema> levels;
  std::vector<ArrowSchema *> children;

  explicit schema_chain(size_t lists) : levels(lists + 2), children(lists + 1) {
    for (size_t i = 0; i < levels.size(); i++) {
      ArrowSchema &s = levels[i];
      s.format = i == 0 ? "+s" : i + 1 == levels.size() ? "l" : "+l";
      s.name = i == 1 ? "x" : "item";
      s.flags = ARROW_FLAG_NULLABLE;
      s.release = release_nothing;
      if (i + 1 < levels.size()) {
        children[i] = &levels[i + 1];
        s.n_children = 1;
        s.children = &children[i];
      }
    }
  }
};

/** A record `{"x": [[...[7]...]]}` with `lists` brackets. */
std::string nested_record(size_t lists) {
  return "{\"x\":" + std::string(lists, '[') + "7" + std::string(lists, ']') + "}\n";
}

TEST(ArrowMalformed, SchemaNestingPastTheDepthLimitIsRefusedByEveryRoute) {
  // The record's struct is level 1: 1023 lists make the limit's 1024 levels (a JSON record's
  // nesting), their int64 a level past it.
  const size_t at_limit = SIMDBRIDGE_DEFAULT_MAX_DEPTH - 1;
  for (size_t lists : {at_limit + 1, size_t(100000), size_t(1000000)}) {
    schema_chain chain(lists);
    ArrowArrayStream stream{};
    const arrow_error read = ndjson_to_arrow(input::copy_of("{\"x\": null}\n"), &chain.levels[0], {}, &stream);
    EXPECT_EQ(read.code, error_code::invalid_argument) << lists;
    EXPECT_NE(read.message.find("nests deeper than 1024 levels"), std::string::npos) << read.message.substr(0, 200);
    EXPECT_EQ(stream.release, nullptr);
    ArrowArray batch{};
    batch.release = release_nothing;
    std::string out;
    const arrow_error write = arrow_batch_to_ndjson(chain.levels[0], batch, {}, out);
    EXPECT_EQ(write.code, error_code::invalid_argument) << lists;
    EXPECT_NE(write.message.find("nests deeper than 1024 levels"), std::string::npos) << write.message.substr(0, 200);
    EXPECT_NE(describe_arrow_schema(chain.levels[0]).find("nests deeper"), std::string::npos);
  }

  // At the limit, a record nested as deep as its schema is read and written back the same.
  schema_chain chain(at_limit);
  ArrowArrayStream stream{};
  const std::string record = nested_record(at_limit);
  const arrow_error read = ndjson_to_arrow(input::copy_of(record), &chain.levels[0], {}, &stream);
  ASSERT_TRUE(read.ok()) << read.message.substr(0, 200);
  std::string out;
  const arrow_error write = arrow_to_ndjson(&stream, {}, out);
  stream.release(&stream);
  ASSERT_TRUE(write.ok()) << write.message.substr(0, 200);
  EXPECT_EQ(out, record);
}

TEST(ArrowMalformed, ASchemaWhoseChildIsItselfIsRefused) {
  ArrowSchema record{}, list{};
  ArrowSchema *record_children[] = {&list};
  ArrowSchema *list_children[] = {&list};
  record.format = "+s";
  record.name = "";
  record.n_children = 1;
  record.children = record_children;
  record.release = release_nothing;
  list.format = "+l";
  list.name = "loop";
  list.n_children = 1;
  list.children = list_children;
  list.release = release_nothing;
  ArrowArrayStream stream{};
  const arrow_error e = ndjson_to_arrow(input::copy_of("{}\n"), &record, {}, &stream);
  EXPECT_EQ(e.code, error_code::invalid_argument);
  EXPECT_NE(e.message.find("nests deeper than 1024 levels (at field 'loop')"), std::string::npos) << e.message;
}

/** An array put together by hand, as a producer with a bug might: buffers and children kept here. */
struct hand_array {
  ArrowArray array{};
  std::vector<const void *> buffers;
  std::vector<ArrowArray *> children;

  hand_array(int64_t length, std::vector<const void *> b, std::vector<ArrowArray *> c = {}, int64_t offset = 0)
      : buffers(std::move(b)), children(std::move(c)) {
    array.length = length;
    array.offset = offset;
    array.n_buffers = int64_t(buffers.size());
    array.buffers = buffers.data();
    array.n_children = int64_t(children.size());
    array.children = children.empty() ? nullptr : children.data();
    array.release = release_nothing;
  }
};

/** The batch `{x: <column>}` written as NDJSON: the writer's error message, or "" and the rows in `out`. */
std::string write_batch(const field &column, ArrowArray &values, int64_t rows, std::string &out, int64_t offset = 0) {
  field record = named("", kind::structure);
  record.children.push_back(column);
  ArrowSchema schema{};
  arrow::export_schema(record, &schema);
  hand_array batch(rows, {nullptr}, {&values}, offset);
  out.clear();
  const arrow_error e = arrow_batch_to_ndjson(schema, batch.array, {}, out);
  schema.release(&schema);
  return e.message;
}

field list_of_int64() {
  field f = named("x", kind::list);
  f.children.push_back(named("item", kind::int64));
  return f;
}

TEST(ArrowMalformed, ArraysWhoseOffsetsOrChildrenDoNotHoldAreRefused) {
  const int64_t numbers[] = {1, 2, 3, 4};
  const char bytes[] = "abcdefgh";
  std::string out;

  // The control: offsets and children that hold, with the batch's and the child's own offsets.
  {
    const int32_t offsets[] = {0, 2, 2, 3};
    hand_array items(3, {nullptr, numbers}, {}, 1);
    hand_array lists(3, {nullptr, offsets}, {&items.array});
    EXPECT_EQ(write_batch(list_of_int64(), lists.array, 2, out, 1), "");
    EXPECT_EQ(out, "{\"x\":[]}\n{\"x\":[4]}\n");
    const int32_t string_offsets[] = {0, 3, 3, 8};
    hand_array strings(3, {nullptr, string_offsets, bytes});
    EXPECT_EQ(write_batch(named("x", kind::utf8), strings.array, 3, out), "");
    EXPECT_EQ(out, "{\"x\":\"abc\"}\n{\"x\":\"\"}\n{\"x\":\"defgh\"}\n");
  }
  const std::string past = "the offsets of field 'x' point past the end of its values";
  const std::string disordered = "the offsets of field 'x' decrease or are negative";
  {
    const int32_t offsets[] = {0, 2, 1000000};
    hand_array items(4, {nullptr, numbers});
    hand_array lists(2, {nullptr, offsets}, {&items.array});
    EXPECT_EQ(write_batch(list_of_int64(), lists.array, 2, out), past);
  }
  {
    const int64_t offsets[] = {0, 5};
    field large = list_of_int64();
    large.type = kind::large_list;
    hand_array items(3, {nullptr, numbers}, {}, 1); // 3 values from the child's offset 1
    hand_array lists(1, {nullptr, offsets}, {&items.array});
    EXPECT_EQ(write_batch(large, lists.array, 1, out), past);
  }
  {
    const int32_t offsets[] = {0, 3, -5000000};
    hand_array items(4, {nullptr, numbers});
    hand_array lists(2, {nullptr, offsets}, {&items.array});
    EXPECT_EQ(write_batch(list_of_int64(), lists.array, 2, out), disordered);
  }
  {
    // A string longer than the batch's first-to-last offsets promise: the room the writer
    // reserves for a batch of strings comes from those two.
    const int32_t offsets[] = {0, 1000, 0, 5};
    hand_array strings(3, {nullptr, offsets, bytes});
    EXPECT_EQ(write_batch(named("x", kind::utf8), strings.array, 3, out), disordered);
  }
  {
    const int64_t offsets[] = {-100000000, 2};
    hand_array strings(1, {nullptr, offsets, bytes});
    EXPECT_EQ(write_batch(named("x", kind::large_utf8), strings.array, 1, out), disordered);
  }
  {
    field map = named("x", kind::map);
    field entries = named("entries", kind::structure);
    entries.children.push_back(named("key", kind::utf8));
    entries.children.push_back(named("value", kind::int64));
    map.children.push_back(entries);
    const int32_t key_offsets[] = {0, 1};
    hand_array keys(1, {nullptr, key_offsets, bytes});
    hand_array values(1, {nullptr, numbers});
    hand_array entry(1, {nullptr}, {&keys.array, &values.array});
    const int32_t offsets[] = {0, 1000000};
    hand_array maps(1, {nullptr, offsets}, {&entry.array});
    EXPECT_EQ(write_batch(map, maps.array, 1, out), past);
  }
  const std::string shorter = "the array of field '' has a child missing or shorter than itself";
  {
    hand_array column(3, {nullptr, numbers});
    EXPECT_EQ(write_batch(named("x", kind::int64), column.array, 1000000, out), shorter);
    EXPECT_EQ(write_batch(named("x", kind::int64), column.array, 2, out, 2), shorter); // rows 2 and 3 of 3
    EXPECT_EQ(write_batch(named("x", kind::int64), column.array, 2, out, 1), "");
    EXPECT_EQ(out, "{\"x\":2}\n{\"x\":3}\n");
  }
  {
    hand_array column(3, {nullptr, numbers});
    field record = named("", kind::structure);
    record.children.push_back(named("x", kind::int64));
    ArrowSchema schema{};
    arrow::export_schema(record, &schema);
    hand_array missing(1, {nullptr}, {nullptr});
    EXPECT_EQ(arrow_batch_to_ndjson(schema, missing.array, {}, out).message, shorter);
    hand_array overflowing(2, {nullptr}, {&column.array}, INT64_MAX - 1);
    EXPECT_EQ(arrow_batch_to_ndjson(schema, overflowing.array, {}, out).message,
              "the array of field '' has an offset and length past 2^63");
    schema.release(&schema);
  }
}

} // namespace
} // namespace simdbridge::test
