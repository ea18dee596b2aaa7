// SPDX-License-Identifier: Apache-2.0
// NDJSON to Arrow in the core, through the C Data Interface as any consumer reads it: the
// batches rendered back to text and compared with what the records say; the same batches and
// errors for every block size and thread count; errors that name the record, field and byte.
#include <gtest/gtest.h>

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <thread>
#include <utility>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "arrow/decimal.h"
#include "arrow/schema.h"
#include "simdbridge/arrow.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

using arrow::field;
using arrow::kind;

bool valid(const ArrowArray &a, int64_t row) {
  const auto *bits = static_cast<const uint8_t *>(a.buffers[0]);
  return a.n_buffers == 0 ? false : bits == nullptr || (bits[(a.offset + row) / 8] >> ((a.offset + row) % 8) & 1);
}

/** One value of an array, as text: what the tests compare. */
std::string render(const field &f, const ArrowArray &a, int64_t row) {
  if (f.type == kind::null || !valid(a, row)) { return "null"; }
  const int64_t i = a.offset + row;
  const void *values = a.n_buffers > 1 ? a.buffers[1] : nullptr;
  switch (f.type) {
  case kind::boolean: return (static_cast<const uint8_t *>(values)[i / 8] >> (i % 8) & 1) ? "true" : "false";
  case kind::int64: case kind::timestamp: return std::to_string(static_cast<const int64_t *>(values)[i]);
  case kind::int32: case kind::date32: return std::to_string(static_cast<const int32_t *>(values)[i]);
  case kind::decimal128: {
    arrow::int128 v;
    std::memcpy(&v, static_cast<const uint8_t *>(values) + 16 * i, 16);
    char text[48];
    return std::string(text, arrow::write_decimal128(v, f.scale, text));
  }
  case kind::uint64: return std::to_string(static_cast<const uint64_t *>(values)[i]);
  case kind::float64: {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", static_cast<const double *>(values)[i]);
    return text;
  }
  case kind::utf8: {
    const auto *offsets = static_cast<const int32_t *>(values);
    const char *bytes = static_cast<const char *>(a.buffers[2]);
    return "\"" + std::string(bytes + offsets[i], size_t(offsets[i + 1] - offsets[i])) + "\"";
  }
  case kind::list: {
    const auto *offsets = static_cast<const int32_t *>(values);
    std::string out = "[";
    for (int32_t k = offsets[i]; k < offsets[i + 1]; k++) {
      if (k > offsets[i]) { out += ","; }
      out += render(f.children[0], *a.children[0], k);
    }
    return out + "]";
  }
  case kind::map: {
    const auto *offsets = static_cast<const int32_t *>(values);
    const ArrowArray &entries = *a.children[0];
    std::string out = "{";
    for (int32_t k = offsets[i]; k < offsets[i + 1]; k++) {
      if (k > offsets[i]) { out += ","; }
      out += render(f.children[0].children[0], *entries.children[0], k) + ":" +
             render(f.children[0].children[1], *entries.children[1], k);
    }
    return out + "}";
  }
  case kind::structure: {
    std::string out = "{";
    for (size_t c = 0; c < f.children.size(); c++) {
      if (c) { out += ","; }
      out += f.children[c].name + ":" + render(f.children[c], *a.children[c], i);
    }
    return out + "}";
  }
  default: return "?";
  }
}

struct read_result {
  arrow_error error;
  std::string schema;
  std::vector<std::string> rows;
  size_t batches = 0;
};

/** Every struct's children as long as it (a child's rows it lagged by are filled on export). */
void expect_aligned(const field &f, const ArrowArray &a) {
  ASSERT_EQ(size_t(a.n_children), f.children.size());
  for (size_t c = 0; c < f.children.size(); c++) {
    if (f.type == kind::structure) { EXPECT_EQ(a.children[c]->length, a.length) << f.children[c].name; }
    expect_aligned(f.children[c], *a.children[c]);
  }
}

/** The stream's schema and rows into `r` (where it has no error), the stream released. */
read_result drain(read_result r, ArrowArrayStream &stream) {
  if (!r.error.ok()) { return r; }
  ArrowSchema out{};
  EXPECT_EQ(stream.get_schema(&stream, &out), 0);
  field f;
  std::string why;
  EXPECT_TRUE(arrow::import_schema(out, f, why)) << why;
  r.schema = arrow::describe(f);
  out.release(&out);
  for (;;) {
    ArrowArray batch{};
    EXPECT_EQ(stream.get_next(&stream, &batch), 0);
    if (batch.release == nullptr) { break; }
    r.batches++;
    expect_aligned(f, batch);
    for (int64_t row = 0; row < batch.length; row++) { r.rows.push_back(render(f, batch, row)); }
    batch.release(&batch);
  }
  stream.release(&stream);
  return r;
}

read_result read(const std::string &ndjson, const field *schema, arrow_read_options options = {}) {
  ArrowSchema given{};
  if (schema != nullptr) { arrow::export_schema(*schema, &given); }
  ArrowArrayStream stream{};
  read_result r;
  r.error = ndjson_to_arrow(input::copy_of(ndjson), schema ? &given : nullptr, options, &stream);
  if (given.release) { given.release(&given); }
  return drain(r, stream);
}

field make(std::string name, kind type, std::vector<field> children = {}) {
  field f;
  f.name = std::move(name);
  f.type = type;
  f.children = std::move(children);
  return f;
}

const field record = make("", kind::structure, {
    make("a", kind::int64), make("s", kind::utf8), make("b", kind::boolean),
    make("l", kind::list, {make("item", kind::float64)}),
    make("o", kind::structure, {make("x", kind::int32)}),
});

TEST(ArrowReader, ValuesNullsAndMissingFieldsWithASchema) {
  const std::string ndjson = R"({"a": 1, "s": "x", "b": true, "l": [1.5, 2], "o": {"x": 7}}
{"s": null, "zz": {"ignored": [1]}, "l": [], "o": null}

{"b": false, "a": -3, "l": null, "o": {}})";
  const read_result r = read(ndjson, &record);
  ASSERT_TRUE(r.error.ok()) << r.error.message;
  EXPECT_EQ(r.schema, "struct<a: int64, s: string, b: bool, l: list<double>, o: struct<x: int32>>");
  ASSERT_EQ(r.rows.size(), 3u);
  EXPECT_EQ(r.rows[0], "{a:1,s:\"x\",b:true,l:[1.5,2],o:{x:7}}");
  EXPECT_EQ(r.rows[1], "{a:null,s:null,b:null,l:[],o:null}");
  EXPECT_EQ(r.rows[2], "{a:-3,s:null,b:false,l:null,o:{x:null}}");
}

TEST(ArrowReader, FieldsARecordLacksAreNullWhereverTheyNest) {
  // A struct's fields that a record lacks are appended as nulls only when the field is next
  // written or the batch handed over: the same rows from both readers, for any block size. At
  // a depth limit of 3 the block reader refuses the records nested that deep, which the
  // record-at-a-time reader then reads (simdjson's DOM, one level deeper), between the others.
  const field schema = make("", kind::structure, {
      make("a", kind::int64),
      make("p", kind::structure, {make("q", kind::structure, {make("r", kind::int64), make("s", kind::utf8)}),
                                  make("t", kind::list, {make("item", kind::int64)}), make("b", kind::boolean)}),
      make("l", kind::list, {make("item", kind::structure, {make("x", kind::int64), make("y", kind::utf8)})}),
  });
  const std::string ndjson = "{\"a\": 1, \"p\": {\"q\": {\"r\": 1, \"s\": \"x\"}, \"t\": [1], \"b\": true}}\n"
                             "{\"a\": 2}\n"
                             "{\"p\": {\"t\": [2, 3]}, \"l\": [{\"x\": 1}, {\"y\": \"z\"}, {}]}\n"
                             "{\"p\": null, \"a\": 4}\n"
                             "{\"p\": {\"q\": {}}}\n"
                             "{}\n"
                             "{\"p\": {\"q\": {\"s\": \"y\"}, \"b\": false}, \"a\": 7}\n";
  const std::vector<std::string> expected = {
      "{a:1,p:{q:{r:1,s:\"x\"},t:[1],b:true},l:null}",
      "{a:2,p:null,l:null}",
      "{a:null,p:{q:null,t:[2,3],b:null},l:[{x:1,y:null},{x:null,y:\"z\"},{x:null,y:null}]}",
      "{a:4,p:null,l:null}",
      "{a:null,p:{q:{r:null,s:null},t:null,b:null},l:null}",
      "{a:null,p:null,l:null}",
      "{a:7,p:{q:{r:null,s:\"y\"},t:null,b:false},l:null}",
  };
  for (size_t block : {size_t(1), size_t(60), size_t(1) << 20}) {
    for (bool reference : {false, true}) {
      for (uint32_t depth : {3u, 64u}) {
        arrow_read_options o;
        o.block_size = block;
        o.reference_reader = reference;
        o.limits.max_depth = depth;
        const read_result r = read(ndjson, &schema, o);
        ASSERT_TRUE(r.error.ok()) << r.error.message;
        EXPECT_EQ(r.rows, expected) << block << " " << reference << " " << depth;
      }
    }
  }
}

