// SPDX-License-Identifier: Apache-2.0
// Arrow handed over by a careless producer: schemas nested past the depth limit (or in a
// cycle). Each is refused with a message, by the reader and the writer alike, before anything
// is read through it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "simdbridge/arrow.h"
#include "simdbridge/simdbridge_c.h"

namespace simdbridge::test {
namespace {

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

} // namespace
} // namespace simdbridge::test
