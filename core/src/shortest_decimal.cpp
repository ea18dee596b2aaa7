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
// write_double() scales by one power of ten less, so that the interval holds one integer at
// most, with one multiplication instead of three (see write_double), and makes the text from
// registers, falling back to shortest_decimal() where that shortcut cannot decide.
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

// The powers of ten in the table: 10^e for e in [e_min, e_max] (every -k the doubles need, and
// -k - 1 for write_double).
constexpr int e_min = -293;
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
 * g = floor(10^e x 2^(125 - floor(log2 10^e))) + 1, in [2^125, 2^126), as its high and low 64
 * bits; and floor(log2 10^e).
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
    table[size_t(e - e_min)] = power{uint64_t(g >> 64), uint64_t(g), log2};
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
  const uint64_t high = (g.high << 1) | (g.low >> 63), low = g.low & mask63; // g split at bit 63
  const uint64_t x1 = uint64_t((u128(low) * cp) >> 64); // low x cp / 2^64, below 2^63
  const u128 y = u128(high) * cp;                         // high x cp, at 2^63 of the low part
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
 * The 16 digits of a x 10^8 + b (a, b below 10^8), leading zeros included, as ASCII, first digit
 * in the lowest byte, and a mask of those that are '0' (bit i for the i-th), which gives the
 * trailing zeros without a loop. eight_digit_word's steps on both halves at once: each half is
 * split into two 4-digit groups in 32-bit lanes (x / 10^4 is x * 109951163 >> 40 below 10^8),
 * each group into two 2-digit pairs in 16-bit lanes (x * 5243 >> 19 is x / 100 below 10^4),
 * each pair into its two digits in bytes (x * 6554 >> 16 is x / 10 below 100).
 */
struct digit_block {
  u128 digits;
  unsigned zero_mask;
};

inline digit_block sixteen_digits(uint32_t a, uint32_t b) noexcept {
#if defined(__SSE2__)
  const __m128i halves = _mm_unpacklo_epi64(_mm_cvtsi32_si128(int(b)), _mm_cvtsi32_si128(int(a)));
  // x + (2^32 - 10^4) x (x / 10^4): x % 10^4 in the low 32 bits, x / 10^4 above; the four
  // groups then reversed into reading order.
  const __m128i quotients = _mm_srli_epi64(_mm_mul_epu32(halves, _mm_set1_epi64x(109951163)), 40);
  const __m128i split = _mm_add_epi64(halves, _mm_mul_epu32(quotients, _mm_set1_epi64x(4294957296)));
  const __m128i groups = _mm_shuffle_epi32(split, _MM_SHUFFLE(0, 1, 2, 3));
  __m128i hundred = _mm_set1_epi16(100), tens_weight = _mm_set1_epi16(2559);
  __asm__("" : "+x"(hundred), "+x"(tens_weight)); // one multiplication each, not shifts and adds (GCC)
  const __m128i hundreds = _mm_srli_epi16(_mm_mulhi_epu16(groups, _mm_set1_epi16(5243)), 3);
  const __m128i rests = _mm_sub_epi16(groups, _mm_mullo_epi16(hundreds, hundred));
  const __m128i pairs = _mm_or_si128(hundreds, _mm_slli_epi32(rests, 16));
  // A pair p = 10 t + o as the bytes t, o: p x 256 - 2559 t = t + 256 o.
  const __m128i tens = _mm_mulhi_epu16(pairs, _mm_set1_epi16(6554));
  const __m128i digits = _mm_sub_epi16(_mm_slli_epi16(pairs, 8), _mm_mullo_epi16(tens, tens_weight));
  const __m128i ascii = _mm_or_si128(digits, _mm_set1_epi8('0'));
  const unsigned zeros = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(digits, _mm_setzero_si128())));
  // Both halves through registers: a copy through memory would wait on a store forwarded to
  // two loads.
  const uint64_t first = uint64_t(_mm_cvtsi128_si64(ascii));
  __m128i upper = _mm_unpackhi_epi64(ascii, ascii);
  __asm__("" : "+x"(upper)); // a movq from a register, not a store and a load (GCC)
  const uint64_t second = uint64_t(_mm_cvtsi128_si64(upper));
  return {u128(first) | u128(second) << 64, zeros};
