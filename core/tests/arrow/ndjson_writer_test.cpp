// SPDX-License-Identifier: Apache-2.0
// Arrow to NDJSON in the core: batches read from NDJSON written back, byte for byte what dumpb
// writes for each value, the same bytes for every thread count, and read again to the same.
#include <gtest/gtest.h>

#include <string>

#include "arrow/schema.h"
#include "simdbridge/arrow.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

/** NDJSON read into Arrow (schema inferred), then written back. */
std::string round_trip(const std::string &ndjson, arrow_write_options write = {}, arrow_read_options read = {}) {
  ArrowArrayStream stream{};
  const arrow_error e = ndjson_to_arrow(input::copy_of(ndjson), nullptr, read, &stream);
  EXPECT_TRUE(e.ok()) << e.message;
  if (!e.ok()) { return ""; }
  std::string out;
  const arrow_error w = arrow_to_ndjson(&stream, write, out);
  EXPECT_TRUE(w.ok()) << w.message;
  stream.release(&stream);
  return out;
}

TEST(ArrowWriter, ValuesAsDumpbWritesThem) {
  const std::string in = R"({"i": -12, "f": 0.1, "g": 1e-5, "h": 1e16, "z": -0.0, "s": "é\"\\\n\u0001", "b": true, "n": null, "l": [1, 2], "o": {"k": "v"}}
{"i": 7, "f": 2, "g": 3.5, "h": 100.0, "z": 0, "s": "", "b": false, "l": [], "o": {}})";
  EXPECT_EQ(round_trip(in),
            "{\"i\":-12,\"f\":0.1,\"g\":0.00001,\"h\":1e+16,\"z\":-0.0,\"s\":\"é\\\"\\\\\\n\\u0001\",\"b\":true,\"n\":null,"
            "\"l\":[1,2],\"o\":{\"k\":\"v\"}}\n"
            "{\"i\":7,\"f\":2.0,\"g\":3.5,\"h\":100.0,\"z\":0.0,\"s\":\"\",\"b\":false,\"n\":null,\"l\":[],\"o\":{\"k\":null}}\n");
  arrow_write_options no_nulls;
  no_nulls.write_nulls = false;
  EXPECT_EQ(round_trip("{\"a\": 1, \"b\": null}\n{\"b\": {\"c\": null}}\n", no_nulls), "{\"a\":1}\n{\"b\":{}}\n");
}

TEST(ArrowWriter, KeysLongerThanTheirCopyAreWrittenWhole) {
  // Flat rows reserve room per field for its key: keys past 32 bytes (here 300 and, escaped, 400).
  const std::string long_name(300, 'k'), quoted_name(100, '"');
  std::string escaped;
  for (size_t i = 0; i < quoted_name.size(); i++) { escaped += "\\\""; }
  std::string in, expected;
  for (int row = 0; row < 3000; row++) {
    const std::string r = "{\"" + long_name + "\":" + std::to_string(row) + ",\"" + escaped + "\":" +
                          (row % 2 ? "true" : "false") + "}\n";
    in += r;
    expected += r;
  }
  EXPECT_EQ(round_trip(in), expected);
}

TEST(ArrowWriter, TheSameBytesForEveryThreadCountAndReadBackTheSame) {
  std::string in;
  for (int i = 0; i < 5000; i++) {
    in += "{\"id\": " + std::to_string(i) + ", \"x\": " + std::to_string(i * 0.25) + ", \"s\": \"row " + std::to_string(i) +
          "\", \"l\": [" + std::to_string(i % 7) + "]}\n";
  }
  const std::string one = round_trip(in);
  for (unsigned threads : {2u, 3u, 8u}) {
    arrow_write_options o;
    o.threads = threads;
    arrow_read_options r;
    r.block_size = 10000;
    EXPECT_EQ(round_trip(in, o, r), one) << threads;
  }
  EXPECT_EQ(round_trip(one), one);
}

} // namespace
} // namespace simdbridge::test
