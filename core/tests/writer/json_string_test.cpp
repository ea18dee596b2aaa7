// SPDX-License-Identifier: Apache-2.0
// write_json_string against a reference written the plain way (code point by code point, with
// snprintf for the escapes), on every kind of code unit at every position of the 8-unit blocks.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "simdbridge/simdbridge_c.h"
#include "simdbridge/writer.h"

namespace {

std::string reference(const std::u16string &s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); i++) {
    uint32_t c = s[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (s[i + 1] - 0xDC00);
      i++;
    }
    char buf[8];
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\b') {
      out += "\\b";
    } else if (c == '\f') {
      out += "\\f";
    } else if (c < 0x20 || (c >= 0xD800 && c <= 0xDFFF)) {
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else if (c < 0x80) {
      out += char(c);
    } else if (c < 0x800) {
      out += char(0xC0 | (c >> 6));
      out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += char(0xE0 | (c >> 12));
      out += char(0x80 | ((c >> 6) & 0x3F));
      out += char(0x80 | (c & 0x3F));
    } else {
      out += char(0xF0 | (c >> 18));
      out += char(0x80 | ((c >> 12) & 0x3F));
      out += char(0x80 | ((c >> 6) & 0x3F));
      out += char(0x80 | (c & 0x3F));
    }
  }
  return out + "\"";
}

std::string written(const std::u16string &s) {
  // Exactly the capacity the header promises, and a guard past it that must stay untouched.
  std::vector<uint8_t> out(simdbridge::json_string_capacity(s.size()) + 16, 0xAB);
  const size_t n = simdbridge::write_json_string(s.data(), s.size(), out.data());
  EXPECT_LE(n, simdbridge::json_string_capacity(s.size()));
  for (size_t i = simdbridge::json_string_capacity(s.size()); i < out.size(); i++) { EXPECT_EQ(out[i], 0xAB); }
  return std::string(out.begin(), out.begin() + std::ptrdiff_t(n));
}

// Code units of every kind the writer tells apart.
const char16_t kinds[] = {u'a',    u'Z',    u' ',    u'/',    u'\x7f', u'"',    u'\\',   u'\n',   u'\r',
                          u'\t',   u'\b',   u'\f',   u'\x00', u'\x01', u'\x1f', u'\x80', u'\xe9', u'\xff',
                          u'\u07ff', u'\u0800', u'\u4e2d', u'\uffff', char16_t(0xD83D), char16_t(0xDE00),
                          char16_t(0xDBFF), char16_t(0xDC00)};

TEST(WriteJsonString, EmptyAndPlain) {
  EXPECT_EQ(written(u""), "\"\"");
  EXPECT_EQ(written(u"plain ascii text, longer than a block"), "\"plain ascii text, longer than a block\"");
  EXPECT_EQ(written(u"caf\u00e9 \u4e2d\u6587 \U0001F600"), reference(u"caf\u00e9 \u4e2d\u6587 \U0001F600"));
}

TEST(WriteJsonString, EveryControlCharacter) {
  std::u16string s;
  for (char16_t c = 0; c < 0x20; c++) { s += c; }
  EXPECT_EQ(written(s), "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e"
                        "\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a"
                        "\\u001b\\u001c\\u001d\\u001e\\u001f\"");
}

TEST(WriteJsonString, SurrogatesAtEveryPosition) {
  // A pair, a lone high, a lone low, a high at the very end, in each position of a block.
  for (size_t at = 0; at < 24; at++) {
    const char16_t high = 0xD83D, low = 0xDE00;
    for (const std::u16string &piece : {std::u16string{high, low}, std::u16string{high}, std::u16string{low},
                                        std::u16string{low, high}}) {
      std::u16string s(at, u'x');
      s += piece;
      EXPECT_EQ(written(s), reference(s)) << at;
      s += std::u16string(9, u'y');
      EXPECT_EQ(written(s), reference(s)) << at;
    }
  }
}

TEST(WriteJsonString, EveryLengthAndEveryPlaceOfEachKind) {
  // In the 16-unit steps, the 8-unit ones, and the last units (the text's last eight stored
  // over the plain ones before them): one unit of each kind at each place of each length.
  for (size_t n = 0; n <= 48; n++) {
    const std::u16string plain(n, u'a');
    ASSERT_EQ(written(plain), reference(plain)) << n;
    for (size_t at = 0; at < n; at++) {
      for (const char16_t kind : kinds) {
        std::u16string s = plain;
        s[at] = kind;
        ASSERT_EQ(written(s), reference(s)) << n << " " << at << " " << unsigned(kind);
      }
    }
  }
}

