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
//
// write_double() runs the same method with one multiplication instead of three (see
// write_double) and makes the text from registers, falling back to shortest_decimal() where
// that shortcut cannot decide.
#include <array>
#include <charconv>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/**
 * v (significand without trailing zeros, or zero) as write_double lays it out, after the sign.
 * The digits go straight into the output, made eight at a time (write_decimal_digits); where
 * the point falls among them, they are written a byte further on and the integer part (16 digits
 * at most) moved back a byte at a time.
 */
size_t write_decimal_text(decimal v, char *out, int lowest_point, bool two_digit_exponent) noexcept {
  char *t = out;
  if (v.significand == 0) {
    std::memcpy(t, "0.0", 3);
    return 3;
  }
  const int n = decimal_length(v.significand), point = n + v.exponent;
  if (point < lowest_point || point > 16) {
    write_decimal_digits(v.significand, t + 1);
    t[0] = t[1];
    if (n > 1) {
      t[1] = '.';
      t += n + 1;
    } else {
      t += 1;
    }
    *t++ = 'e';
    const int exponent = point - 1, e = exponent < 0 ? -exponent : exponent;
    *t++ = exponent < 0 ? '-' : '+';
    if (e >= 100) { *t++ = char('0' + e / 100); }
    if (e >= 10 || two_digit_exponent) { *t++ = char('0' + e / 10 % 10); }
    *t++ = char('0' + e % 10);
  } else if (point <= 0) {
    *t++ = '0';
    *t++ = '.';
    for (int z = 0; z < -point; z++) { *t++ = '0'; }
    t += write_decimal_digits(v.significand, t);
  } else if (point >= n) {
    t += write_decimal_digits(v.significand, t);
    for (int z = 0; z < point - n; z++) { *t++ = '0'; }
    *t++ = '.';
    *t++ = '0';
  } else {
    write_decimal_digits(v.significand, t + 1);
    for (int i = 0; i < point; i++) { t[i] = t[i + 1]; }
    t[point] = '.';
    t += n + 1;
  }
  return size_t(t - out);
}

/** write_double by shortest_decimal, for the doubles its fast path leaves. */
__attribute__((noinline, cold)) size_t write_double_exactly(double d, char *out, int lowest_point,
                                                            bool two_digit_exponent) noexcept {
  const size_t sign = std::signbit(d) ? 1 : 0;
  *out = '-';
  return sign + write_decimal_text(shortest_decimal(d), out + sign, lowest_point, two_digit_exponent);
}

/**
 * The 16 digits of g3 g2 g1 g0 (4-digit groups, most significant first), leading zeros
 * included, as ASCII, first digit in the lowest byte.
 */
inline u128 sixteen_digits(uint32_t g3, uint32_t g2, uint32_t g1, uint32_t g0) noexcept {
#if defined(__SSE2__)
  // The groups in 32-bit lanes, each split into two 2-digit pairs in 16-bit lanes (x*5243 >> 19
  // is x/100 below 10^4), each pair into its two digits in bytes (x*6554 >> 16 is x/10 below
  // 100): eight_digit_word's steps on all four groups at once.
  const __m128i groups = _mm_set_epi32(int(g0), int(g1), int(g2), int(g3));
  const __m128i hundreds = _mm_srli_epi16(_mm_mulhi_epu16(groups, _mm_set1_epi16(5243)), 3);
  const __m128i rests = _mm_sub_epi16(groups, _mm_mullo_epi16(hundreds, _mm_set1_epi16(100)));
  const __m128i pairs = _mm_or_si128(hundreds, _mm_slli_epi32(rests, 16));
  const __m128i tens = _mm_mulhi_epu16(pairs, _mm_set1_epi16(6554));
  const __m128i ones = _mm_sub_epi16(pairs, _mm_mullo_epi16(tens, _mm_set1_epi16(10)));
  const __m128i ascii = _mm_add_epi8(_mm_or_si128(tens, _mm_slli_epi16(ones, 8)), _mm_set1_epi8('0'));
  u128 x;
  std::memcpy(&x, &ascii, sizeof x);
  return x;
#else
  return u128(eight_digit_word(g3 * 10000 + g2)) | u128(eight_digit_word(g1 * 10000 + g0)) << 64;
#endif
}

} // namespace