#else
  const u128 x = u128(eight_digit_word(a)) | u128(eight_digit_word(b)) << 64;
  // Bit i set where byte i is not '0': the digit's value (0 to 9) plus 0x7F carries into the
  // byte's top bit unless it is 0, and the multiplication gathers the top bits in order.
  const auto nonzero = [](uint64_t word) noexcept {
    const uint64_t top = (((word ^ 0x3030303030303030ULL) + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL) >> 7;
    return unsigned((top * 0x0102040810204080ULL) >> 56);
  };
  return {x, ~(nonzero(uint64_t(x)) | nonzero(uint64_t(x >> 64)) << 8) & 0xFFFF};
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
  // interval is narrower below), and integers below 2^53 (their own shortest decimal, found
  // there faster than below).
  if (biased <= 1 || fraction == 0 || (q < 0 && q > -53 && (c << (64 + q)) == 0)) {
    return write_double_exactly(d, out, lowest_point, two_digit_exponent);
  }
  // v = c x 2^q scaled by 10^-(k+1), k = floor(log10 2^q) as in schubfach(): W = v x 10^-(k+1) is
  // in [2^52 / 10, 2^53), and its interval's half-width D = 2^(q-1) x 10^-(k+1) in [1/20, 1/2).
  // So the interval holds one integer at most: s = floor(W) or s + 1. Where it holds one, that
  // is the shortest decimal (a shorter one, a multiple of ten, would be an integer too); else
  // every decimal in it has a digit more, and the closest is round(10 W) (within the interval,
  // whose half-width at that scale, 10 D, is at least 1/2). Either way m = 10 x (s or s + 1, or
  // s + round(frac(W) x 10) / 10) over 10^k, with 16 or 17 digits: W and D come from one
  // 64 x 128-bit product and a shift, in units of 2^-64, each off by 2 units at most, so that
  // where no compared quantity falls within 2^10 units of where its comparison turns, they
  // decide as the exact values would, and no end of the interval falls on a candidate (where
  // whether it belongs to the interval would count). Elsewhere, the exact path. W's own
  // fraction may fall near 0 (W may be an integer), and s be off by one there: then s and s + 1
  // trade places as the one in the interval, and m is the same.
  const int k = internal::floor_log10_pow2(q);
  const power &g = powers[size_t(-(k + 1) - e_min)];
  const int sh = q + g.log2 + 4; // in [0, 3]: 2^(q + log2) is in (1/20, 1)
  const uint64_t cp = c << sh;
  const u128 w = u128(g.high) * cp + uint64_t((u128(g.low) * cp) >> 64); // g x cp / 2^64 = W x 2^65
  const uint64_t s = uint64_t(w >> 65), f = uint64_t(w >> 1);           // W's integer part, fraction
  const uint64_t half_width = ((g.high << 1) | (g.low >> 63)) >> (3 - sh); // D x 2^64 = g / 2^(66 - sh)
  const u128 tenths = u128(f) * 10 + (uint64_t(1) << 63); // 10 frac(W) + 1/2: its integer part rounds
  constexpr uint64_t margin = 1 << 10;
  const auto near = [](uint64_t x) { return x + margin < 2 * margin; }; // x within margin of 0, mod 2^64
  const bool undecided = near(f - half_width) | near(f + half_width) | near(uint64_t(tenths));
  if (__builtin_expect(undecided, 0)) { return write_double_exactly(d, out, lowest_point, two_digit_exponent); }
  const bool down = f < half_width, up = f >= uint64_t(0) - half_width; // s, s + 1 in the interval
  // The decimal is m = 10 x integral + last over 10^k: integral = s + 1 where s + 1 is in the
  // interval, else s (below 2^53, so 15 or 16 digits); last = 0 where s or s + 1 is, else
  // round(10 frac(W)), never 10 there (10 frac(W) + 1/2 >= 10 puts s + 1 in the interval, as
  // D >= 1/20). Without a branch: whether one is in the interval is as good as random in real data.
  const uint64_t integral = s + uint64_t(up);
  const uint64_t last = uint64_t(tenths >> 64) & (uint64_t(down | up) - 1);
  // The text's first 16 digits, z, and its 17th, c17 ('0' where there is none): where integral
  // has 16 digits, they are integral's and `last`; where it has 15 (W >= 2^52 / 10 has 15 at
  // least), those of 10 x integral + last, and '0'. Selected without a branch.
  const uint64_t lead0 = uint64_t(integral < 1000000000000000);
  const uint64_t first16 = integral + ((9 * integral + last) & (uint64_t(0) - lead0));
  const char c17 = char('0' + (last & (lead0 - 1)));
  constexpr uint64_t e8 = 100000000;
  const uint64_t high = first16 / e8; // below 10^8
  const digit_block x = sixteen_digits(uint32_t(high), uint32_t(first16 - high * e8));
  const u128 z = x.digits;
  // Bit i set where the text's i-th digit is not 0: the highest is the last digit to write.
  const unsigned nonzero = (~x.zero_mask & 0xFFFF) | unsigned(c17 != '0') << 16;
  const int digits = 32 - __builtin_clz(nonzero);
  const int point = 17 - int(lead0) + k; // digits before the point
  char *t = out;
  *t = '-';
  t += bits >> 63;
  // z with a point after its first p digits (0 < p <= 16), at `to`, and c17 after them: z
  // whole, then z shifted past those p digits a byte on (its 16th digit alone where p = 16, for
  // c17 to write over), then the point and c17; stores only, from registers.
  const auto with_point = [z, c17](char *to, int p) noexcept {
    std::memcpy(to, &z, 16);
    const u128 y = z >> (8 * (p < 16 ? p : 15));
    std::memcpy(to + p + 1, &y, 16);
    to[p] = '.';
    to[17] = c17;
  };
  if (point > 0 && point <= 16) {
    // Past the last digit z holds '0's, so where the point comes after it, the same stores
    // write the integer's zeros and ".0".
    with_point(t, point);
    return size_t(t + (point < digits ? digits + 1 : point + 2) - out);
  }
  if (point <= 0 && point >= lowest_point && point >= -5) {
    std::memcpy(t, "0.000000", 8);
    char *to = t + 2 - point;
    std::memcpy(to, &z, 16);
    to[16] = c17;
    return size_t(to + digits - out);
  }
  with_point(t, 1);
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