TEST(ArrowReader, ASkippedStringsEscapesAreCheckedWhereverTheyFall) {
  // The block reader lists a block's backslashes before its walk (64 bytes a step, the rest one
  // at a time), and checks a skipped string's escapes only where one falls in it: a bad escape
  // in a skipped string is an error at any place in the block, a good one is read past, and a
  // string with none next to one that has one is not taken for it.
  for (size_t shift = 0; shift < 140; shift++) {
    const std::string pad(shift, 'p');
    for (const char *escape : {"\\n", "\\u00e9", "\\x", "\\u00g9", "\\ud800"}) {
      const std::string ndjson = "{\"a\": 1, \"zz\": [\"" + pad + "\", \"" + std::string(escape) + "\"], \"s\": \"" +
                                 pad + "\"}\n{\"a\": 2, \"zz\": \"\\\"\"}\n";
      const read_result r = read(ndjson, &record);
      const bool good = escape[1] == 'n' || std::string(escape) == "\\u00e9";
      EXPECT_EQ(r.error.ok(), good) << shift << " " << escape << " " << r.error.message;
      if (good) {
        EXPECT_EQ(r.rows.size(), 2u);
      } else {
        EXPECT_EQ(r.error.record, 1u) << shift << " " << escape;
      }
    }
  }
  // Past 65,536 backslashes a block's strings are scanned instead: the same verdicts.
  std::string escaped;
  for (int k = 0; k < 40000; k++) { escaped += "\\n"; }
  for (const char *last : {"\\t", "\\x"}) {
    const std::string ndjson = "{\"zz\": [\"" + escaped + "\", \"" + escaped + "\", \"" + last + "\"], \"a\": 1}\n";
    EXPECT_EQ(read(ndjson, &record).error.ok(), last[1] == 't') << last;
  }
}

TEST(ArrowReader, InferenceFollowsPyarrowsRules) {
  const read_result r = read("{\"a\": 1, \"n\": null, \"l\": [1]}\n{\"a\": 2.5, \"l\": [], \"o\": {\"k\": \"v\"}}\n", nullptr);
  ASSERT_TRUE(r.error.ok()) << r.error.message;
  EXPECT_EQ(r.schema, "struct<a: double, n: null, l: list<int64>, o: struct<k: string>>");
  EXPECT_EQ(r.rows[0], "{a:1,n:null,l:[1],o:null}");
  const read_result conflict = read("{\"a\": 1}\n{\"a\": \"x\"}\n", nullptr);
  EXPECT_EQ(conflict.error.code, error_code::type_mismatch);
  EXPECT_EQ(conflict.error.message, "record 2, field /a: a value of type string where earlier records had int64 at byte 15");
}

TEST(ArrowReader, TheSameBatchesAndErrorsForEveryBlockSizeAndThreadCount) {
  std::string ndjson;
  for (int i = 0; i < 500; i++) {
    ndjson += "{\"a\": " + std::to_string(i) + ", \"s\": \"v" + std::to_string(i) + "\", \"l\": [" + std::to_string(i) + "]}\n";
    if (i % 17 == 0) { ndjson += "\n"; }
  }
  const read_result one = read(ndjson, &record);
  ASSERT_TRUE(one.error.ok());
  const std::string bad = ndjson + "{\"a\": \"no\"}\n" + ndjson;
  const read_result failed = read(bad, &record);
  ASSERT_FALSE(failed.error.ok());
  EXPECT_EQ(failed.error.record, 501u);
  EXPECT_EQ(failed.error.path, "/a");
  EXPECT_EQ(failed.error.offset, ndjson.size() + 6);
  for (size_t block : {size_t(1), size_t(100), size_t(4096)}) {
    for (unsigned threads : {1u, 2u, 5u}) {
      arrow_read_options o;
      o.block_size = block;
      o.threads = threads;
      const read_result r = read(ndjson, &record, o);
      EXPECT_EQ(r.rows, one.rows) << block << " " << threads;
      EXPECT_EQ(read(ndjson, nullptr, o).rows, read(ndjson, nullptr).rows) << block << " " << threads;
      const read_result e = read(bad, &record, o);
      EXPECT_EQ(e.error.message, failed.error.message) << block << " " << threads;
    }
  }
}

TEST(ArrowReader, ARecordThatIsNotAnObjectIsNamedSoWhenInferring) {
  // The first record, or one after others: found by the first pass over a block or by the
  // pass that reads a failed block again, with the same message on every route.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"7\n", "record 1: a record must be an object, found an integer at byte 0"},
      {"{\"a\": 1}\n[1]\n", "record 2: a record must be an object, found an array at byte 9"},
      {"{\"a\": 1}\n\"x\"\n{\"b\": 2}\n", "record 2: a record must be an object, found a string at byte 9"},
  };
  for (const auto &[ndjson, message] : cases) {
    for (size_t block : {size_t(1), size_t(1) << 20}) {
      for (unsigned threads : {1u, 3u}) {
        for (bool reference : {false, true}) {
          arrow_read_options options;
          options.block_size = block;
          options.threads = threads;
          options.reference_reader = reference;
          EXPECT_EQ(read(ndjson, nullptr, options).error.message, message) << block << " " << threads << " " << reference;
        }
      }
    }
  }
}

TEST(ArrowReader, MalformedRecordsAreTheScalarParsersErrors) {
  EXPECT_EQ(read("{\"a\": 1}\n{\"a\": tru}\n", &record).error.message, "record 2: invalid literal: expected true, false or null at byte 15");
  EXPECT_EQ(read("{\"a\": 1}\n[1]\n", &record).error.message, "record 2: a record must be an object, found an array at byte 9");
  EXPECT_EQ(read("{\"a\": 1", &record).error.code, error_code::unexpected_end);
  // An integer past 64 bits is a double: no int64 (see IntegersPast64BitsAreReadAsDoubles).
  EXPECT_EQ(read("{\"a\": 99999999999999999999999}", &record).error.code, error_code::type_mismatch);
  EXPECT_EQ(read("{\"a\": 1, \"a\": 2}", &record).error.detail, "the key appears twice in the object");
  arrow_read_options strict;
  strict.error_on_unknown_fields = true;
  EXPECT_EQ(read("{\"zz\": 1}", &record, strict).error.path, "/zz");
  arrow_read_options shallow;
  shallow.limits.max_depth = 2;
  EXPECT_EQ(read("{\"o\": {\"x\": 1}}", &record, shallow).rows.size(), 1u); // a scalar at the limit
  EXPECT_EQ(read("{\"o\": {\"x\": [1]}}", &record, shallow).error.code, error_code::depth_limit);
}

TEST(ArrowReader, IntegersPast64BitsAreReadAsDoubles) {
  // simdjson 3.0.1 reads no integer past 64 bits; pyarrow and DuckDB read one as the nearest
  // double, and so does this reader: into a double, a decimal (exactly, from its text), a string
  // taking any value, skipped, and inferred (a double). The records the block reader refuses (past
  // a depth limit of 3 here) go through simdjson's DOM with ".0" written after each such integer,
  // and nowhere else: a string of digits stays as it is (in such a record a decimal or a string
  // field takes the double's digits). A number past the double range and a
  // lone surrogate escape are still errors (as in pyarrow), and no such integer is an int64.
  field dec = make("d", kind::decimal128);
  dec.precision = 38;
  const field schema = make("", kind::structure, {
      make("f", kind::float64), dec, make("s", kind::utf8), make("u", kind::uint64), make("i", kind::int64),
      make("o", kind::structure, {make("p", kind::structure, {make("f", kind::float64), make("t", kind::utf8)})}),
  });
  const std::string ndjson =
      "{\"f\": 123456789012345678901234567890, \"d\": -123456789012345678901234567890, \"s\": 99999999999999999999, "
      "\"u\": 18446744073709551615, \"x\": [123456789012345678901234567890, -123456789012345678901]}\n"
      "{\"o\": {\"p\": {\"f\": -18446744073709551616, \"t\": \"\\\"123456789012345678901234567890\"}}, "
      "\"f\": 18446744073709551616, \"u\": 18446744073709551615, \"i\": -9223372036854775808}\n"
      "{\"f\": 1.5e3, \"u\": 7}\n";
  const std::vector<std::string> expected = {
      "{f:1.2345678901234568e+29,d:-123456789012345678901234567890,s:\"99999999999999999999\","
      "u:18446744073709551615,i:null,o:null}",
      "{f:1.8446744073709552e+19,d:null,s:null,u:18446744073709551615,i:-9223372036854775808,o:{p:{"
      "f:-1.8446744073709552e+19,t:\"\"123456789012345678901234567890\"}}}",
      "{f:1500,d:null,s:null,u:7,i:null,o:null}",
  };
  for (uint32_t depth : {3u, 64u}) {
    for (bool reference : {false, true}) {
      arrow_read_options o;
      o.any_value_as_string = true;
      o.limits.max_depth = depth;
      o.reference_reader = reference;
      const read_result r = read(ndjson, &schema, o);
      ASSERT_TRUE(r.error.ok()) << r.error.message;
      EXPECT_EQ(r.rows, expected) << depth << " " << reference;
    }
  }
  const read_result inferred = read("{\"a\": 1}\n{\"a\": -123456789012345678901234567890, \"b\": [1e2]}\n", nullptr);
  ASSERT_TRUE(inferred.error.ok()) << inferred.error.message;
  EXPECT_EQ(inferred.schema, "struct<a: double, b: list<double>>");
  EXPECT_EQ(inferred.rows[1], "{a:-1.2345678901234568e+29,b:[100]}");
  // Below int64's minimum takes 19 digits: read by the block reader too (a decimal exactly).
  const field just_past = make("", kind::structure, {dec});
  const read_result negative = read("{\"d\": -9223372036854775809}\n", &just_past);
  ASSERT_TRUE(negative.error.ok()) << negative.error.message;
  EXPECT_EQ(negative.rows[0], "{d:-9223372036854775809}");
  const read_result wide = read("{\"a\": 123456789012345678901234567890}\n", &record);
  EXPECT_EQ(wide.error.message, "record 1, field /a: expected int64, found an integer past 64 bits at byte 6");
  for (const char *past : {"{\"f\": 1e400}", "{\"t\": \"\\ud800\"}"}) {
    const read_result r = read(past, &schema);
    EXPECT_EQ(r.error.code, error_code::unsupported_value) << past;
    EXPECT_NE(r.error.message.find("a number past the double range, or a lone surrogate escape"), std::string::npos);
  }
}