TEST(WriteJsonString, RandomMixes) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 20000; round++) {
    const size_t n = rng() % 70;
    const unsigned plain_odds = rng() % 4; // mostly plain text in some rounds, mostly special in others
    std::u16string s;
    for (size_t i = 0; i < n; i++) {
      if (rng() % 4 < plain_odds) {
        s += char16_t(0x20 + rng() % 0x5F);
      } else if (rng() % 8 == 0) {
        s += char16_t(rng() % 0x10000);
      } else {
        s += kinds[rng() % (sizeof kinds / sizeof kinds[0])];
      }
    }
    ASSERT_EQ(written(s), reference(s)) << "round " << round;
  }
}

/** write_json_string_utf8's reference: each byte as it is, but the escapes write_json_string writes
 *  (and DEL's where `escape_del`). */
std::string reference_utf8(const std::string &s, bool escape_del = false) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = uint8_t(ch);
    char buf[8];
    if (escape_del && c == 0x7F) {
      out += "\\u007f";
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      const char *named = c == '\n'   ? "\\n"
                          : c == '\r' ? "\\r"
                          : c == '\t' ? "\\t"
                          : c == '\b' ? "\\b"
                          : c == '\f' ? "\\f"
                                      : nullptr;
      if (named == nullptr) {
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        named = buf;
      }
      out += named;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

/** write_json_string_utf8 of `s`, read from a heap block of exactly its size (ASan sees any read past it). */
std::string written_utf8(const std::string &s) {
  std::unique_ptr<uint8_t[]> text(new uint8_t[s.size()]);
  std::memcpy(text.get(), s.data(), s.size());
  std::vector<uint8_t> out(simdbridge::json_string_capacity_utf8(s.size()) + 16, 0xAB);
  const size_t n = simdbridge::write_json_string_utf8(text.get(), s.size(), out.data());
  EXPECT_LE(n, simdbridge::json_string_capacity_utf8(s.size()));
  for (size_t i = simdbridge::json_string_capacity_utf8(s.size()); i < out.size(); i++) { EXPECT_EQ(out[i], 0xAB); }
  return std::string(out.begin(), out.begin() + std::ptrdiff_t(n));
}

TEST(WriteJsonStringUtf8, EveryLengthAndEveryPlaceOfAnEscape) {
  // The last bytes past the 16-byte blocks are read as two overlapping words (from 4 bytes):
  // an escape in each position of each tail length, in the first word, the second or both.
  const std::string specials[] = {"\"", "\\", "\n", std::string(1, '\0'), "\x1f", "\x7f", "\xc3\xa9", "\xe4\xb8\xad"};
  for (size_t n = 0; n <= 40; n++) {
    const std::string plain(n, 'a');
    EXPECT_EQ(written_utf8(plain), reference_utf8(plain)) << n;
    for (size_t at = 0; at < n; at++) {
      for (const std::string &special : specials) {
        std::string s = plain;
        s.replace(at, std::min(special.size(), n - at), special.substr(0, n - at));
        EXPECT_EQ(written_utf8(s), reference_utf8(s)) << n << " " << at;
      }
    }
  }
}

/** Text shorter than `max_length` bytes: printable ASCII and bytes of each kind the writers tell
 *  apart, in a mix that varies from call to call (mostly plain, mostly special, or between). */
std::string random_mix(std::mt19937 &rng, size_t max_length) {
  static const char bytes[] = {'a', 'Z', ' ', '/', '"', '\\', '\n', '\r', '\t', '\b', '\f', '\0', '\x01', '\x1f',
                               '\x7f', '\x80', '\xbf', '\xc3', '\xe4', '\xf0', '\xff'};
  const size_t n = rng() % max_length;
  const unsigned plain_odds = rng() % 8;
  std::string s;
  for (size_t i = 0; i < n; i++) {
    s += rng() % 8 < plain_odds ? char(0x20 + rng() % 0x5F) : bytes[rng() % sizeof bytes];
  }
  return s;
}

TEST(WriteJsonStringUtf8, RandomMixes) {
  std::mt19937 rng(54321);
  for (int round = 0; round < 20000; round++) {
    const std::string s = random_mix(rng, 70);
    ASSERT_EQ(written_utf8(s), reference_utf8(s)) << "round " << round;
  }
}

/** write_json_escaped_utf8 of `s`, quoted, read from a heap block of exactly its size, checked to
 *  write nothing past json_string_capacity_utf8. */
std::string escaped_by(const std::string &s, bool escape_del) {
  std::unique_ptr<uint8_t[]> text(new uint8_t[s.size()]);
  std::memcpy(text.get(), s.data(), s.size());
  const size_t capacity = simdbridge::json_string_capacity_utf8(s.size());
  std::vector<uint8_t> out(capacity + 16, 0xAB);
  out[0] = '"';
  const size_t n = 1 + simdbridge::write_json_escaped_utf8(text.get(), s.size(), out.data() + 1, escape_del);
  out[n] = '"';
  EXPECT_LE(n + 1, capacity);
  for (size_t i = capacity; i < out.size(); i++) { EXPECT_EQ(out[i], 0xAB); }
  return std::string(out.begin(), out.begin() + std::ptrdiff_t(n + 1));
}

TEST(WriteJsonEscapedUtf8, EveryLengthAndEveryPlaceOfAnEscape) {
  // In the one or two vectors of short text, in the 16-byte blocks and in the last vector past
  // them, one special at each place; DEL escaped or not.
  const std::string specials[] = {"\"", "\\", "\n", std::string(1, '\0'), "\x1f", "\x7f", "\xc3\xa9", "\xff"};
  for (const bool del : {false, true}) {
    for (size_t n = 0; n <= 100; n++) {
      const std::string plain(n, 'a');
      ASSERT_EQ(escaped_by(plain, del), reference_utf8(plain, del)) << n;
      for (size_t at = 0; at < n; at++) {
        for (const std::string &special : specials) {
          std::string s = plain;
          s.replace(at, std::min(special.size(), n - at), special.substr(0, n - at));
          ASSERT_EQ(escaped_by(s, del), reference_utf8(s, del)) << n << " " << at;
        }
      }
    }
  }
}

TEST(WriteJsonEscapedUtf8, RandomMixes) {
  std::mt19937 rng(777);
  for (int round = 0; round < 20000; round++) {
    const std::string s = random_mix(rng, 300);
    const bool del = rng() % 2 == 0;
    ASSERT_EQ(escaped_by(s, del), reference_utf8(s, del)) << "round " << round;
  }
}

TEST(WriteJsonEscapedUtf8, TextEndingAtAnUnreadablePage) {
  // The last bytes are read as one vector only where it stays in their page: text that ends
  // where an unreadable page begins is read up to its last byte and no further (a read past it
  // would fault), at every length and with an escape near the end.
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  void *map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  auto *base = static_cast<uint8_t *>(map);
  ASSERT_EQ(mprotect(base + page, page, PROT_NONE), 0);
  for (size_t n = 0; n <= 80; n++) {
    for (const bool escape_last : {false, true}) {
      std::string s(n, 'q');
      if (escape_last && n > 0) { s[n - 1] = '\n'; }
      uint8_t *text = base + page - n;
      std::memcpy(text, s.data(), n);
      std::vector<uint8_t> out(simdbridge::json_string_capacity_utf8(n));
      const size_t written = simdbridge::write_json_escaped_utf8(text, n, out.data(), false);
      const std::string expected = reference_utf8(s);
      const std::string got(out.begin(), out.begin() + std::ptrdiff_t(written));
      EXPECT_EQ(got, expected.substr(1, expected.size() - 2)) << n;
    }
  }
  munmap(map, 2 * page);
}

TEST(WriteJsonString, CApi) {
  const std::u16string s = u"a\"b\\c\nd\u00e9" + std::u16string{char16_t(0xD800)};
  std::vector<uint8_t> out(simdbridge::json_string_capacity(s.size()));
  const size_t n = simdbridge_write_json_string(reinterpret_cast<const uint16_t *>(s.data()), s.size(), out.data());
  EXPECT_EQ(std::string(out.begin(), out.begin() + std::ptrdiff_t(n)), reference(s));
}

} // namespace
