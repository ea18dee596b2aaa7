// SPDX-License-Identifier: Apache-2.0
// write_double (writer.h): the text Python's repr (-3, two-digit exponents) and orjson (-4) write
// (both checked here against what they printed),
// made here independently from std::to_chars's shortest digits (GCC's, Ryu), for every kind of
// double: its fast path (one multiplication, text from registers) and the doubles it leaves to
// the exact path (powers of two, integers, subnormals, the ends of the range, and values whose
// interval ends lie on a short decimal), over millions of random bit patterns and every binary
// exponent; and it writes nothing past the 48 bytes it is promised.
#include <gtest/gtest.h>

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "simdbridge/writer.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

/** d as write_double lays it out, from std::to_chars's shortest scientific text. */
std::string reference(double d, int lowest_point, bool two_digit_exponent) {
  std::string out = std::signbit(d) ? "-" : "";
  if (d == 0) { return out + "0.0"; }
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(d), std::chars_format::scientific);
  std::string digits;
  const char *p = buf;
  for (; *p != 'e'; p++) {
    if (*p != '.') { digits += *p; }
  }
  int exponent = 0;
  std::from_chars(p + 1 + (p[1] == '+'), r.ptr, exponent);
  const int n = int(digits.size()), point = exponent + 1;
  if (point >= lowest_point && point <= 16) {
    if (point <= 0) { return out + "0." + std::string(size_t(-point), '0') + digits; }
    if (point >= n) { return out + digits + std::string(size_t(point - n), '0') + ".0"; }
    return out + digits.substr(0, size_t(point)) + "." + digits.substr(size_t(point));
  }
  out += digits.substr(0, 1);
  if (n > 1) { out += "." + digits.substr(1); }
  const int e = point - 1, magnitude = std::abs(e);
  out += e < 0 ? "e-" : "e+";
  if (magnitude < 10 && two_digit_exponent) { out += "0"; }
  return out + std::to_string(magnitude);
}

/** Both layouts of d, against the reference, with the bytes past the 48 promised left as they were. */
void expect_text(double d) {
  if (!std::isfinite(d)) { return; }
  for (const auto &[lowest, two] : {std::pair{-3, true}, std::pair{-4, false}}) {
    char buf[64];
    std::memset(buf, 0x55, sizeof buf);
    const size_t n = write_double(d, buf, lowest, two);
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    ASSERT_EQ(std::string(buf, n), reference(d, lowest, two)) << std::hex << "bits 0x" << bits;
    for (size_t i = 48; i < sizeof buf; i++) { ASSERT_EQ(buf[i], 0x55) << "byte " << i << " written, bits 0x" << std::hex << bits; }
  }
}

TEST(DoubleText, AsPythonAndOrjsonWriteThem) {
  const struct {
    double d;
    const char *repr, *orjson;
  } cases[] = {
      {0.0, "0.0", "0.0"},
      {-0.0, "-0.0", "-0.0"},
      {1.0, "1.0", "1.0"},
      {-65.613616999999977, "-65.61361699999998", "-65.61361699999998"},
      {0.1, "0.1", "0.1"},
      {1.0 / 3, "0.3333333333333333", "0.3333333333333333"},
      {0.0001, "0.0001", "0.0001"},
      {0.00001, "1e-05", "0.00001"},
      {0.000012345, "1.2345e-05", "0.000012345"},
      {1e16, "1e+16", "1e+16"},
      {1.5e300, "1.5e+300", "1.5e+300"},
      {9007199254740993.0, "9007199254740992.0", "9007199254740992.0"},
      {123456789012345680.0, "1.2345678901234568e+17", "1.2345678901234568e+17"},
      {5e-324, "5e-324", "5e-324"},
      {DBL_MAX, "1.7976931348623157e+308", "1.7976931348623157e+308"},
      {2.5, "2.5", "2.5"},
      {1e-7, "1e-07", "1e-7"},
      {1e-6, "1e-06", "1e-6"},
  };
  for (const auto &c : cases) {
    char buf[48];
    EXPECT_EQ(std::string(buf, write_double(c.d, buf, -3, true)), c.repr);
    EXPECT_EQ(std::string(buf, write_double(c.d, buf, -4, false)), c.orjson);
  }
}

TEST(DoubleText, EveryExponentAndItsEdges) {
  std::mt19937_64 random(20261203);
  for (uint64_t biased = 0; biased < 0x7FF; biased++) {
    const uint64_t top = biased << 52;
    for (const uint64_t fraction : {uint64_t(0), uint64_t(1), uint64_t(2), (uint64_t(1) << 52) - 1, (uint64_t(1) << 51)}) {
      expect_text(from_bits(top | fraction));
    }
    for (int i = 0; i < 200; i++) { expect_text(from_bits(top | (random() >> 12))); }
  }
}

TEST(DoubleText, ShortDecimalsPowersOfTenAndIntegers) {
  for (int j = 0; j <= 17; j++) {
    for (int i = 1; i < 2000; i++) { expect_text(i / std::pow(10.0, j)); }
  }
  for (int e = -323; e <= 308; e++) {
    const double ten = std::strtod(("1e" + std::to_string(e)).c_str(), nullptr);
    expect_text(ten);
    expect_text(std::nextafter(ten, 0.0));
    expect_text(std::nextafter(ten, DBL_MAX));
  }
  for (double x : {9007199254740992.0, 9999999999999998.0, 99999999999999984.0, 1e17, 1e16, 1e15}) {
    for (int step = 0; step < 50; step++) {
      expect_text(x);
      expect_text(-x);
      x = std::nextafter(x, DBL_MAX);
    }
  }
  for (uint64_t i = 0; i < 100000; i++) { expect_text(double(i) + 0.5); }
  // Halves between 2^51 and 2^52: their interval's ends (a quarter away) scale to integers, which
  // the fast path leaves to the exact one, as it does some of the short decimals above.
  for (uint64_t i = 0; i < 100000; i++) { expect_text(2251799813685248.0 + double(i) + 0.5); }
  expect_text(DBL_MIN);
  expect_text(DBL_TRUE_MIN);
}

TEST(DoubleText, MillionsOfRandomBitPatterns) {
  std::mt19937_64 random(42);
  for (int i = 0; i < 3000000; i++) { expect_text(from_bits(random())); }
}

} // namespace
} // namespace simdbridge::test
