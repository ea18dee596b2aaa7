// SPDX-License-Identifier: Apache-2.0
// write_decimal_digits (writer.h): the same text as std::to_chars for every digit count, at the
// edges of its 8-digit groups, and over a million random values; and it writes nothing past
// the 24 bytes it is promised.
#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "simdbridge/writer.h"

namespace simdbridge::test {
namespace {

std::string ours(uint64_t v) {
  char out[40];
  std::memset(out, '#', sizeof out);
  const size_t n = write_decimal_digits(v, out + 8);
  for (int i = 0; i < 8; i++) { EXPECT_EQ(out[i], '#') << "wrote before its start for " << v; }
  for (size_t i = 32; i < sizeof out; i++) { EXPECT_EQ(out[i], '#') << "wrote past 24 bytes for " << v; }
  return std::string(out + 8, n);
}

std::string reference(uint64_t v) {
  char out[24];
  return std::string(out, std::to_chars(out, out + sizeof out, v).ptr);
}

TEST(DecimalDigits, EveryDigitCountAndItsEdges) {
  std::vector<uint64_t> values = {0, UINT64_MAX, UINT64_MAX - 1};
  uint64_t power = 1;
  for (int k = 0; k < 20; k++, power *= 10) {
    for (uint64_t v : {power - 1, power, power + 1, 2 * power - 1, 5 * power, 9 * power + power - 1}) {
      values.push_back(v);
    }
  }
  for (uint64_t v : values) { EXPECT_EQ(ours(v), reference(v)) << v; }
}

TEST(DecimalDigits, RandomValuesOfEveryLength) {
  std::mt19937_64 rng(20261201);
  for (int i = 0; i < 1000000; i++) {
    const int bits = int(rng() % 64) + 1;
    const uint64_t v = rng() >> (64 - bits);
    ASSERT_EQ(ours(v), reference(v)) << v;
  }
}

} // namespace
} // namespace simdbridge::test