/** A record: an object holding arrays nested so that the whole is `depth` deep. */
std::string nested_record(size_t depth) {
  return "{\"a\": " + std::string(depth - 1, '[') + "1" + std::string(depth - 1, ']') + "}\n";
}

struct inferred {
  arrow_error error;
  bool ran = false;
};

/** infer_arrow_schema of `record` under `options`, on a thread of `stack` bytes of stack. */
inferred infer_on_a_thread(const std::string &record, const arrow_read_options &options, size_t stack) {
  struct job {
    const std::string *record;
    const arrow_read_options *options;
    inferred out;
  } j{&record, &options, {}};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack);
  pthread_t thread;
  const auto run = [](void *p) -> void * {
    auto *j = static_cast<job *>(p);
    ArrowSchema schema{};
    j->out.error = infer_arrow_schema(input::copy_of(j->record->data(), j->record->size()), *j->options, &schema);
    if (schema.release != nullptr) { schema.release(&schema); }
    j->out.ran = true;
    return nullptr;
  };
  if (pthread_create(&thread, &attr, run, &j) == 0) { pthread_join(thread, nullptr); }
  pthread_attr_destroy(&attr);
  return j.out;
}

TEST(ArrowReader, NestingStopsAtTheDefaultDepthAndWhereTheStackEnds) {
  // Under max_depth 2^32 - 1, a record nested 30,000 deep overflowed the stack in inference (a
  // segfault); Arrow reads take max_depth at most the default, and inference stops where the
  // thread's stack ends.
  arrow_read_options deep;
  deep.limits.max_depth = UINT32_MAX;
  EXPECT_TRUE(read(nested_record(1024), nullptr, deep).error.ok());
  for (size_t depth : {size_t(1025), size_t(30000), size_t(1000000)}) {
    const read_result r = read(nested_record(depth), nullptr, deep);
    EXPECT_EQ(r.error.code, error_code::depth_limit) << depth;
    EXPECT_EQ(r.error.message, "record 1: arrays and objects nest deeper than the depth limit at byte 1029") << depth;
  }
  // A thread of 128 KB holds about a hundred levels of inference, not the default's 1024.
  const inferred small = infer_on_a_thread(nested_record(1000), deep, size_t(128) << 10);
  ASSERT_TRUE(small.ran);
  EXPECT_FALSE(small.error.ok());
  EXPECT_NE(small.error.message.find("deeper than this thread's stack holds"), std::string::npos) << small.error.message;
  EXPECT_TRUE(infer_on_a_thread(nested_record(20), deep, size_t(128) << 10).error.ok());
}

TEST(ArrowReader, BadRecordsAreKeptOrDroppedAsSparksModes) {
  const field with_corrupt = make("", kind::structure, {
      make("a", kind::int64), make("s", kind::utf8),
      make("l", kind::list, {make("item", kind::float64)}),
      make("o", kind::structure, {make("x", kind::int32), make("y", kind::utf8)}),
      make("_corrupt", kind::utf8),
  });
  const std::string ndjson = "{\"a\": 1, \"s\": \"x\", \"_corrupt\": \"not read\"}\n"
                             "{\"a\": \"no\", \"s\": \"kept\", \"l\": [1, \"two\"], \"o\": {\"x\": 1.5, \"y\": \"z\"}}\n"
                             "{\"a\": tru}\r\n"
                             "[1, 2]\n"
                             "\n"
                             "{\"a\": 99999999999999999999999, \"s\": \"big\"}\n"
                             "{\"a\": 2, \"a\": 3, \"o\": {\"x\": 4}}\n"
                             "{\"a\": 5, \"o\": [1]}\n";
  arrow_read_options keep;
  keep.on_bad_record = bad_records::keep;
  keep.corrupt_record_field = "_corrupt";
  const read_result kept = read(ndjson, &with_corrupt, keep);
  ASSERT_TRUE(kept.error.ok()) << kept.error.message;
  EXPECT_EQ(kept.schema, "struct<a: int64, s: string, l: list<double>, o: struct<x: int32, y: string>, _corrupt: string>");
  const std::vector<std::string> expected = {
      "{a:1,s:\"x\",l:null,o:null,_corrupt:null}",
      // each field that did not fit is null (the innermost struct field), the rest are kept
      "{a:null,s:\"kept\",l:null,o:{x:null,y:\"z\"},_corrupt:\"{\"a\": \"no\", \"s\": \"kept\", \"l\": [1, \"two\"], "
      "\"o\": {\"x\": 1.5, \"y\": \"z\"}}\"}",
      "{a:null,s:null,l:null,o:null,_corrupt:\"{\"a\": tru}\"}",
      "{a:null,s:null,l:null,o:null,_corrupt:\"[1, 2]\"}",
      "{a:null,s:\"big\",l:null,o:null,_corrupt:\"{\"a\": 99999999999999999999999, \"s\": \"big\"}\"}",
      "{a:3,s:null,l:null,o:{x:4,y:null},_corrupt:null}", // a key twice: the last value, as Spark
      "{a:5,s:null,l:null,o:null,_corrupt:\"{\"a\": 5, \"o\": [1]}\"}",
  };
  EXPECT_EQ(kept.rows, expected);
  arrow_read_options drop = keep;
  drop.on_bad_record = bad_records::drop;
  const read_result dropped = read(ndjson, &with_corrupt, drop);
  ASSERT_TRUE(dropped.error.ok()) << dropped.error.message;
  EXPECT_EQ(dropped.rows, (std::vector<std::string>{expected[0], expected[5]}));
  // The same for every cut and thread count, and from a file.
  std::string many;
  for (int i = 0; i < 300; i++) { many += i % 7 == 3 ? "{\"a\": [" + std::to_string(i) + "}\n" : ndjson; }
  const read_result whole = read(many, &with_corrupt, keep);
  ASSERT_TRUE(whole.error.ok());
  for (size_t block : {size_t(1), size_t(64), size_t(5000)}) {
    for (unsigned threads : {1u, 3u}) {
      arrow_read_options o = keep;
      o.block_size = block;
      o.threads = threads;
      EXPECT_EQ(read(many, &with_corrupt, o).rows, whole.rows) << block << " " << threads;
      o.on_bad_record = bad_records::drop;
      EXPECT_EQ(read(many, &with_corrupt, o).rows.size(), 2u * (300u - 43u)) << block << " " << threads;
    }
  }
  // A corrupt-record field must be a string; failing is still the default.
  arrow_read_options wrong = keep;
  wrong.corrupt_record_field = "a";
  EXPECT_EQ(read(ndjson, &with_corrupt, wrong).error.code, error_code::invalid_argument);
  EXPECT_EQ(read(ndjson, &with_corrupt).error.record, 2u);
}

/** NDJSON read with a schema and written back by arrow_to_ndjson ("" where either fails). */
std::string read_and_write(const std::string &ndjson, const field &schema) {
  ArrowSchema given{};
  arrow::export_schema(schema, &given);
  ArrowArrayStream stream{};
  const bool read_ok = ndjson_to_arrow(input::copy_of(ndjson), &given, {}, &stream).ok();
  given.release(&given);
  std::string written;
  if (!read_ok) { return ""; }
  const bool written_ok = arrow_to_ndjson(&stream, {}, written).ok();
  stream.release(&stream);
  return written_ok ? written : "";
}

TEST(ArrowDecimal, NumberTextAtAScaleRoundedHalfUpAsBigDecimal) {
  struct example {
    unsigned precision;
    int scale;
    const char *text;
    const char *expected; // nullptr: refused
  };
  const example examples[] = {
      {5, 2, "123.456", "123.46"}, {5, 2, "123.455", "123.46"}, {5, 2, "-123.455", "-123.46"},
      {5, 2, "123.454", "123.45"}, {5, 2, "1234.5", nullptr}, {5, 2, "999.995", nullptr}, {5, 2, "999.994", "999.99"},
      {10, 0, "1e3", "1000"}, {10, 3, "1.5E-2", "0.015"}, {10, 2, "0.004", "0.00"}, {10, 2, "0.005", "0.01"},
      {10, 2, "-0.005", "-0.01"}, {10, 2, ".5", "0.50"}, {10, 2, "5.", "5.00"}, {10, 2, "+1", "1.00"},
      {38, 0, "99999999999999999999999999999999999999", "99999999999999999999999999999999999999"},
      {38, 0, "999999999999999999999999999999999999999", nullptr}, {38, 0, "-1e37", "-10000000000000000000000000000000000000"},
      {10, 2, "0e999999999999", "0.00"}, {10, 2, "1e-99999999999", "0.00"}, {10, 2, "1e99999999999", nullptr},
      {3, 0, "0.5", "1"}, {1, 0, "9.5", nullptr}, {1, 0, "9.4", "9"}, {38, 10, "0.00000000001", "0.0000000000"},
      {38, 10, "0.00000000005", "0.0000000001"}, {4, 1, "000123.40", "123.4"}, {2, 2, "0.999", nullptr},
      {10, 2, "", nullptr}, {10, 2, "-", nullptr}, {10, 2, "1e", nullptr}, {10, 2, "1.2.3", nullptr},
      {10, 2, "abc", nullptr}, {10, 2, "1,000", nullptr}, {10, 2, " 1", nullptr}, {10, 2, ".", nullptr},
  };
  for (const example &e : examples) {
    arrow::int128 v = 0;
    const bool ok = arrow::parse_decimal(e.text, e.precision, e.scale, v);
    EXPECT_EQ(ok, e.expected != nullptr) << e.text;
    if (ok && e.expected != nullptr) {
      char text[48];
      EXPECT_EQ(std::string(text, arrow::write_decimal128(v, e.scale, text)), e.expected) << e.text;
    }
  }
}

