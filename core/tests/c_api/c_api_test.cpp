// SPDX-License-Identifier: Apache-2.0
// The C API (simdbridge_c.h): what FFM and JNI bind to. Misuse gives an error, never a crash.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

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

} // namespace
