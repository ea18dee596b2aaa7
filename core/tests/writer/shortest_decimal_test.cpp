// SPDX-License-Identifier: Apache-2.0
// shortest_decimal (writer.h): the same digits and exponent as std::to_chars (GCC's, Ryu: shortest,
// then closest) on every kind of double: each power of two, where the rounding interval is
// lopsided; its neighbours; subnormals; integers; powers of ten; the extremes; and millions of
// random bit patterns. The two logarithm approximations it uses are checked exactly over every
// binary exponent a double has.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "decimal_logarithms.h"
#include "simdbridge/writer.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

/** std::to_chars's shortest digits of |d| (finite, nonzero), as significand and exponent. */
decimal reference(double d) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(d), std::chars_format::scientific);
  decimal out;
  const char *p = buf;
  int digits_after_point = 0;
  bool after_point = false;
  for (; p < r.ptr && *p != 'e'; p++) {
    if (*p == '.') {
      after_point = true;
      continue;
    }
    out.significand = out.significand * 10 + uint64_t(*p - '0');
    digits_after_point += after_point;
  }
  int exponent = 0;
  std::from_chars(p + 1 + (p[1] == '+'), r.ptr, exponent);
  out.exponent = exponent - digits_after_point;
  while (out.significand % 10 == 0) { // to_chars writes none, but for one digit "0"
    out.significand /= 10;
    out.exponent++;
  }
  return out;
}

/** Checks d, and says which double failed (its bits) where it does not match. */
void expect_matches(double d) {
  if (!std::isfinite(d)) { return; }
  const decimal got = shortest_decimal(d);
  if (d == 0) {
    ASSERT_EQ(got.significand, 0u);
    return;
  }
  const decimal want = reference(d);
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  ASSERT_TRUE(got.significand == want.significand && got.exponent == want.exponent)
      << std::hex << "bits 0x" << bits << std::dec << ": " << got.significand << "e" << got.exponent << ", want "
      << want.significand << "e" << want.exponent;
  ASSERT_NE(got.significand % 10, 0u);
  // And it reads back as d.
  const std::string text = std::to_string(got.significand) + "e" + std::to_string(got.exponent);
  ASSERT_EQ(std::strtod(text.c_str(), nullptr), std::fabs(d)) << text;
}

TEST(ShortestDecimal, SmallCases) {
  EXPECT_EQ(shortest_decimal(0.0).significand, 0u);
  EXPECT_EQ(shortest_decimal(-0.0).significand, 0u);
  const decimal one = shortest_decimal(1.0);
  EXPECT_EQ(one.significand, 1u);
  EXPECT_EQ(one.exponent, 0);
  const decimal tenth = shortest_decimal(0.1);
  EXPECT_EQ(tenth.significand, 1u);
  EXPECT_EQ(tenth.exponent, -1);
  const decimal third = shortest_decimal(1.0 / 3);
  EXPECT_EQ(third.significand, 3333333333333333u);
  EXPECT_EQ(third.exponent, -16);
  const decimal big = shortest_decimal(1e22);
  EXPECT_EQ(big.significand, 1u);
  EXPECT_EQ(big.exponent, 22);
  const decimal negative = shortest_decimal(-2.5);
  EXPECT_EQ(negative.significand, 25u);
  EXPECT_EQ(negative.exponent, -1);
  const decimal tiny = shortest_decimal(from_bits(1)); // 4.9406564584124654e-324
  EXPECT_EQ(tiny.significand, 5u);
  EXPECT_EQ(tiny.exponent, -324);
  const decimal largest = shortest_decimal(std::numeric_limits<double>::max());
  EXPECT_EQ(largest.significand, 17976931348623157u);
  EXPECT_EQ(largest.exponent, 292);
}

TEST(ShortestDecimal, EveryPowerOfTwoAndItsNeighbours) {
  for (uint64_t exponent = 0; exponent < 0x7FF; exponent++) {
    const uint64_t power = exponent << 52;
    for (uint64_t delta : {0u, 1u, 2u, 3u}) {
      expect_matches(from_bits(power + delta));
      if (power > delta) { expect_matches(from_bits(power - delta)); }
    }
    expect_matches(from_bits(power | ((uint64_t(1) << 52) - 1)));
    expect_matches(from_bits(power | (uint64_t(1) << 51)));
  }
}

TEST(ShortestDecimal, SubnormalsIntegersAndPowersOfTen) {
  for (uint64_t c = 1; c < 5000; c++) { expect_matches(from_bits(c)); }
  for (uint64_t c = (uint64_t(1) << 52) - 5000; c < (uint64_t(1) << 52); c++) { expect_matches(from_bits(c)); }
  for (int64_t n = 1; n < 100000; n++) { expect_matches(double(n)); }
  for (int64_t n = 1; n <= 64; n++) {
    expect_matches(std::ldexp(1.0, 53) - double(n));
    expect_matches(std::ldexp(1.0, 53) + double(2 * n));
  }
  for (int e = -325; e <= 309; e++) {
    const std::string text = "1e" + std::to_string(e);
    const double d = std::strtod(text.c_str(), nullptr);
    expect_matches(d);
    expect_matches(std::nextafter(d, 0.0));
    expect_matches(std::nextafter(d, HUGE_VAL));
  }
}

TEST(ShortestDecimal, RandomBitPatterns) {
  std::mt19937_64 random(20261201);
  for (int i = 0; i < 2000000; i++) { expect_matches(from_bits(random())); }
}

TEST(ShortestDecimal, RandomDecimalsOfFewDigits) {
  // Short decimals, as data holds them (12.5, 0.1, 3.14159): the interval holds a shorter one.
  std::mt19937_64 random(7);
  for (int i = 0; i < 500000; i++) {
    const std::string text = std::to_string(random() % 100000000) + "e" + std::to_string(int(random() % 60) - 40);
    expect_matches(std::strtod(text.c_str(), nullptr));
  }
}

TEST(ShortestDecimal, TheLogarithmsItUsesAreExact) {
  // Against long double: no q * log10 2 with q != 0 comes within 1e-12 of an integer (nor with
  // log10 3/4 added), far above long double's error here.
  for (int q = -1100; q <= 1100; q++) {
    const long double x = q * std::log10(2.0L);
    ASSERT_EQ(internal::floor_log10_pow2(q), int(std::floor(x))) << q;
    ASSERT_EQ(internal::floor_log10_three_quarters_pow2(q), int(std::floor(x + std::log10(0.75L)))) << q;
  }
}

} // namespace
} // namespace simdbridge::test