TEST(ArrowDecimal, ReadFromNumbersAndStringsAndWrittenBack) {
  field amount = make("amount", kind::decimal128);
  amount.precision = 9;
  amount.scale = 2;
  const field schema = make("", kind::structure, {amount, make("l", kind::list, {amount})});
  const std::string ndjson = "{\"amount\": 12.345, \"l\": [1, \"2.5\", -0.004, null]}\n{\"amount\": \"-7\"}\n"
                             "{\"amount\": 1e2}\n{\"amount\": null}\n";
  const read_result r = read(ndjson, &schema);
  ASSERT_TRUE(r.error.ok()) << r.error.message;
  EXPECT_EQ(r.schema, "struct<amount: decimal128(9, 2), l: list<decimal128(9, 2)>>");
  const std::vector<std::string> rows = {"{amount:12.35,l:[1.00,2.50,0.00,null]}", "{amount:-7.00,l:null}",
                                         "{amount:100.00,l:null}", "{amount:null,l:null}"};
  EXPECT_EQ(r.rows, rows);
  // The record reader (the DOM's numbers) gives the same.
  arrow_read_options reference;
  reference.reference_reader = true;
  EXPECT_EQ(read(ndjson, &schema, reference).rows, rows);
  // Too many digits, or not a number: a type error, or a null field of a kept record.
  EXPECT_EQ(read("{\"amount\": 12345678.9}", &schema).error.detail,
            "expected decimal128(9, 2), found a number with a fraction or an exponent: not a number that fits the decimal");
  EXPECT_EQ(read("{\"amount\": \"x\"}", &schema).error.code, error_code::type_mismatch);
  arrow_read_options keep;
  keep.on_bad_record = bad_records::keep;
  EXPECT_EQ(read("{\"amount\": 12345678.9, \"l\": [1]}", &schema, keep).rows,
            (std::vector<std::string>{"{amount:null,l:[1.00]}"}));
  // Written as numbers at the scale.
  EXPECT_EQ(read_and_write(ndjson, schema), "{\"amount\":12.35,\"l\":[1.00,2.50,0.00,null]}\n{\"amount\":-7.00,\"l\":null}\n"
                     "{\"amount\":100.00,\"l\":null}\n{\"amount\":null,\"l\":null}\n");
}

TEST(ArrowMap, ObjectsAsMapsOfStringKeysReadAndWrittenBack) {
  field key = make("key", kind::utf8);
  key.nullable = false;
  field entries = make("entries", kind::structure, {key, make("value", kind::list, {make("item", kind::int64)})});
  entries.nullable = false;
  const field schema = make("", kind::structure, {make("m", kind::map, {entries}), make("n", kind::int64)});
  const std::string ndjson = "{\"m\": {\"a\": [1, 2], \"b\\u00e9\": null, \"a\": []}, \"n\": 1}\n{\"m\": {}}\n"
                             "{\"m\": null, \"n\": 3}\n{\"n\": 4}\n";
  const std::vector<std::string> rows = {"{m:{\"a\":[1,2],\"b\u00e9\":null,\"a\":[]},n:1}", "{m:{},n:null}",
                                         "{m:null,n:3}", "{m:null,n:4}"};
  for (const bool reference : {false, true}) {
    arrow_read_options o;
    o.reference_reader = reference;
    const read_result r = read(ndjson, &schema, o);
    ASSERT_TRUE(r.error.ok()) << r.error.message;
    EXPECT_EQ(r.schema, "struct<m: map<string, list<int64>>, n: int64>");
    EXPECT_EQ(r.rows, rows) << reference;
  }
  EXPECT_EQ(read("{\"m\": {\"a\": [\"x\"]}}", &schema).error.path, "/m/a/0");
  EXPECT_EQ(read("{\"m\": [1]}", &schema).error.code, error_code::type_mismatch);
  arrow_read_options keep;
  keep.on_bad_record = bad_records::keep;
  EXPECT_EQ(read("{\"m\": {\"a\": [1], \"b\": [\"x\"]}, \"n\": 5}\n", &schema, keep).rows,
            (std::vector<std::string>{"{m:null,n:5}"}));
  EXPECT_EQ(read_and_write(ndjson, schema), "{\"m\":{\"a\":[1,2],\"b\u00e9\":null,\"a\":[]},\"n\":1}\n{\"m\":{},\"n\":null}\n"
                     "{\"m\":null,\"n\":3}\n{\"m\":null,\"n\":4}\n");
}

TEST(ArrowReader, SparksTemporalsAreSecondsAndDateStrings) {
  field ts = make("ts", kind::timestamp);
  ts.unit = 'u';
  ts.timezone = "UTC";
  const field schema = make("", kind::structure, {ts, make("day", kind::date32)});
  const std::string ndjson = "{\"ts\": 86400, \"day\": \"1970-01-03\"}\n{\"ts\": \"1970-01-01T00:00:01.5Z\"}\n";
  arrow_read_options spark;
  spark.spark_temporals = true;
  for (const bool reference : {false, true}) {
    spark.reference_reader = reference;
    EXPECT_EQ(read(ndjson, &schema, spark).rows, (std::vector<std::string>{"{ts:86400000000,day:2}", "{ts:1500000,day:null}"}));
    EXPECT_EQ(read("{\"day\": 2}", &schema, spark).error.code, error_code::type_mismatch) << reference;
    EXPECT_EQ(read("{\"ts\": 9223372036854775807}", &schema, spark).error.code, error_code::type_mismatch);
  }
  EXPECT_EQ(read(ndjson, &schema).rows, (std::vector<std::string>{"{ts:86400,day:2}", "{ts:1500000,day:null}"}));
  EXPECT_EQ(read("{\"day\": 2}", &schema).rows, (std::vector<std::string>{"{ts:null,day:2}"}));
}

TEST(ArrowReader, AStringFieldTakesAnyValueAsItsJsonText) {
  const field strings = make("", kind::structure, {make("s", kind::utf8), make("n", kind::int64)});
  arrow_read_options any;
  any.any_value_as_string = true;
  const read_result r = read("{\"s\": 12, \"n\": 1}\n{\"s\": {\"k\": [true, null, \"v\"]}}\n{\"s\": null}\n{\"s\": \"t\"}\n",
                             &strings, any);
  ASSERT_TRUE(r.error.ok()) << r.error.message;
  EXPECT_EQ(r.rows, (std::vector<std::string>{"{s:\"12\",n:1}", "{s:\"{\"k\": [true, null, \"v\"]}\",n:null}",
                                              "{s:null,n:null}", "{s:\"t\",n:null}"}));
  EXPECT_EQ(read("{\"s\": 12}", &strings).error.code, error_code::type_mismatch);
}


