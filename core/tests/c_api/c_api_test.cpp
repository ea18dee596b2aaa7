// SPDX-License-Identifier: Apache-2.0
// The C API (simdbridge_c.h): what FFM and JNI bind to. Misuse gives an error, never a crash.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "simdbridge/arrow_c_data.h"
#include "simdbridge/binding_tape.h"
#include "simdbridge/simdbridge_c.h"

namespace {

TEST(CApi, ChecksumOfAPaddedAndACopiedBuffer) {
  simdbridge_parser *p = simdbridge_parser_new(0);
  ASSERT_NE(p, nullptr);
  const std::string json = "{\"a\":1}";
  std::vector<uint8_t> padded(json.size() + SIMDBRIDGE_PADDING, 'x');
  std::memcpy(padded.data(), json.data(), json.size());
  simdbridge_result r = simdbridge_checksum(p, padded.data(), json.size(), padded.size());
  EXPECT_EQ(r.error, SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(r.value, 0xbec57e3c220bbec4ULL);
  r = simdbridge_checksum(p, reinterpret_cast<const uint8_t *>(json.data()), json.size(), json.size());
  EXPECT_EQ(r.error, SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(r.value, 0xbec57e3c220bbec4ULL);
  simdbridge_parser_free(p);
}

TEST(CApi, AnErrorCarriesItsOffsetInValue) {
  simdbridge_parser *p = simdbridge_parser_new(0);
  const char *bad = "[1,2,]";
  const simdbridge_result r = simdbridge_checksum(p, reinterpret_cast<const uint8_t *>(bad), 6, 6);
  EXPECT_EQ(r.error, SIMDBRIDGE_EXPECTED_VALUE);
  EXPECT_EQ(r.value, 5u);
  EXPECT_STREQ(simdbridge_error_name(r.error), "expected_value");
  EXPECT_STREQ(simdbridge_error_message(r.error), "expected a value");
  simdbridge_parser_free(p);
}

TEST(CApi, StreamsAndValidation) {
  simdbridge_parser *p = simdbridge_parser_new(0);
  const std::string stream = "{}\n[1]\n\n\"x\"\n";
  const auto *data = reinterpret_cast<const uint8_t *>(stream.data());
  simdbridge_result r = simdbridge_checksum_stream(p, data, stream.size(), stream.size());
  EXPECT_EQ(r.error, SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(r.value, 0x0a5e9b510b4ddcb0ULL);
  r = simdbridge_validate_stream(p, data, stream.size(), stream.size());
  EXPECT_EQ(r.error, SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(r.value, 3u);
  r = simdbridge_validate(p, data, 2, 2);
  EXPECT_EQ(r.error, SIMDBRIDGE_SUCCESS);
  r = simdbridge_validate(p, data, stream.size(), stream.size());
  EXPECT_EQ(r.error, SIMDBRIDGE_TRAILING_CONTENT);
  EXPECT_EQ(r.value, 3u);
  simdbridge_parser_free(p);
}

TEST(CApi, MisuseIsAnErrorNotACrash) {
  simdbridge_parser *p = simdbridge_parser_new(0);
  const uint8_t byte = '1';
  EXPECT_EQ(simdbridge_checksum(nullptr, &byte, 1, 1).error, SIMDBRIDGE_INVALID_ARGUMENT);
  EXPECT_EQ(simdbridge_checksum_stream(nullptr, &byte, 1, 1).error, SIMDBRIDGE_INVALID_ARGUMENT);
  EXPECT_EQ(simdbridge_validate(nullptr, &byte, 1, 1).error, SIMDBRIDGE_INVALID_ARGUMENT);
  EXPECT_EQ(simdbridge_validate_stream(nullptr, &byte, 1, 1).error, SIMDBRIDGE_INVALID_ARGUMENT);
  EXPECT_EQ(simdbridge_checksum(p, nullptr, 10, 100).error, SIMDBRIDGE_INVALID_ARGUMENT);
  EXPECT_EQ(simdbridge_checksum(p, &byte, 1, 0).error, SIMDBRIDGE_INVALID_ARGUMENT);
  EXPECT_EQ(simdbridge_checksum(p, nullptr, 0, 0).error, SIMDBRIDGE_EMPTY_INPUT);
  EXPECT_EQ(simdbridge_checksum_stream(p, nullptr, 0, 0).error, SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(simdbridge_checksum(p, &byte, 1, 1).error, SIMDBRIDGE_SUCCESS);
  simdbridge_parser_free(nullptr);
  simdbridge_parser_free(p);
}

TEST(CApi, ABindingPlanTakesTheKeysItChecksOffTheTape) {
  // One object node with the keys "a" (no node) and "b" (no node).
  const std::vector<uint8_t> spec = {1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 'a', 0xFF, 0xFF, 0xFF, 0xFF,
                                     1, 0, 0, 0, 'b', 0xFF, 0xFF, 0xFF, 0xFF};
  simdbridge_binding_plan *plan = simdbridge_binding_plan_new(spec.data(), spec.size());
  ASSERT_NE(plan, nullptr);
  EXPECT_EQ(simdbridge_binding_plan_new(spec.data(), spec.size() - 1), nullptr);
  EXPECT_EQ(simdbridge_binding_plan_new(nullptr, 8), nullptr);
  simdbridge_parser *p = simdbridge_parser_new(0);
  std::vector<uint64_t> words(64);
  std::vector<uint8_t> strings(64);
  uint64_t status[4] = {};
  const auto read = [&](const std::string &json) {
    return simdbridge_binding_tape_planned(p, plan, reinterpret_cast<const uint8_t *>(json.data()), json.size(), json.size(),
                                           words.data(), words.size(), strings.data(), strings.size(), 0, status);
  };
  EXPECT_EQ(read(R"({"a": 1, "b": [true]})"), SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(status[SIMDBRIDGE_BINDING_TAPE_STATUS_PLANNED], 1u);
  EXPECT_EQ(status[SIMDBRIDGE_BINDING_TAPE_STATUS_WORDS], 8u); // the object, 1, the array, true: no keys
  EXPECT_EQ(read(R"({"b": 1, "a": 2})"), SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(status[SIMDBRIDGE_BINDING_TAPE_STATUS_PLANNED], 0u);
  EXPECT_EQ(status[SIMDBRIDGE_BINDING_TAPE_STATUS_WORDS], 10u); // with its keys
  EXPECT_EQ(read(R"({"a": 1, "b": ]})"), SIMDBRIDGE_EXPECTED_VALUE);
  EXPECT_EQ(status[SIMDBRIDGE_BINDING_TAPE_STATUS_OFFSET], 14u);
  EXPECT_EQ(simdbridge_binding_tape_planned(p, nullptr, strings.data(), 0, 0, words.data(), 64, strings.data(), 64, 0, status),
            SIMDBRIDGE_INVALID_ARGUMENT);
  // With SIMDBRIDGE_BINDING_TAPE_STRINGS_IN_INPUT, a string value with no escape stays in the
  // input: its offset there, nothing written to `strings`.
  const std::string text = R"({"a": "xyz", "b": [true]})";
  EXPECT_EQ(simdbridge_binding_tape_planned(p, plan, reinterpret_cast<const uint8_t *>(text.data()), text.size(), text.size(),
                                            words.data(), words.size(), strings.data(), strings.size(),
                                            SIMDBRIDGE_BINDING_TAPE_STRINGS_IN_INPUT, status),
            SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(status[SIMDBRIDGE_BINDING_TAPE_STATUS_STRINGS], 0u);
  EXPECT_EQ(words[2] & simdbridge::binding_tape_offset_mask, 6u);
  EXPECT_NE(words[2] & simdbridge::binding_tape_in_input, 0u);
  EXPECT_EQ(words[3], (uint64_t(7) << 32) | 3);
  simdbridge_parser_free(p);
  simdbridge_binding_plan_free(plan);
  simdbridge_binding_plan_free(nullptr);
}

TEST(CApi, ADepthLimitOfItsOwn) {
  simdbridge_parser *p = simdbridge_parser_new(2);
  const std::string ok = "[[1]]", deep = "[[[1]]]";
  EXPECT_EQ(simdbridge_checksum(p, reinterpret_cast<const uint8_t *>(ok.data()), ok.size(), ok.size()).error,
            SIMDBRIDGE_SUCCESS);
  const simdbridge_result r =
      simdbridge_checksum(p, reinterpret_cast<const uint8_t *>(deep.data()), deep.size(), deep.size());
  EXPECT_EQ(r.error, SIMDBRIDGE_DEPTH_LIMIT);
  EXPECT_EQ(r.value, 2u);
  simdbridge_parser_free(p);
}

TEST(CApi, VersionsAndTheSelectedKernel) {
  EXPECT_STREQ(simdbridge_version(), "0.1.0");
  EXPECT_STREQ(simdbridge_simdjson_version(), "3.0.1");
  EXPECT_GT(std::strlen(simdbridge_simd_implementation()), 0u);
  simdbridge_noop();
}

TEST(CApi, NdjsonToArrowAndBackThroughASink) {
  const std::string ndjson = "{\"a\":1,\"s\":\"x\"}\n{\"a\":2,\"s\":null}\n";
  ArrowArrayStream stream{};
  simdbridge_arrow_error error{};
  ASSERT_EQ(simdbridge_ndjson_to_arrow(nullptr, reinterpret_cast<const uint8_t *>(ndjson.data()), ndjson.size(),
                                       ndjson.size(), nullptr, 0, 2, 0, nullptr, &stream, &error),
            SIMDBRIDGE_SUCCESS);
  std::string written;
  const auto sink = [](void *context, const uint8_t *data, size_t length) -> int32_t {
    static_cast<std::string *>(context)->append(reinterpret_cast<const char *>(data), length);
    return 1;
  };
  ASSERT_EQ(simdbridge_arrow_to_ndjson(&stream, 1, 1, sink, &written, &error), SIMDBRIDGE_SUCCESS);
  stream.release(&stream);
  EXPECT_EQ(written, ndjson);

  // A refusing sink stops the writer; a bad record names itself.
  ASSERT_EQ(simdbridge_ndjson_to_arrow(nullptr, reinterpret_cast<const uint8_t *>(ndjson.data()), ndjson.size(),
                                       ndjson.size(), nullptr, 0, 1, 0, nullptr, &stream, &error),
            SIMDBRIDGE_SUCCESS);
  const auto refuse = [](void *, const uint8_t *, size_t) -> int32_t { return 0; };
  EXPECT_EQ(simdbridge_arrow_to_ndjson(&stream, 1, 1, refuse, nullptr, &error), SIMDBRIDGE_WRITE_FAILED);
  stream.release(&stream);
  const std::string bad = "{\"a\":1}\n{\"a\":\"x\"}\n";
  ArrowArrayStream none{};
  ASSERT_EQ(simdbridge_ndjson_to_arrow(nullptr, reinterpret_cast<const uint8_t *>(bad.data()), bad.size(), bad.size(),
                                       nullptr, 0, 1, 0, nullptr, &none, &error),
            SIMDBRIDGE_TYPE_MISMATCH);
  EXPECT_EQ(none.release, nullptr);
  EXPECT_EQ(error.record, 2u);
  EXPECT_EQ(error.offset, 13u);
  EXPECT_STREQ(error.path, "/a");
  EXPECT_STREQ(error.message, "record 2, field /a: a value of type string where earlier records had int64 at byte 13");
  // Limits come from a parser.
  simdbridge_parser *p = simdbridge_parser_new(0);
  ASSERT_EQ(simdbridge_parser_set_limits(p, 0, 1000, 0, 5), SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(simdbridge_ndjson_to_arrow(p, reinterpret_cast<const uint8_t *>(ndjson.data()), ndjson.size(),
                                       ndjson.size(), nullptr, 0, 1, 0, nullptr, &none, &error),
            SIMDBRIDGE_DOCUMENT_TOO_LONG);
  simdbridge_parser_free(p);
  ArrowSchema schema{};
  ASSERT_EQ(simdbridge_arrow_infer_schema(nullptr, reinterpret_cast<const uint8_t *>(ndjson.data()), ndjson.size(),
                                          ndjson.size(), 0, 1, &schema, &error),
            SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(schema.n_children, 2);
  schema.release(&schema);
}

TEST(CApi, MessagePackIsWrittenIntoTheCallersMemoryOrItsSizeIsTold) {
  simdbridge_parser *p = simdbridge_parser_new(0);
  const std::string json = "{\"a\":[1,2.5]}";
  const auto *data = reinterpret_cast<const uint8_t *>(json.data());
  const std::vector<uint8_t> packed = {0x81, 0xa1, 'a', 0x92, 0x01, 0xcb, 0x40, 0x04, 0, 0, 0, 0, 0, 0};
  uint64_t status[3] = {};
  // Too small: nothing written past the room, the size needed told.
  std::vector<uint8_t> out(packed.size() + 4, 0xee);
  EXPECT_EQ(simdbridge_json_to_msgpack(p, data, json.size(), json.size(), 0, 0, 1, out.data(), 3, status),
            SIMDBRIDGE_OUTPUT_TOO_SMALL);
  EXPECT_EQ(status[SIMDBRIDGE_MSGPACK_STATUS_SIZE], packed.size());
  EXPECT_EQ(out, std::vector<uint8_t>(out.size(), 0xee));
  // That room: the bytes, and none after them.
  ASSERT_EQ(simdbridge_json_to_msgpack(p, data, json.size(), json.size(), 0, 0, 1, out.data(), packed.size(), status),
            SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(status[SIMDBRIDGE_MSGPACK_STATUS_SIZE], packed.size());
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.begin() + long(packed.size())), packed);
  EXPECT_EQ(out[packed.size()], 0xee);
  // And back, into too little room, then enough.
  std::vector<uint8_t> text(json.size(), 0);
  EXPECT_EQ(simdbridge_msgpack_to_json(p, packed.data(), packed.size(), 0, 0, 1, text.data(), 4, status),
            SIMDBRIDGE_OUTPUT_TOO_SMALL);
  EXPECT_EQ(status[SIMDBRIDGE_MSGPACK_STATUS_SIZE], json.size());
  ASSERT_EQ(
      simdbridge_msgpack_to_json(nullptr, packed.data(), packed.size(), 0, 0, 1, text.data(), text.size(), status),
      SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(std::string(text.begin(), text.end()), json);
  // An empty stream is no bytes, with no room given; an error is the input's, room or not.
  EXPECT_EQ(simdbridge_json_to_msgpack(p, data, 0, 0, SIMDBRIDGE_MSGPACK_NDJSON, 0, 1, nullptr, 0, status),
            SIMDBRIDGE_SUCCESS);
  EXPECT_EQ(status[SIMDBRIDGE_MSGPACK_STATUS_SIZE], 0u);
  const std::string bad = "{}\n[1,]\n";
  EXPECT_EQ(simdbridge_json_to_msgpack(p, reinterpret_cast<const uint8_t *>(bad.data()), bad.size(), bad.size(),
                                       SIMDBRIDGE_MSGPACK_NDJSON, 0, 1, nullptr, 0, status),
            SIMDBRIDGE_EXPECTED_VALUE);
  EXPECT_EQ(status[SIMDBRIDGE_MSGPACK_STATUS_OFFSET], 6u);
  EXPECT_EQ(status[SIMDBRIDGE_MSGPACK_STATUS_DOCUMENT], 2u);
  const uint8_t truncated[] = {0x92, 0x01};
  EXPECT_EQ(simdbridge_msgpack_to_json(nullptr, truncated, 2, 0, 0, 1, text.data(), text.size(), status),
            SIMDBRIDGE_MSGPACK_TRUNCATED);
  EXPECT_EQ(status[SIMDBRIDGE_MSGPACK_STATUS_SIZE], 0u);
  simdbridge_parser_free(p);
}

} // namespace
