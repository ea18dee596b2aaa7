// SPDX-License-Identifier: Apache-2.0
// shortest_decimal(): a double's shortest decimal that reads back as it, by Raffaello Giulietti's
// Schubfach method ("The Schubfach way to render doubles", 2020). The double's rounding interval
// (the reals that round to it) is scaled by a power of ten so that the decimal v x 10^-k has 16
// or 17 digits before its point: the interval then holds a multiple of ten (that one, a digit
// shorter, wins), or one of v's two integer neighbours s and s + 1 (that one), or both (the closer
// to v; on a tie the even). The scaling multiplies by a 126-bit over-approximation of the power
// of ten, read from a table, rounding to odd, which keeps exact every comparison made.
//
// The table is computed here at compile time from exact powers of ten (multi-word integers), not
// written out. The two logarithms it needs are in decimal_logarithms.h.
#include <array>
#include <charconv>
#include <cstring>

#include "decimal_logarithms.h"
#include "simdbridge/writer.h"

namespace simdbridge {
namespace {

__extension__ typedef unsigned __int128 u128;

// The powers of ten in the table: 10^e for e in [e_min, e_max] (every -k the doubles need).
constexpr int e_min = -292;
constexpr int e_max = 324;

/** A non-negative integer of up to 1280 bits (10^324 takes 1077), in 64-bit limbs, least significant first. */
struct big {
  static constexpr int limbs = 20;
  uint64_t limb[limbs] = {};