namespace block_reader {

/** Random records over every type the reader takes, with unknown keys, escapes and blank lines;
 *  one in `bad` of them broken somewhere (a byte flipped, cut, or a wrong type). */
struct generator {
  explicit generator(uint32_t seed) : state(seed) {}
  uint32_t state;
  uint32_t next(uint32_t n) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % n;
  }
  std::string string() {
    static const char *pieces[] = {"a", "b", "\\n", "\\\"", "\\u00e9", "é", "\\ud83d\\ude00", "xyz", " ", "\\\\", "\\/"};
    std::string s = "\"";
    for (uint32_t k = next(6); k > 0; k--) { s += pieces[next(11)]; }
    return s + "\"";
  }
  std::string any(int depth) {
    switch (next(depth > 2 ? 5 : 7)) {
    case 0: return std::to_string(int64_t(next(2000000)) - 1000000);
    case 1: return std::to_string(next(1000)) + "." + std::to_string(next(1000)) + "e" + std::to_string(int(next(10)) - 5);
    case 2: return string();
    case 3: return next(2) ? "true" : "false";
    case 4: return "null";
    case 5: {
      std::string s = "[";
      for (uint32_t k = next(4); k > 0; k--) { s += any(depth + 1) + (k > 1 ? "," : ""); }
      return s + "]";
    }
    default: {
      std::string s = "{";
      for (uint32_t k = next(4); k > 0; k--) { s += "\"k" + std::to_string(next(3)) + "\":" + any(depth + 1) + (k > 1 ? "," : ""); }
      return s + "}";
    }
    }
  }
  std::string value_of(kind k) {
    if (next(8) == 0) { return "null"; }
    switch (k) {
    case kind::int64: return std::to_string(int64_t(next(4000000000u)) - 2000000000);
    case kind::uint8: return std::to_string(next(256));
    case kind::float64: return std::to_string(int(next(2000)) - 1000) + (next(2) ? "." + std::to_string(next(100000)) : "");
    case kind::boolean: return next(2) ? "true" : "false";
    case kind::utf8: return string();
    case kind::timestamp: return next(3) ? "\"2024-0" + std::to_string(1 + next(9)) + "-1" + std::to_string(next(10)) + "T1" + std::to_string(next(10)) + ":0" + std::to_string(next(10)) + ":00.12" + std::to_string(next(10)) + "Z\"" : std::to_string(next(1000000));
    case kind::date32: return next(2) ? "\"2023-1" + std::to_string(next(3)) + "-0" + std::to_string(1 + next(9)) + "\"" : std::to_string(next(30000));
    default: return "null";
    }
  }
  std::string record(const field &f, bool inner = false) {
    std::vector<std::string> members;
    for (const field &c : f.children) {
      if (next(6) == 0) { continue; } // absent
      std::string v;
      if (c.type == kind::structure) {
        v = next(8) == 0 ? "null" : record(c, true);
      } else if (c.type == kind::list) {
        v = "[";
        for (uint32_t k = next(4); k > 0; k--) { v += value_of(c.children[0].type) + (k > 1 ? "," : ""); }
        v += "]";
      } else {
        v = value_of(c.type);
      }
      members.push_back("\"" + c.name + "\": " + v);
    }
    for (uint32_t k = next(inner ? 2 : 4); k > 0; k--) { // keys the schema lacks, anywhere
      members.insert(members.begin() + next(uint32_t(members.size() + 1)), "\"zz" + std::to_string(next(9)) + "\":" + any(0));
    }
    if (next(4) == 0 && members.size() > 1) { std::swap(members[0], members[members.size() - 1]); } // out of order
    std::string s = "{";
    for (size_t m = 0; m < members.size(); m++) { s += (m ? ", " : "") + members[m]; }
    return s + "}";
  }
};

const field rich = make("", kind::structure, {
    make("i", kind::int64), make("u", kind::uint8), make("d", kind::float64), make("b", kind::boolean),
    make("s", kind::utf8), [] { field t = make("t", kind::timestamp); t.unit = 'm'; return t; }(),
    make("day", kind::date32), make("l", kind::list, {make("item", kind::utf8)}),
    make("o", kind::structure, {make("x", kind::int64), make("e\\u0301", kind::utf8), make("n", kind::structure, {make("y", kind::float64)})}),
    make("nothing", kind::null),
});

TEST(ArrowBlockReader, TheSameTablesAndErrorsAsTheRecordReader) {
  size_t failures = 0, checked = 0;
  for (uint32_t seed = 1; seed <= 300; seed++) {
    generator g(seed);
    std::string ndjson;
    const uint32_t records = 1 + g.next(40);
    for (uint32_t r = 0; r < records; r++) {
      ndjson += g.record(rich);
      ndjson += g.next(5) == 0 ? "\r\n" : g.next(9) == 0 ? "\n\n" : "\n";
    }
    if (seed % 3 == 0) { // break it somewhere
      const size_t at = g.next(uint32_t(ndjson.size()));
      switch (g.next(4)) {
      case 0: ndjson[at] = "x,{}[]\":1 \n"[g.next(11)]; break;
      case 1: ndjson.resize(at); break;
      case 2: ndjson.insert(at, "\n"); break;
      default: ndjson.insert(at, "\\"); break;
      }
    }
    for (bool validate : {true, false}) {
      arrow_read_options fast, reference;
      fast.validate_skipped = validate;
      fast.block_size = 1 + g.next(600);
      reference.reference_reader = true;
      reference.block_size = fast.block_size;
      const read_result a = read(ndjson, &rich, fast);
      const read_result b = read(ndjson, &rich, reference);
      if (!validate && !b.error.ok()) { continue; } // without validation, a bad skipped value may pass
      checked++;
      EXPECT_EQ(a.error.message, b.error.message) << "seed " << seed << "\n" << ndjson;
      EXPECT_EQ(a.rows, b.rows) << "seed " << seed << "\n" << ndjson;
      failures += !b.error.ok();
    }
  }
  EXPECT_GT(failures, 50u); // the broken inputs do fail
  EXPECT_GT(checked, 400u);
}

TEST(ArrowBlockReader, InferenceFromTheFirstBlockGivesTheWholeInputsSchema) {
  // Records of one shape, then (in some inputs) a key or a type the first block did not have:
  // the schema and the rows must be those of inference over the whole input.
  size_t inferred = 0;
  for (uint32_t seed = 1; seed <= 200; seed++) {
    generator g(seed);
    std::string ndjson;
    const uint32_t records = 2 + g.next(60);
    const uint32_t odd = g.next(records * 2); // past the end: none
    for (uint32_t r = 0; r < records; r++) {
      ndjson += "{\"a\": " + std::to_string(g.next(100)) + ", \"s\": " + g.string() + ", \"o\": {\"x\": " +
                (g.next(3) ? "true" : "null") + "}, \"l\": [" + (g.next(2) ? "1.5" : "") + "]";
      if (r == odd) {
        ndjson += std::vector<std::string>{", \"new\": 1", ", \"o2\": {}", ""}[g.next(3)];
        if (g.next(2)) { ndjson += ", \"a\": 2.5"; } // a key twice: an error either way
      }
      ndjson += g.next(3) ? "}\n" : ", \"n\": null}\n";
      if (r == odd && g.next(2)) { ndjson += "{\"o\": {\"y\": [\"z\"]}, \"a\": 0.5}\n"; }
      if (r == odd && g.next(4) == 0) { ndjson += "{\"s\": 1}\n"; } // a conflict: its record number
    }
    arrow_read_options fast, reference;
    fast.block_size = reference.block_size = 1 + g.next(400);
    fast.threads = 1 + g.next(3);
    reference.reference_reader = true;
    const read_result a = read(ndjson, nullptr, fast);
    const read_result b = read(ndjson, nullptr, reference);
    EXPECT_EQ(a.error.message, b.error.message) << "seed " << seed << "\n" << ndjson;
    EXPECT_EQ(a.schema, b.schema) << "seed " << seed << "\n" << ndjson;
    EXPECT_EQ(a.rows, b.rows) << "seed " << seed << "\n" << ndjson;
    inferred += b.error.ok();
  }
  EXPECT_GT(inferred, 100u);
}

TEST(ArrowBlockReader, InferenceOfWideRecordsKeepsTheOrderKeysFirstAppearIn) {
  // Past 16 fields inference looks keys up by name (arrow::child_index): records of up to 60 of
  // 90 keys in random order, a nested object of as many, over blocks, threads and the reference
  // reader: the fields are those of a linear search, in the order they first appear.
  for (uint32_t seed = 1; seed <= 40; seed++) {
    generator g(seed);
    std::string ndjson;
    std::vector<std::string> top, nested; // the expected fields, in order of first appearance
    const auto note = [](std::vector<std::string> &seen, const std::string &key) {
      if (std::find(seen.begin(), seen.end(), key) == seen.end()) { seen.push_back(key); }
    };
    const auto members = [&](std::vector<std::string> &seen, uint32_t count) {
      std::string out;
      std::vector<bool> used(90);
      for (uint32_t m = 0; m < count; m++) {
        const uint32_t k = g.next(90);
        if (used[k]) { continue; }
        used[k] = true;
        const std::string key = "key" + std::to_string(k);
        note(seen, key);
        out += (out.empty() ? "\"" : ", \"") + key + "\": " + std::to_string(k);
      }
      return out;
    };
    const uint32_t records = 1 + g.next(30);
    for (uint32_t r = 0; r < records; r++) {
      std::string record = members(top, g.next(60));
      if (g.next(2)) {
        note(top, "o");
        record += (record.empty() ? "" : ", ") + std::string("\"o\": {") + members(nested, g.next(60)) + "}";
      }
      ndjson += "{" + record + "}\n";
    }
    std::string expected = "struct<";
    for (const std::string &key : top) {
      if (expected.size() > 7) { expected += ", "; }
      if (key != "o") {
        expected += key + ": int64";
        continue;
      }
      expected += "o: struct<";
      for (size_t i = 0; i < nested.size(); i++) { expected += (i ? ", " : "") + nested[i] + ": int64"; }
      expected += ">";
    }
    expected += ">";
    arrow_read_options fast, reference;
    fast.block_size = 1 + g.next(2000);
    fast.threads = 1 + g.next(3);
    reference.reference_reader = true;
    for (const arrow_read_options &options : {fast, reference}) {
      const read_result r = read(ndjson, nullptr, options);
      ASSERT_TRUE(r.error.ok()) << r.error.message;
      EXPECT_EQ(r.schema, expected) << "seed " << seed << "\n" << ndjson;
      EXPECT_EQ(r.rows.size(), records);
    }
  }
}