size_t write_double(double d, char *out, int lowest_point, bool two_digit_exponent) noexcept {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  const uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);
  const int biased = int((bits >> 52) & 0x7FF);
  const uint64_t c = fraction | (uint64_t(1) << 52);
  const int q = biased - 1075;
  // Left to the exact path: zero, subnormals and the smallest exponent, powers of two (whose
  // interval is narrower below), and integers below 2^53 (their own shortest decimal).
  if (biased <= 1 || fraction == 0 || (q < 0 && q > -53 && (c << (64 + q)) == 0)) {
    return write_double_exactly(d, out, lowest_point, two_digit_exponent);
  }
  // Schubfach's scaling (see schubfach()) of v and of its interval's ends, in units of 2^-64:
  // v's, F = g x cb x 2^h / 2^63, from one 64 x 128-bit product; the ends are F -+ D, where D =
  // g x 2^(h+1) / 2^63 is the half-width (cb -+ 2 in schubfach's units). Each is off the exact
  // product by less than 4 units (the two truncations and g's excess), so that where none of the
  // three has its fraction within 2^10 units of an integer, their integer parts decide every
  // comparison schubfach makes, against integers, as the exact values would, and no end can
  // fall on a candidate (where its inclusion would count). Elsewhere, the exact path.
  const int k = internal::floor_log10_pow2(q);
  const power &g = powers[size_t(-k - e_min)];
  const int h = q + g.log2 + 2;
  const uint64_t g_hi = g.high >> 1, g_lo = (g.high << 63) | g.low; // g = g_hi x 2^64 + g_lo
  const uint64_t cp = (c << 2) << h;
  const u128 lo = u128(g_lo) * cp, hi = u128(g_hi) * cp;
  const u128 f = (hi << 1) + (lo >> 63);
  const u128 half_width = ((u128(g_hi) << 64) | g_lo) >> (62 - h);
  const u128 lower = f - half_width, upper = f + half_width;
  constexpr uint64_t margin = 1 << 10;
  const bool undecided = (uint64_t(lower) + margin < 2 * margin) | (uint64_t(upper) + margin < 2 * margin) |
                         (uint64_t(f) + margin < 2 * margin);
  if (__builtin_expect(undecided, 0)) { return write_double_exactly(d, out, lowest_point, two_digit_exponent); }
  const uint64_t vbl = uint64_t(lower >> 64), vbr = uint64_t(upper >> 64), vb = uint64_t(f >> 64);
  // schubfach()'s choice, without branches (which digit wins is as good as random in real data):
  // the multiple of ten in the interval where there is one, else whichever of s and s + 1 is in
  // it, else (both are) the closer.
  const uint64_t s = vb >> 2, sp10 = s / 10 * 10, tp10 = sp10 + 10;
  const bool upin = vbl < sp10 << 2, wpin = tp10 << 2 <= vbr;
  const bool uin = vbl < s << 2, win = (s + 1) << 2 <= vbr, closer_s = vb < (s << 2) + 2;
  const uint64_t take_t = uint64_t(((uin != win) & !uin) | ((uin == win) & !closer_s));
  const uint64_t near = s + take_t, shorter = sp10 + 10 * uint64_t(!upin);
  uint64_t m = near ^ ((near ^ shorter) & (uint64_t(0) - uint64_t(upin != wpin)));
  int e = k;
  // m has 16 or 17 digits (c x 2^q x 10^-k is in [2^52, 10 x 2^53)), or is 10^17 (then 10^16 x 10).
  constexpr uint64_t e16 = 10000000000000000ULL, e8 = 100000000;
  if (__builtin_expect(m >= 10 * e16, 0)) {
    m /= 10;
    e += 1;
  }
  // The first digit and the 4-digit groups after it, each from m by its own division (they run
  // side by side: a chain of divisions costs its latency on every double).
  const uint64_t first = m / e16, q12 = m / 1000000000000ULL, q8 = m / e8, q4 = m / 10000;
  const u128 x = sixteen_digits(uint32_t(q12 - first * 10000), uint32_t(q8 - q12 * 10000), uint32_t(q4 - q8 * 10000),
                                uint32_t(m - q4 * 10000)); // the digits after the first
  const int lead = int(first != 0), n = 16 + lead;
  const uint64_t zl = uint64_t(x >> 64) ^ 0x3030303030303030ULL, zh = uint64_t(x) ^ 0x3030303030303030ULL;
  const int zeros = zl != 0 ? __builtin_clzll(zl) >> 3 : zh != 0 ? 8 + (__builtin_clzll(zh) >> 3) : 16;
  const int digits = n - zeros, point = n + e; // m without its trailing zeros; digits before the point
  char *t = out;
  *t = '-';
  t += bits >> 63;
  t[0] = char('0' + first); // written over by x where m has 16 digits
  // x with a point after its first p digits (p < 16), at `to`: x whole, then x shifted past
  // those p digits a byte on, then the point; stores only, from registers.
  const auto with_point = [&x](char *to, int p) noexcept {
    std::memcpy(to, &x, 16);
    const u128 y = x >> (8 * p);
    std::memcpy(to + p + 1, &y, 16);
    to[p] = '.';
  };
  if (point > 0 && point <= 16) {
    if (point < digits) {
      with_point(t + lead, point - lead);
      return size_t(t + digits + 1 - out);
    }
    std::memcpy(t + lead, &x, 16); // point <= 16 <= n: every digit up to the point is in m
    std::memcpy(t + point, ".0", 2);
    return size_t(t + point + 2 - out);
  }
  if (point <= 0 && point >= lowest_point && point >= -5) {
    std::memcpy(t, "0.000000", 8);
    char *to = t + 2 - point;
    to[0] = char('0' + first);
    std::memcpy(to + lead, &x, 16);
    return size_t(to + digits - out);
  }
  with_point(t + lead, 1 - lead);
  t += digits > 1 ? digits + 1 : 1;
  *t++ = 'e';
  const int exponent = point - 1, magnitude = exponent < 0 ? -exponent : exponent;
  *t++ = exponent < 0 ? '-' : '+';
  if (magnitude >= 100) { *t++ = char('0' + magnitude / 100); }
  if (magnitude >= 10 || two_digit_exponent) { *t++ = char('0' + magnitude / 10 % 10); }
  *t++ = char('0' + magnitude % 10);
  return size_t(t - out);
}

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