  constexpr void multiply(uint64_t m) {
    u128 carry = 0;
    for (int i = 0; i < limbs; i++) {
      const u128 p = u128(limb[i]) * m + carry;
      limb[i] = uint64_t(p);
      carry = p >> 64;
    }
  }
  constexpr void divide(uint64_t d) { // floor
    u128 rest = 0;
    for (int i = limbs - 1; i >= 0; i--) {
      const u128 x = (rest << 64) | limb[i];
      limb[i] = uint64_t(x / d);
      rest = x % d;
    }
  }
  constexpr int bit_length() const {
    for (int i = limbs - 1; i >= 0; i--) {
      if (limb[i] != 0) { return 64 * i + 64 - __builtin_clzll(limb[i]); }
    }
    return 0;
  }
  /** floor(this / 2^s) for s >= 0, this x 2^-s for s < 0: its low 128 bits. */
  constexpr u128 shifted(int s) const {
    u128 out = 0;
    for (int bit = 0; bit < 128; bit++) {
      const int from = bit + s;
      if (from >= 0 && from < 64 * limbs && ((limb[from / 64] >> (from % 64)) & 1) != 0) { out |= u128(1) << bit; }
    }
    return out;
  }
};

/**
 * g = floor(10^e x 2^(125 - floor(log2 10^e))) + 1, in [2^125, 2^126), split at bit 63 (high:
 * g >> 63, low: its 63 low bits); and floor(log2 10^e).
 */
struct power {
  uint64_t high = 0;
  uint64_t low = 0;
  int log2 = 0;
};

constexpr int table_size = e_max - e_min + 1;

constexpr std::array<power, table_size> make_table() {
  std::array<power, table_size> table{};
  const auto put = [&table](int e, u128 g, int log2) {
    g += 1;
    table[size_t(e - e_min)] = power{uint64_t(g >> 63), uint64_t(g) & ((uint64_t(1) << 63) - 1), log2};
  };
  big ten_e; // 10^e, e = 0, 1, ...
  ten_e.limb[0] = 1;
  for (int e = 0; e <= e_max; e++) {
    const int log2 = ten_e.bit_length() - 1;
    put(e, ten_e.shifted(log2 - 125), log2);
    ten_e.multiply(10);
  }
  // 10^-m: floor(2^(125 + L_m) / 10^m), where L_m = bit_length(10^m) and log2 10^-m = -L_m (10^m
  // is not a power of two), from floor(2^1279 / 10^m), itself 2^1279 divided by 10 m times.
  big ten_m; // 10^m
  ten_m.limb[0] = 1;
  big scaled; // floor(2^1279 / 10^m)
  scaled.limb[big::limbs - 1] = uint64_t(1) << 63;
  for (int m = 1; m <= -e_min; m++) {
    ten_m.multiply(10);
    scaled.divide(10);
    const int length = ten_m.bit_length();
    put(-m, scaled.shifted(1279 - 125 - length), -length);
  }
  return table;
}

constexpr std::array<power, table_size> powers = make_table();

/**
 * g x cp / 2^127 rounded to odd: its integer part, the lowest bit set where the 63 bits after the
 * point are not all zero. Only those 63 count: g's excess over 10^e x 2^(...) (at most 1 in
 * 2^125) moves the product by less than 2^-64, and must not count as a fraction where the exact
 * product is an integer (an interval's end that is a short decimal).
 */
inline uint64_t round_to_odd(const power &g, uint64_t cp) {
  constexpr uint64_t mask63 = (uint64_t(1) << 63) - 1;
  const uint64_t x1 = uint64_t((u128(g.low) * cp) >> 64); // g.low x cp / 2^64, below 2^63
  const u128 y = u128(g.high) * cp;                         // g.high x cp, at 2^63 of the low part
  const uint64_t z = (uint64_t(y) >> 1) + x1;               // the 63 bits after the point, and a carry
  const uint64_t integer = uint64_t(y >> 64) + (z >> 63);
  return integer | (((z & mask63) + mask63) >> 63);
}

/** v = c x 2^q, with c >= 3 (see shortest_decimal): its shortest decimal, and the closest of those. */
decimal schubfach(uint64_t c, int q) {
  constexpr uint64_t c_min = uint64_t(1) << 52;
  constexpr int q_min = -1074;
  // The interval in units of 2^(q - 2): [cbl, cbr] around cb = 4c, narrower below where c is a
  // power of two (the double below is closer); its ends belong to it where c is even.
  const uint64_t out = c & 1;
  const uint64_t cb = c << 2, cbr = cb + 2;
  uint64_t cbl;
  int k;
  if (c != c_min || q == q_min) {
    cbl = cb - 2;
    k = internal::floor_log10_pow2(q);
  } else {
    cbl = cb - 1;
    k = internal::floor_log10_three_quarters_pow2(q);
  }
  const power &g = powers[size_t(-k - e_min)];
  const int h = q + g.log2 + 2; // in [2, 5]
  const uint64_t vb = round_to_odd(g, cb << h), vbl = round_to_odd(g, cbl << h), vbr = round_to_odd(g, cbr << h);
  // vb, vbl, vbr: 4 x (v, its interval's ends) x 10^-k, rounded to odd.
  // s has 16 or 17 digits, or for a subnormal as few as 1: where it has two or more, a multiple
  // of ten in the interval (there is room for one at most) has one digit less.
  const uint64_t s = vb >> 2;
  if (s >= 10) {
    const uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
    const bool upin = vbl + out <= sp10 << 2, wpin = (tp10 << 2) + out <= vbr;
    if (upin != wpin) { return {upin ? sp10 : tp10, k}; }
  }
  const uint64_t t = s + 1;
  const bool uin = vbl + out <= s << 2, win = (t << 2) + out <= vbr;
  if (uin != win) { return {uin ? s : t, k}; }
  const int64_t cmp = int64_t(vb) - int64_t((s + t) << 1); // v against the midpoint of s and t
  return {cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t, k};
}

/** significand x 10^exponent with the significand's trailing zeros moved into the exponent. */
decimal without_trailing_zeros(decimal d) {
  if (d.significand == 0) { return {0, 0}; }
  while (d.significand % 100 == 0) {
    d.significand /= 100;
    d.exponent += 2;
  }
  if (d.significand % 10 == 0) {
    d.significand /= 10;
    d.exponent += 1;
  }
  return d;
}

} // namespace

decimal shortest_decimal(double d) noexcept {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  const uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);
  const int biased = int((bits >> 52) & 0x7FF);
  if (biased == 0) { // zero, or subnormal: c x 2^-1074
    if (fraction >= 3) { return without_trailing_zeros(schubfach(fraction, -1074)); }
    if (fraction == 0) { return {0, 0}; }
    // 2^-1074 and 2^-1073, whose intervals are too wide for the 126-bit scaling: their digits
    // as the standard library writes them (5e-324, 1e-323).
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, d < 0 ? -d : d, std::chars_format::scientific);
    decimal out{uint64_t(buf[0] - '0'), 0};
    std::from_chars(buf + 2 + (buf[2] == '+'), r.ptr, out.exponent);
    return out;
  }
  const uint64_t c = fraction | (uint64_t(1) << 52);
  const int q = biased - 1075;
  if (q < 0 && q > -53) { // an integer below 2^53 is its own shortest decimal
    const uint64_t integer = c >> -q;
    if (integer << -q == c) { return without_trailing_zeros({integer, 0}); }
  }
  return without_trailing_zeros(schubfach(c, q));
}

} // namespace simdbridge