TEST(ArrowReader, InferenceOverOneWideObjectTakesLinearTime) {
  // Each key looked up among the fields so far: linear, not quadratic, in the keys.
  const auto object_of = [](size_t keys) {
    std::string json = "{";
    for (size_t k = 0; k < keys; k++) { json += (k ? ",\"k" : "\"k") + std::to_string(k) + "\":1"; }
    return json + "}\n";
  };
  const std::string small = object_of(25000), large = object_of(100000);
  const auto seconds = [](const std::string &ndjson) {
    double best = 1e9;
    for (int round = 0; round < 3; round++) {
      const auto start = std::chrono::steady_clock::now();
      ArrowSchema schema{};
      const arrow_error e = infer_arrow_schema(input::copy_of(ndjson), {}, &schema);
      EXPECT_TRUE(e.ok()) << e.message;
      if (schema.release) {
        EXPECT_EQ(schema.n_children, ndjson.size() > 1000000 ? 100000 : 25000);
        schema.release(&schema);
      }
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
  };
  const double t1 = seconds(small), t4 = seconds(large);
  // Four times the keys: 4 when linear, 16 when quadratic. Linear inference measures 5 to 8.4
  // (100,000 fields fit no cache that 25,000 fit), the quadratic search measured 25.
  EXPECT_LT(t4 / t1, 12.0) << t1 << " s, then " << t4 << " s for four times the keys";
}

TEST(ArrowReader, RecordsTakenBackFromAWideSchemaTakeTimeOfTheirOwnSize) {
  // Inference that keeps bad records takes back what a conflicting record merged: its new keys
  // leave the struct's index of names as well, which would otherwise be built again whole for
  // the next record (time growing with the schema's width times the bad records).
  std::string wide = "{";
  for (size_t k = 0; k < 16000; k++) { wide += (k ? ",\"k" : "\"k") + std::to_string(k) + "\":1"; }
  wide += "}\n";
  std::string bad = wide;
  for (int r = 0; r < 4000; r++) { bad += "{\"new" + std::to_string(r) + "\": 1, \"k0\": \"x\"}\n"; }
  arrow_read_options keep;
  keep.on_bad_record = bad_records::keep;
  const auto seconds = [&](const std::string &ndjson) {
    double best = 1e9;
    for (int round = 0; round < 3; round++) {
      const auto start = std::chrono::steady_clock::now();
      ArrowSchema schema{};
      const arrow_error e = infer_arrow_schema(input::copy_of(ndjson), keep, &schema);
      EXPECT_TRUE(e.ok()) << e.message;
      if (schema.release) { schema.release(&schema); }
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
  };
  const double alone = seconds(wide), with_bad = seconds(bad);
  // 4000 bad records after a record of 16,000 keys: about the time of that record alone (0.9 to
  // 1.0 measured); rebuilding the index for each record measured 330 times it.
  EXPECT_LT(with_bad / alone, 4.0) << alone << " s, then " << with_bad << " s with 4000 bad records";
}

/**
 * Up to `most` records of the rich schema, some with a blank line after them; for every
 * `broken_every`th seed a byte changed, and for every fifth the last line cut short (`count`:
 * the records written).
 */
std::string rich_records(generator &g, uint32_t seed, uint32_t most, uint32_t broken_every, uint32_t *count = nullptr) {
  std::string ndjson;
  const uint32_t records = g.next(most);
  if (count != nullptr) { *count = records; }
  for (uint32_t r = 0; r < records; r++) { ndjson += g.record(rich) + (g.next(7) == 0 ? "\r\n\n" : "\n"); }
  if (seed % broken_every == 0 && !ndjson.empty()) { ndjson[g.next(uint32_t(ndjson.size()))] = "x{\"1"[g.next(4)]; }
  if (seed % 5 == 0) { ndjson.resize(ndjson.size() - std::min<size_t>(ndjson.size(), g.next(40))); }
  return ndjson;
}

/** read() over a file: ndjson_file_to_arrow. */
read_result read_file(const std::string &ndjson, const field *schema, arrow_read_options options) {
  char path[] = "/tmp/simdbridge-arrow-XXXXXX";
  const int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(write(fd, ndjson.data(), ndjson.size()), ssize_t(ndjson.size()));
  ArrowSchema given{};
  if (schema != nullptr) { arrow::export_schema(*schema, &given); }
  ArrowArrayStream stream{};
  read_result r;
  r.error = ndjson_file_to_arrow(fd, schema ? &given : nullptr, options, &stream);
  if (given.release) { given.release(&given); }
  close(fd);
  unlink(path);
  return drain(r, stream);
}

/**
 * read() over a pipe: `head`, then `fill` repeated to `count` bytes, then `tail`, written by a
 * thread until the reader closes its end; `written` says how much it took, `held` the most heap
 * in use seen while it wrote.
 */
read_result read_pipe(const std::string &head, char fill, uint64_t count, const std::string &tail, const field *schema,
                      arrow_read_options options, uint64_t *written = nullptr, size_t *held = nullptr) {
  int ends[2];
  EXPECT_EQ(pipe(ends), 0);
  std::atomic<uint64_t> sent{0};
  std::atomic<size_t> most{0};
  const size_t start = heap_in_use();
  std::thread writer([&] {
    signal(SIGPIPE, SIG_IGN);
    const std::string chunk(1 << 16, fill);
    const auto put = [&](const char *p, size_t n) {
      while (n > 0) {
        const ssize_t w = write(ends[1], p, n);
        if (w <= 0) { return false; }
        p += w, n -= size_t(w), sent += uint64_t(w);
        const size_t now = heap_in_use();
        if (now > start && now - start > most) { most = now - start; }
      }
      return true;
    };
    bool open = put(head.data(), head.size());
    for (uint64_t left = count; open && left > 0; left -= std::min<uint64_t>(left, chunk.size())) {
      open = put(chunk.data(), size_t(std::min<uint64_t>(left, chunk.size())));
    }
    if (open) { put(tail.data(), tail.size()); }
    close(ends[1]);
  });
  ArrowSchema given{};
  if (schema != nullptr) { arrow::export_schema(*schema, &given); }
  ArrowArrayStream stream{};
  read_result r;
  r.error = ndjson_file_to_arrow(ends[0], schema ? &given : nullptr, options, &stream);
  if (given.release) { given.release(&given); }
  close(ends[0]);
  writer.join();
  if (written != nullptr) { *written = sent; }
  if (held != nullptr) { *held = most; }
  return drain(r, stream);
}

/** infer_arrow_schema's schema, or its error's message. */
std::string inferred_schema(const std::string &ndjson, const arrow_read_options &options) {
  ArrowSchema out{};
  const arrow_error e = infer_arrow_schema(input::copy_of(ndjson), options, &out);
  if (!e.ok()) { return e.message; }
  const std::string text = describe_arrow_schema(out);
  out.release(&out);
  return text;
}

TEST(ArrowFileReader, InferenceSkipsTheRecordsThatAreKeptOrDropped) {
  // Keeping or dropping bad records with no schema: inference leaves out each record that is
  // not JSON, not an object, or of types that conflict with the records before it (all it had
  // merged taken back, 20 new keys of a wide struct among them), and, keeping them with a
  // corrupt-record field, appends that field as Spark does. The rows are then read with that
  // schema: the same for bytes, a file (whole, or past a block), a pipe, any block size and
  // thread count; infer_arrow_schema(_file) give the same schema.
  std::string wide = "{";
  for (int k = 0; k < 20; k++) { wide += "\"k" + std::to_string(k) + "\": 1, "; }
  std::string wider = wide;
  for (int k = 20; k < 40; k++) { wider += "\"k" + std::to_string(k) + "\": 1, "; }
  const std::string ndjson = "{\"a\": 1, \"s\": \"x\"}\n"
                             "{\"n\": {\"deep\": 1}, \"l\": [1], \"a\": \"no\"}\n"
                             "{\"a\": tru}\n"
                             "[1, 2]\n"
                             "{\"l2\": [1, \"x\"]}\n"
                             "{\"a\": 2.5, \"o\": {\"x\": true}}\n" +
                             wide + "\"a\": 3}\n" + wider + "\"s\": 4}\n" + "{\"k25\": \"t\", \"k3\": 2}\n";
  arrow_read_options keep;
  keep.on_bad_record = bad_records::keep;
  keep.corrupt_record_field = "_corrupt";
  std::string keys;
  for (int k = 0; k < 20; k++) { keys += ", k" + std::to_string(k) + ": int64"; }
  const std::string columns = "struct<a: double, s: string, o: struct<x: bool>" + keys + ", k25: string";
  const std::string wide_nulls = ",k0:null,k1:null,k2:null,k3:null,k4:null,k5:null,k6:null,k7:null,k8:null,k9:null,"
                                 "k10:null,k11:null,k12:null,k13:null,k14:null,k15:null,k16:null,k17:null,k18:null,"
                                 "k19:null,k25:null";
  std::string wide_ones;
  for (int k = 0; k < 20; k++) { wide_ones += ",k" + std::to_string(k) + ":1"; }
  const read_result kept = read(ndjson, nullptr, keep);
  ASSERT_TRUE(kept.error.ok()) << kept.error.message;
  EXPECT_EQ(kept.schema, columns + ", _corrupt: string>");
  EXPECT_EQ(inferred_schema(ndjson, keep), kept.schema);
  const std::vector<std::string> expected = {
      "{a:1,s:\"x\",o:null" + wide_nulls + ",_corrupt:null}",
      "{a:null,s:null,o:null" + wide_nulls + ",_corrupt:\"{\"n\": {\"deep\": 1}, \"l\": [1], \"a\": \"no\"}\"}",
      "{a:null,s:null,o:null" + wide_nulls + ",_corrupt:\"{\"a\": tru}\"}",
      "{a:null,s:null,o:null" + wide_nulls + ",_corrupt:\"[1, 2]\"}",
      "{a:null,s:null,o:null" + wide_nulls + ",_corrupt:null}", // (l2 is not a column)
      "{a:2.5,s:null,o:{x:true}" + wide_nulls + ",_corrupt:null}",
      "{a:3,s:null,o:null" + wide_ones + ",k25:null,_corrupt:null}",
      "{a:null,s:null,o:null" + wide_ones + ",k25:null,_corrupt:\"" + wider + "\"s\": 4}\"}",
      "{a:null,s:null,o:null,k0:null,k1:null,k2:null,k3:2,k4:null,k5:null,k6:null,k7:null,k8:null,k9:null,"
      "k10:null,k11:null,k12:null,k13:null,k14:null,k15:null,k16:null,k17:null,k18:null,k19:null,"
      "k25:\"t\",_corrupt:null}",
  };
  EXPECT_EQ(kept.rows, expected);
  // Dropping them, or keeping them with no corrupt-record field: no such field.
  arrow_read_options drop = keep;
  drop.on_bad_record = bad_records::drop;
  const read_result dropped = read(ndjson, nullptr, drop);
  ASSERT_TRUE(dropped.error.ok()) << dropped.error.message;
  EXPECT_EQ(dropped.schema, columns + ">");
  std::vector<std::string> good;
  for (size_t row : {0, 5, 6, 8}) {
    const std::string &r = expected[row];
    good.push_back(r.substr(0, r.rfind(",_corrupt:")) + "}");
  }
  // (the fifth record is good where it is read: l2 is no column there)
  good.insert(good.begin() + 1, "{a:null,s:null,o:null" + wide_nulls + "}");
  EXPECT_EQ(dropped.rows, good);
  arrow_read_options nameless = keep;
  nameless.corrupt_record_field.clear();
  EXPECT_EQ(read(ndjson, nullptr, nameless).schema, columns + ">");
  // With no bad record, no corrupt-record field either.
  EXPECT_EQ(read("{\"a\": 1}\n{\"a\": 2}\n", nullptr, keep).schema, "struct<a: int64>");
  // Failing is still the default: the second record's conflict.
  EXPECT_EQ(read(ndjson, nullptr).error.record, 2u);
  // The same for every way in.
  std::string many;
  for (int i = 0; i < 40; i++) { many += ndjson; }
  for (const arrow_read_options &mode : {keep, drop}) {
    const read_result whole = read(many, nullptr, mode);
    ASSERT_TRUE(whole.error.ok()) << whole.error.message;
    EXPECT_EQ(whole.schema, mode.on_bad_record == bad_records::keep ? kept.schema : dropped.schema);
    EXPECT_EQ(whole.rows.size(), mode.on_bad_record == bad_records::keep ? 40 * expected.size() : 40 * good.size());
    for (size_t block : {size_t(1), size_t(100), size_t(5000), size_t(1) << 20}) {
      for (unsigned threads : {1u, 3u}) {
        arrow_read_options o = mode;
        o.block_size = block;
        o.threads = threads;
        for (const read_result &r : {read(many, nullptr, o), read_file(many, nullptr, o),
                                     read_pipe(many, ' ', 0, "", nullptr, o)}) {
          EXPECT_TRUE(r.error.ok()) << r.error.message;
          EXPECT_EQ(r.schema, whole.schema) << block << " " << threads;
          EXPECT_EQ(r.rows, whole.rows) << block << " " << threads;
        }
        EXPECT_EQ(inferred_schema(many, o), whole.schema);
        char path[] = "/tmp/simdbridge-infer-XXXXXX";
        const int fd = mkstemp(path);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(write(fd, many.data(), many.size()), ssize_t(many.size()));
        ArrowSchema from_file{};
        ASSERT_TRUE(infer_arrow_schema_file(fd, o, &from_file).ok());
        close(fd);
        unlink(path);
        EXPECT_EQ(describe_arrow_schema(from_file), whole.schema);
        from_file.release(&from_file);
      }
    }
  }
}

TEST(ArrowFileReader, APipeIsReadABlockAtATimeWithItsErrorsLineAndColumn) {
  // With a schema, a pipe (or any file that is not regular) was read whole before any record
  // was: its size in memory, and a device of zeros until memory ran out. It is now read a block
  // at a time as a regular file is: the same batches, rows and errors as over its bytes, and
  // the error's line and column counted as it is read (it cannot be read again for them).
  size_t failures = 0;
  for (uint32_t seed = 1; seed <= 60; seed++) {
    generator g(seed);
    const std::string ndjson = rich_records(g, seed, 300, 3);
    arrow_read_options o;
    o.block_size = 1 + g.next(3000);
    o.threads = 1 + g.next(3);
    for (const field *schema : {static_cast<const field *>(&rich), static_cast<const field *>(nullptr)}) {
      const read_result bytes = read(ndjson, schema, o);
      const read_result piped = read_pipe(ndjson, ' ', 0, "", schema, o);
      EXPECT_EQ(piped.error.message, bytes.error.message) << "seed " << seed;
      EXPECT_EQ(piped.rows, bytes.rows) << "seed " << seed;
      EXPECT_EQ(piped.schema, bytes.schema) << "seed " << seed;
      if (schema != nullptr) { EXPECT_EQ(piped.batches, bytes.batches) << "seed " << seed; }
      if (!bytes.error.ok()) {
        failures++;
        const auto [line, column] = line_and_column_of(ndjson, bytes.error.offset);
        EXPECT_EQ(piped.error.line, line) << "seed " << seed << " " << bytes.error.message;
        EXPECT_EQ(piped.error.column, column) << "seed " << seed << " " << bytes.error.message;
      }
    }
  }
  EXPECT_GT(failures, 20u);
  // 64 MB of records through a pipe, one field of each read: a few blocks held, not the pipe.
  arrow_read_options o;
  o.block_size = 1 << 16;
  const std::string line = "{\"id\": 7, \"text\": \"" + std::string(1000, 'x') + "\"}\n";
  std::string many;
  while (many.size() < (size_t(4) << 20)) { many += line; }
  const field id = make("", kind::structure, {make("id", kind::int64)});
  size_t held = 0;
  uint64_t written = 0;
  const read_result r = read_pipe(many, '\n', uint64_t(60) << 20, "", &id, o, &written, &held);
  EXPECT_TRUE(r.error.ok()) << r.error.message;
  EXPECT_EQ(r.rows.size(), many.size() / line.size());
  EXPECT_EQ(written, many.size() + (uint64_t(60) << 20));
  EXPECT_LT(held, size_t(16) << 20);
  // Inferred, a pipe is kept whole (it is read twice): in linear time (a pipe gives 64 KB a
  // read, and the buffer was zeroed again up to twice its size after each: 64 MB took 42 s).
  const auto start = std::chrono::steady_clock::now();
  const read_result inferred = read_pipe(many, '\n', uint64_t(60) << 20, "", nullptr, o);
  EXPECT_TRUE(inferred.error.ok()) << inferred.error.message;
  EXPECT_EQ(inferred.rows.size(), many.size() / line.size());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
}

TEST(ArrowFileReader, AnInferredPipeStopsAtTheBlockOfItsError) {
  // Inferred, a pipe was read whole before its first record was: a bad record at its start was
  // refused only once the pipe ended (never, for one that does not). Each block is now inferred
  // as it comes, on the threads asked for: the error the whole bytes give, with its line and
  // column, a few blocks in.
  const std::string good = "{\"a\": 1, \"s\": \"x\"}\n";
  std::string many;
  while (many.size() < 200000) { many += good; }
  for (const std::string &bad : {std::string("{\"a\": x}\n"), std::string("{\"a\": \"text\"}\n"),
                                 std::string("[1]\n")}) {
    for (const auto &[head, threads] :
         {std::pair{good + bad, 1u}, std::pair{many + bad, 1u}, std::pair{many + bad, 2u}}) {
      arrow_read_options o;
      o.block_size = 1 << 16;
      o.threads = threads;
      uint64_t written = 0;
      const read_result piped = read_pipe(head, '\n', uint64_t(256) << 20, "", nullptr, o, &written);
      const read_result bytes = read(head + std::string(1000, '\n'), nullptr, o);
      ASSERT_FALSE(bytes.error.ok()) << bad;
      EXPECT_EQ(piped.error.message, bytes.error.message) << bad;
      const auto [line, column] = line_and_column_of(head, bytes.error.offset);
      EXPECT_EQ(piped.error.line, line) << bad;
      EXPECT_EQ(piped.error.column, column) << bad;
      EXPECT_LT(written, uint64_t(16) << 20) << bad;
    }
  }
}

TEST(ArrowFileReader, ALineWithNoEndIsReadOnlyUntilItGoesWrong) {
  // With no length limit, a line with no end grew its block until one came: a pipe of zeros
  // (or any bytes with no line end) was read until memory ran out, with a schema or without.
  // It is now read as it is each time its block doubles, and refused once in error: the error
  // the whole input gives, within a few blocks.
  const std::string spaces(5000, ' ');
  for (const auto &[head, fill] : {std::pair{std::string(), '\0'}, std::pair{std::string("{\"a\": 1}\n\n{\"a\""), 'x'},
                                   std::pair{"{\"a\": [" + spaces, '}'}, std::pair{std::string("{\"a\": \"b"), '\1'}}) {
    for (const field *schema : {static_cast<const field *>(&rich), static_cast<const field *>(nullptr)}) {
      for (unsigned threads : {1u, 2u}) {
        arrow_read_options o;
        o.block_size = 1 << 16;
        o.threads = threads;
        uint64_t written = 0;
        const read_result piped = read_pipe(head, fill, uint64_t(256) << 20, "\n", schema, o, &written);
        const std::string whole = head + std::string(1 << 20, fill) + "\n";
        const read_result bytes = read(whole, schema, o);
        ASSERT_FALSE(bytes.error.ok()) << head;
        EXPECT_EQ(piped.error.message, bytes.error.message) << head;
        const auto [line, column] = line_and_column_of(whole, bytes.error.offset);
        EXPECT_EQ(piped.error.line, line) << head;
        EXPECT_EQ(piped.error.column, column) << head;
        EXPECT_LT(written, uint64_t(16) << 20) << head;
      }
    }
  }
}

/** An inferred schema as text ("name: type" a field), or the error's message (and line and column). */
std::string inferred_text(const arrow_error &e, ArrowSchema &schema) {
  if (!e.ok()) { return "error " + e.message + " line " + std::to_string(e.line) + " col " + std::to_string(e.column); }
  std::string out;
  for (int64_t c = 0; c < schema.n_children; c++) {
    out += std::string(schema.children[c]->name) + ": " + describe_arrow_schema(*schema.children[c]) + "\n";
  }
  schema.release(&schema);
  return out;
}

TEST(ArrowFileReader, ASchemaIsInferredFromAFileOrPipeABlockAtATime) {
  // arrow-schema read each file whole into memory first. infer_arrow_schema_file reads it a
  // block at a time: the schema or error of the whole bytes, from a file and from a pipe, the
  // error with the line and column of its offset.
  size_t errors = 0;
  for (uint32_t seed = 1; seed <= 150; seed++) {
    generator g(seed);
    std::string ndjson;
    const uint32_t records = 2 + g.next(80);
    for (uint32_t r = 0; r < records; r++) {
      ndjson += "{\"a\": " + std::to_string(g.next(100)) + ", \"s\": " + g.string();
      ndjson += ", \"l\": [" + std::string(g.next(2) ? "1.5" : "") + "]";
      ndjson += std::vector<std::string>{"", "", ", \"new\": {\"x\": true}", ", \"a\": 2.5"}[g.next(4)];
      ndjson += g.next(20) ? "}\n" : "}\n{\"s\": 1}\n"; // a type conflict now and then
    }
    if (seed % 5 == 0) { ndjson[g.next(uint32_t(ndjson.size()))] = "x{\"1"[g.next(4)]; }
    arrow_read_options o;
    o.block_size = 1 + g.next(2000);
    ArrowSchema whole{};
    const arrow_error we = infer_arrow_schema(input::copy_of(ndjson), o, &whole);
    std::string want = inferred_text(we, whole);
    if (!we.ok()) {
      errors++;
      const auto [line, column] = line_and_column_of(ndjson, we.offset);
      want = "error " + we.message + " line " + std::to_string(line) + " col " + std::to_string(column);
    }
    char path[] = "/tmp/simdbridge-infer-XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, ndjson.data(), ndjson.size()), ssize_t(ndjson.size()));
    ArrowSchema from_file{};
    const arrow_error fe = infer_arrow_schema_file(fd, o, &from_file);
    close(fd);
    unlink(path);
    EXPECT_EQ(inferred_text(fe, from_file), want) << "seed " << seed;
    int ends[2];
    ASSERT_EQ(pipe(ends), 0);
    std::thread writer([&] {
      signal(SIGPIPE, SIG_IGN);
      for (size_t at = 0; at < ndjson.size();) {
        const ssize_t w = write(ends[1], ndjson.data() + at, ndjson.size() - at);
        if (w <= 0) { break; }
        at += size_t(w);
      }
      close(ends[1]);
    });
    ArrowSchema piped{};
    const arrow_error pe = infer_arrow_schema_file(ends[0], o, &piped);
    close(ends[0]);
    writer.join();
    EXPECT_EQ(inferred_text(pe, piped), want) << "seed " << seed;
  }
  EXPECT_GT(errors, 30u);
  // A pipe that never ends with a line end: refused where it goes wrong, not held.
  uint64_t written = 0;
  arrow_read_options o;
  o.block_size = 1 << 16;
  const read_result r = read_pipe("{\"a\": 1}\n{\"a\"", 'x', uint64_t(256) << 20, "\n", nullptr, o, &written);
  EXPECT_FALSE(r.error.ok());
  EXPECT_LT(written, uint64_t(16) << 20);
}

TEST(ArrowFileReader, TheSameBatchesRowsAndErrorsAsOverTheBytes) {
  size_t failures = 0;
  for (uint32_t seed = 1; seed <= 120; seed++) {
    generator g(seed);
    uint32_t records = 0;
    const std::string ndjson = rich_records(g, seed, 80, 4, &records);
    arrow_read_options o;
    o.block_size = 1 + g.next(3000);
    o.threads = 1 + g.next(3);
    const read_result bytes = read(ndjson, &rich, o);
    const read_result file = read_file(ndjson, &rich, o);
    EXPECT_EQ(file.error.message, bytes.error.message) << "seed " << seed;
    EXPECT_EQ(file.rows, bytes.rows) << "seed " << seed;
    EXPECT_EQ(file.batches, bytes.batches) << "seed " << seed;
    if (!bytes.error.ok()) { // (the file read again up to the error to count them)
      const auto [line, column] = line_and_column_of(ndjson, bytes.error.offset);
      EXPECT_EQ(file.error.line, line) << "seed " << seed;
      EXPECT_EQ(file.error.column, column) << "seed " << seed;
      EXPECT_EQ(bytes.error.line, 0u) << "seed " << seed; // (bytes in memory: counted by the caller)
    }
    failures += !bytes.error.ok();
    // Bad records kept or dropped: never an error, the same rows from a file.
    arrow_read_options lenient = o;
    lenient.on_bad_record = seed % 2 ? bad_records::keep : bad_records::drop;
    const read_result kept = read(ndjson, &rich, lenient);
    EXPECT_TRUE(kept.error.ok()) << "seed " << seed << ": " << kept.error.message;
    EXPECT_EQ(read_file(ndjson, &rich, lenient).rows, kept.rows) << "seed " << seed;
    if (bytes.error.ok()) { EXPECT_EQ(kept.rows, bytes.rows) << "seed " << seed; }
    // Inferred: from the first block and checked, or (where a record does not fit) as bytes.
    const read_result inferred_bytes = read(ndjson, nullptr, o);
    const read_result inferred_file = read_file(ndjson, nullptr, o);
    EXPECT_EQ(inferred_file.error.message, inferred_bytes.error.message) << "seed " << seed;
    EXPECT_EQ(inferred_file.schema, inferred_bytes.schema) << "seed " << seed;
    EXPECT_EQ(inferred_file.rows, inferred_bytes.rows) << "seed " << seed;
    // Records of one shape: inferred from the first block and read in one pass.
    std::string same;
    for (uint32_t r = 0; r < records; r++) { same += "{\"a\": " + std::to_string(r) + ", \"b\": [" + (r % 3 ? "\"x\"" : "") + "]}\n"; }
    if (seed % 6 == 0) { same += "{\"a\": 0.5, \"c\": true}\n"; } // late: inferred whole
    EXPECT_EQ(read_file(same, nullptr, o).rows, read(same, nullptr, o).rows) << "seed " << seed;
    EXPECT_EQ(read_file(same, nullptr, o).schema, read(same, nullptr, o).schema) << "seed " << seed;
  }
  EXPECT_GT(failures, 20u);
  // A tail under 128 bytes joins the block before it, from a file as from bytes.
  std::string short_lines;
  for (int i = 0; i < 40; i++) { short_lines += "{\"i\": " + std::to_string(i) + "}\n"; }
  for (size_t block : {size_t(50), size_t(300), size_t(short_lines.size() - 100), size_t(short_lines.size() - 20)}) {
    arrow_read_options small;
    small.block_size = block;
    const read_result bytes = read(short_lines, &rich, small);
    const read_result file = read_file(short_lines, &rich, small);
    EXPECT_EQ(file.batches, bytes.batches) << block;
    EXPECT_EQ(file.rows, bytes.rows) << block;
  }
  // A pipe: no size, no pread; read to its end, with a schema and inferred.
  for (const field *schema : {static_cast<const field *>(&rich), static_cast<const field *>(nullptr)}) {
    int ends[2];
    ASSERT_EQ(pipe(ends), 0);
    ASSERT_EQ(write(ends[1], short_lines.data(), short_lines.size()), ssize_t(short_lines.size()));
    close(ends[1]);
    ArrowSchema given{};
    if (schema != nullptr) { arrow::export_schema(*schema, &given); }
    ArrowArrayStream piped{};
    read_result r;
    r.error = ndjson_file_to_arrow(ends[0], schema ? &given : nullptr, arrow_read_options{}, &piped);
    if (given.release) { given.release(&given); }
    close(ends[0]);
    r = drain(r, piped);
    EXPECT_EQ(r.rows, read(short_lines, schema).rows);
    EXPECT_EQ(r.rows.size(), 40u);
  }
  arrow_read_options o;
  ArrowArrayStream stream{};
  const arrow_error bad = ndjson_file_to_arrow(-1, nullptr, o, &stream);
  EXPECT_EQ(bad.code, error_code::read_failed);
}

} // namespace block_reader

} // namespace
} // namespace simdbridge::test
