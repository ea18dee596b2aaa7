// SPDX-License-Identifier: Apache-2.0
// The binding tape with a binding plan (binding_plan.h): the plan's serialized form checked, the
// objects that match it written without their keys and nothing else changed, every document that
// does not match written as without a plan, and errors and limits as without one, on hand-made
// documents, on random ones shaped by a plan and on the corpus.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "simdbridge/binding_plan.h"
#include "simdbridge/binding_tape.h"
#include "simdbridge/parser.h"
#include "test_support.h"

namespace simdbridge::test {
namespace {

constexpr uint32_t none = binding_plan::no_node;

/** A plan as the tests describe it, and its serialized form. */
struct plan_spec {
  struct node {
    bool object = true;
    std::vector<std::pair<std::string, uint32_t>> keys; // name, child
    uint32_t element = none;
  };
  std::vector<node> nodes;

  uint32_t object(std::vector<std::pair<std::string, uint32_t>> keys) {
    nodes.push_back({true, std::move(keys), none});
    return uint32_t(nodes.size() - 1);
  }
  uint32_t array(uint32_t element) {
    nodes.push_back({false, {}, element});
    return uint32_t(nodes.size() - 1);
  }
  const node *at(uint32_t i) const { return i == none ? nullptr : &nodes[i]; }

  std::vector<uint8_t> form() const {
    std::vector<uint8_t> out;
    const auto u32 = [&](uint32_t v) {
      for (int i = 0; i < 4; i++) { out.push_back(uint8_t(v >> (8 * i))); }
    };
    u32(uint32_t(nodes.size()));
    for (const node &n : nodes) {
      u32(n.object ? 1 : 2);
      if (n.object) {
        u32(uint32_t(n.keys.size()));
        for (const auto &[name, child] : n.keys) {
          u32(uint32_t(name.size()));
          out.insert(out.end(), name.begin(), name.end());
          u32(child);
        }
      } else {
        u32(n.element);
      }
    }
    return out;
  }

  std::unique_ptr<binding_plan> make() const {
    const std::vector<uint8_t> f = form();
    error e;
    std::unique_ptr<binding_plan> p = binding_plan::parse(f.data(), f.size(), e);
    EXPECT_TRUE(e.ok()) << e.message();
    return p;
  }
};

struct tape {
  std::vector<uint64_t> words;
  std::vector<uint8_t> strings;
  error e;
  bool planned = false;

  binding_tape_entry kind(size_t w) const { return binding_tape_entry(words[w] >> 56); }
  uint64_t offset(size_t w) const { return words[w] & binding_tape_offset_mask; }
  size_t next(size_t w) const {
    return kind(w) == binding_tape_entry::object || kind(w) == binding_tape_entry::array ? size_t(words[w + 1] >> 32) : w + 2;
  }
  std::string text(size_t w) const {
    return std::string(reinterpret_cast<const char *>(strings.data()) + (words[w + 1] >> 32), uint32_t(words[w + 1]));
  }
};

tape read(parser &p, const std::string &json, const binding_plan *plan) {
  tape t;
  t.words.assign(2 * json.size() + 16, 0);
  t.strings.assign(json.size() + 32, 0);
  binding_tape_buffer out{t.words.data(), t.words.size(), t.strings.data(), t.strings.size()};
  t.e = plan != nullptr ? p.to_binding_tape(input::copy_of(json), *plan, out) : p.to_binding_tape(input::copy_of(json), out);
  t.planned = out.planned;
  if (t.e.ok()) {
    t.words.resize(out.words_used);
    t.strings.resize(out.strings_used);
  }
  return t;
}

/**
 * The value at w as text, one entry per line (kind, offset, payload or string, members), with the
 * keys of the objects where `node` expects one left out when `drop_keys` (the tape as written
 * without a plan, as it should read with one) or read as absent (`keyless`: the planned tape).
 */
void render(const tape &t, size_t w, const plan_spec &spec, const plan_spec::node *node, bool keyless, bool drop_keys,
            std::string &out) {
  const binding_tape_entry k = t.kind(w);
  out += std::to_string(int(k)) + "@" + std::to_string(t.offset(w));
  if (k == binding_tape_entry::object) {
    const bool planned_here = node != nullptr && node->object;
    out += " {" + std::to_string(uint32_t(t.words[w + 1])) + "\n";
    size_t i = 0;
    for (size_t v = w + 2; v < t.next(w); i++) {
      if (!(planned_here && keyless)) {
        if (!(planned_here && drop_keys)) { out += "key@" + std::to_string(t.offset(v)) + " " + t.text(v) + "\n"; }
        v += 2;
      }
      const plan_spec::node *child = planned_here && i < node->keys.size() ? spec.at(node->keys[i].second) : nullptr;
      render(t, v, spec, child, keyless, drop_keys, out);
      v = t.next(v);
    }
    out += "}\n";
  } else if (k == binding_tape_entry::array) {
    const plan_spec::node *element = node != nullptr && !node->object ? spec.at(node->element) : nullptr;
    out += " [" + std::to_string(uint32_t(t.words[w + 1])) + "\n";
    for (size_t v = w + 2; v < t.next(w); v = t.next(v)) { render(t, v, spec, element, keyless, drop_keys, out); }
    out += "]\n";
  } else if (k == binding_tape_entry::string) {
    out += " " + t.text(w) + " " + std::to_string(t.words[w] >> 54) + "\n";
  } else {
    out += " " + std::to_string(t.words[w + 1]) + "\n";
  }
}

/**
 * Whether the document of the plain tape `t` matches the plan from the value at w: every object
 * where the plan expects one holds the plan's keys, in order, each written in the input as the
 * name itself (no escape). The oracle of whether the plan is followed.
 */
bool matches(const tape &t, const std::string &json, size_t w, const plan_spec &spec, const plan_spec::node *node) {
  const binding_tape_entry k = t.kind(w);
  if (k == binding_tape_entry::object) {
    const bool planned_here = node != nullptr && node->object;
    size_t i = 0;
    for (size_t v = w + 2; v < t.next(w); i++) {
      const plan_spec::node *child = nullptr;
      if (planned_here) {
        if (i >= node->keys.size()) { return false; }
        const std::string &name = node->keys[i].first;
        if (json.compare(t.offset(v) + 1, name.size() + 1, name + "\"") != 0) { return false; }
        child = spec.at(node->keys[i].second);
      }
      if (!matches(t, json, v + 2, spec, child)) { return false; }
      v = t.next(v + 2);
    }
    return !planned_here || i == node->keys.size();
  }
  if (k == binding_tape_entry::array) {
    const plan_spec::node *element = node != nullptr && !node->object ? spec.at(node->element) : nullptr;
    for (size_t v = w + 2; v < t.next(w); v = t.next(v)) {
      if (!matches(t, json, v, spec, element)) { return false; }
    }
  }
  return true;
}

/**
 * Reads `json` with and without the plan and checks what the plan promises: the same error, or,
 * where the document matches the plan, a planned tape equal to the plain one less the keys of
 * the plan's objects, or else the plain tape itself. Returns whether the plan was followed.
 * Where the fast walk refuses a document (a scalar root, a number past 64 bits, a lone
 * surrogate: the scalar parser writes it, without the plan), a match is not followed:
 * `any_document` then checks only that what was followed matched.
 */
bool same_but_keys(parser &p, const std::string &json, const plan_spec &spec, const binding_plan &plan,
                   bool any_document = false) {
  const tape plain = read(p, json, nullptr);
  const tape planned = read(p, json, &plan);
  EXPECT_EQ(planned.e.code, plain.e.code) << json;
  EXPECT_EQ(planned.e.offset, plain.e.offset) << json;
  if (!plain.e.ok()) {
    EXPECT_FALSE(planned.planned) << json;
    return false;
  }
  if (any_document) {
    EXPECT_TRUE(!planned.planned || matches(plain, json, 0, spec, spec.at(0))) << json;
  } else {
    EXPECT_EQ(planned.planned, matches(plain, json, 0, spec, spec.at(0))) << json;
  }
  if (!planned.planned) {
    EXPECT_EQ(planned.words, plain.words) << json;
    EXPECT_EQ(planned.strings, plain.strings) << json;
    return false;
  }
  EXPECT_LT(planned.words.size(), plain.words.size() + 1) << json;
  std::string expected, got;
  render(plain, 0, spec, spec.at(0), false, true, expected);
  render(planned, 0, spec, spec.at(0), true, false, got);
  EXPECT_EQ(got, expected) << json;
  EXPECT_EQ(planned.next(0), planned.words.size()) << json;
  return true;
}

plan_spec users_like() {
  plan_spec s;
  s.object({{"users", 1}});
  s.array(2);
  s.object({{"id", none}, {"name", none}, {"a_name_longer_than_16", none}, {"tags", none}, {"friends", 3}, {"any", none}});
  s.array(4);
  s.object({{"id", none}, {"name", none}});
  return s;
}

TEST(Plan, MalformedFormsAreRefusedWithTheirByte) {
  const std::vector<uint8_t> good = users_like().form();
  error e;
  EXPECT_NE(binding_plan::parse(good.data(), good.size(), e), nullptr);
  EXPECT_TRUE(e.ok());
  for (size_t cut = 0; cut < good.size(); cut++) { // every truncation
    EXPECT_EQ(binding_plan::parse(good.data(), cut, e), nullptr) << cut;
    EXPECT_EQ(e.code, error_code::invalid_argument) << cut;
  }
  std::vector<uint8_t> trailing = good;
  trailing.push_back(0);
  EXPECT_EQ(binding_plan::parse(trailing.data(), trailing.size(), e), nullptr);
  EXPECT_EQ(e.offset, good.size());

  const auto refused = [&](const plan_spec &s) {
    const std::vector<uint8_t> f = s.form();
    error why;
    return binding_plan::parse(f.data(), f.size(), why) == nullptr && why.code == error_code::invalid_argument;
  };
  for (const char *name : {"a\"b", "a\\b", "tab\there", "\x01"}) {
    plan_spec s;
    s.object({{name, none}});
    EXPECT_TRUE(refused(s)) << name;
  }
  plan_spec child_out_of_range;
  child_out_of_range.object({{"a", 7}});
  EXPECT_TRUE(refused(child_out_of_range));
  plan_spec element_out_of_range;
  element_out_of_range.array(1);
  EXPECT_TRUE(refused(element_out_of_range));

  // Counts past what the form holds are refused before anything is sized by them.
  const std::vector<uint8_t> huge_count = {0xFF, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(binding_plan::parse(huge_count.data(), huge_count.size(), e), nullptr);
  const std::vector<uint8_t> huge_keys = {1, 0, 0, 0, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F};
  EXPECT_EQ(binding_plan::parse(huge_keys.data(), huge_keys.size(), e), nullptr);
  const std::vector<uint8_t> bad_kind = {1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(binding_plan::parse(bad_kind.data(), bad_kind.size(), e), nullptr);
  EXPECT_EQ(e.offset, 4u);
  EXPECT_EQ(binding_plan::parse(nullptr, 0, e), nullptr);
}

TEST(Plan, MatchingObjectsLoseTheirKeysAndNothingElse) {
  const plan_spec spec = users_like();
  const std::unique_ptr<binding_plan> plan = spec.make();
  parser p;
  const std::string json = R"({"users": [
      {"id": 1, "name": "Ada \u00e9", "a_name_longer_than_16": [1, {"k": "v"}], "tags": ["x", "y"],
       "friends": [{"id": 2, "name": "B"}, {"id": 3, "name": null}], "any": {"nested": {"keys": "stay"}}},
      {"id": 4, "name": "C", "a_name_longer_than_16": null, "tags": [], "friends": [], "any": []}
  ]})";
  EXPECT_TRUE(same_but_keys(p, json, spec, *plan));
  const tape t = read(p, json, plan.get());
  ASSERT_TRUE(t.planned);
  // The root's one value is the array; its first user's first value the number.
  EXPECT_EQ(t.kind(2), binding_tape_entry::array);
  EXPECT_EQ(t.kind(4), binding_tape_entry::object);
  EXPECT_EQ(t.kind(6), binding_tape_entry::int64);
  EXPECT_EQ(t.words[7], 1u);
  EXPECT_EQ(t.text(8), "Ada \xC3\xA9");
  // What the plan says nothing of keeps its keys: "k" inside the long-named value.
  EXPECT_NE(std::string(t.strings.begin(), t.strings.end()).find("kv"), std::string::npos);
}

TEST(Plan, ObjectsThatDoNotMatchLeaveTheTapeAsWithoutIt) {
  const plan_spec spec = users_like();
  const std::unique_ptr<binding_plan> plan = spec.make();
  parser p;
  const std::string friends = R"("tags": [], "friends": [{"id": 2, "name": "B"}], "any": 0)";
  const std::string head = R"({"users": [{"id": 1, "name": "A", "a_name_longer_than_16": 1, )";
  EXPECT_TRUE(same_but_keys(p, head + friends + "}]}", spec, *plan));
  for (const std::string &json : std::vector<std::string>{
           head + friends + R"(, "extra": 1}]})",                                                    // a key past the plan's
           R"({"users": [{"id": 1, "a_name_longer_than_16": 1, )" + friends + "}]}",                  // one missing
           R"({"users": [{"name": "A", "id": 1, "a_name_longer_than_16": 1, )" + friends + "}]}",     // two swapped
           R"({"users": [{"\u0069d": 1, "name": "A", "a_name_longer_than_16": 1, )" + friends + "}]}", // escaped
           R"({"users": [{"idx": 1, "name": "A", "a_name_longer_than_16": 1, )" + friends + "}]}",    // longer
           R"({"users": [{"i": 1, "name": "A", "a_name_longer_than_16": 1, )" + friends + "}]}",      // shorter
           R"({"users": [{"id": 1, "name": "A", "a_name_longer_than_17": 1, )" + friends + "}]}",     // byte 20 differs
           R"({"users": [{"id": 1, "name": "A", "a_name_longer_than_16x": 1, )" + friends + "}]}",
           R"({"users": [{"id": 1, "name": "A", "a_name_longer_than_16": 1, "tags": [], "friends": [{"id": 2}], "any": 0}]})",
           R"({"users": [{}]})",                                                                     // empty, plan's is not
           R"({"users": [], "more": 1})",
           R"({})",
           R"({"users": [{"id": 1, "id": 1}]})",
       }) {
    EXPECT_FALSE(same_but_keys(p, json, spec, *plan)) << json;
  }
  // Values of another shape where the plan expects an object or an array: written as they are,
  // and the plan still followed (the binding then finds the mismatch, as it would without one).
  for (const std::string &json : std::vector<std::string>{R"({"users": {"id": 1}})", R"({"users": [1, "x", null, [{"id": 1}]]})",
                                                         R"([{"users": []}])", R"({"users": null})"}) {
    EXPECT_TRUE(same_but_keys(p, json, spec, *plan)) << json;
  }
}

TEST(Plan, AnEmptyObjectMatchesAPlanWithNoKeys) {
  plan_spec spec;
  spec.object({{"e", 1}, {"list", 2}});
  spec.object({});
  spec.array(1);
  const std::unique_ptr<binding_plan> plan = spec.make();
  parser p;
  EXPECT_TRUE(same_but_keys(p, R"({"e": {}, "list": [{}, {} ,{ }]})", spec, *plan));
  EXPECT_FALSE(same_but_keys(p, R"({"e": {"x": 1}, "list": []})", spec, *plan));
  EXPECT_FALSE(same_but_keys(p, R"({"e": {}, "list": [{}, {"x": 1}]})", spec, *plan));
}

TEST(Plan, ACycleFollowsTheDocumentDown) {
  plan_spec spec; // a node with a list of nodes
  spec.object({{"v", none}, {"children", 1}});
  spec.array(0);
  const std::unique_ptr<binding_plan> plan = spec.make();
  parser p;
  std::string json = R"({"v": 0, "children": []})";
  for (int i = 1; i < 200; i++) { json = R"({"v": )" + std::to_string(i) + R"(, "children": [{"v": -1, "children": []}, )" + json + "]}"; }
  EXPECT_TRUE(same_but_keys(p, json, spec, *plan));
  // Past the depth limit: the same error at the same byte, with and without the plan.
  std::string deep = R"({"v": 0, "children": []})";
  for (int i = 0; i < 600; i++) { deep = R"({"v": 0, "children": [)" + deep + "]}"; }
  const tape plain = read(p, deep, nullptr);
  const tape planned = read(p, deep, plan.get());
  EXPECT_EQ(plain.e.code, error_code::depth_limit);
  EXPECT_EQ(planned.e.code, plain.e.code);
  EXPECT_EQ(planned.e.offset, plain.e.offset);
}

TEST(Plan, ErrorsAreTheSameWithAndWithout) {
  const plan_spec spec = users_like();
  const std::unique_ptr<binding_plan> plan = spec.make();
  parser p;
  const std::string good = R"({"users": [{"id": 1, "name": "A", "a_name_longer_than_16": 1, "tags": [], "friends": [{"id": 2, "name": "B"}], "any": 0}]})";
  for (size_t cut = 0; cut < good.size(); cut++) { same_but_keys(p, good.substr(0, cut), spec, *plan, true); }
  for (size_t at = 0; at < good.size(); at++) {
    for (char c : {'"', '}', ']', ',', ':', 'x', '\\', '\x01'}) {
      std::string bad = good;
      bad[at] = c;
      same_but_keys(p, bad, spec, *plan, true);
    }
  }
  for (const auto &path : list_files(data_directory() + "/jsonchecker", ".json")) {
    same_but_keys(p, read_file(path), spec, *plan, true);
  }
  // What the scalar parser writes is never planned, though it matches.
  EXPECT_FALSE(same_but_keys(p, R"({"users": [], "pad": 1e999})", spec, *plan, true));
}

TEST(Plan, NamesPastMaxStringLengthAreNotTakenOffTheTape) {
  const plan_spec spec = users_like();
  const std::unique_ptr<binding_plan> plan = spec.make();
  parser_options options;
  options.max_string_length = 8; // "a_name_longer_than_16" is past it
  parser p(options);
  const std::string json = R"({"users": [{"id": 1, "name": "A", "a_name_longer_than_16": 1, "tags": [], "friends": [], "any": 0}]})";
  const tape plain = read(p, json, nullptr);
  const tape planned = read(p, json, plan.get());
  EXPECT_EQ(plain.e.code, error_code::string_too_long);
  EXPECT_EQ(planned.e.code, plain.e.code);
  EXPECT_EQ(planned.e.offset, plain.e.offset);
  EXPECT_FALSE(planned.planned);
}

// A plan's name may be longer than what is left of the document: the key is compared no further
// than the structural after it. Each document lies just before a page that cannot be read, with
// the 64 bytes of padding it claims in front of that page, and the plan's name is longer than
// those: reading the name's length past the key would fault.
TEST(Plan, ANameLongerThanTheRestOfTheDocumentIsNotReadPastIt) {
  const guarded_page pages;
  ASSERT_TRUE(pages.ok());
  plan_spec spec;
  spec.object({{std::string(200, 'n'), none}});
  const std::unique_ptr<binding_plan> plan = spec.make();
  parser p;
  for (const std::string &json : std::vector<std::string>{R"({"a":1})", R"({"n":"x"})", "{\"" + std::string(120, 'n') + "\":1}", R"({"":[]})"}) {
    std::memset(pages.begin(), ' ', pages.size());
    uint8_t *const at = pages.end() - padding - json.size();
    std::memcpy(at, json.data(), json.size());
    std::vector<uint64_t> words(64);
    std::vector<uint8_t> strings(512);
    binding_tape_buffer out{words.data(), words.size(), strings.data(), strings.size()};
    const error e = p.to_binding_tape(input::padded(at, json.size(), json.size() + padding), *plan, out);
    EXPECT_TRUE(e.ok()) << json;
    EXPECT_FALSE(out.planned) << json;
  }
}

/** A random document shaped by the plan users_like(), with a random flaw now and then. */
std::string shaped(std::mt19937_64 &rng, int flaw_in) {
  const auto flaw = [&] { return rng() % uint64_t(flaw_in) == 0; };
  const auto scalar = [&]() -> std::string {
    switch (rng() % 6) {
    case 0: return std::to_string(int64_t(rng() % 2000) - 1000);
    case 1: return "\"s" + std::string(rng() % 40, 'x') + "\"";
    case 2: return "\"\\u00e9\\n\"";
    case 3: return "null";
    case 4: return "1.5e3";
    default: return "true";
    }
  };
  std::string out = "{\"users\": [";
  const size_t users = rng() % 4;
  for (size_t u = 0; u < users; u++) {
    if (u > 0) { out += ", "; }
    std::vector<std::string> members = {"\"id\": " + scalar(), "\"name\": " + scalar(),
                                        "\"a_name_longer_than_16\": " + (flaw() ? "{\"k\": [1]}" : scalar()),
                                        "\"tags\": [" + scalar() + "]"};
    std::string friends = "\"friends\": [";
    const size_t n = rng() % 4;
    for (size_t f = 0; f < n; f++) {
      friends += (f > 0 ? ", " : "") + std::string(flaw() ? "{\"name\": 1, \"id\": 2}" : "{\"id\": 1, \"name\": " + scalar() + "}");
    }
    members.push_back(friends + "]");
    members.push_back("\"any\": " + (flaw() ? std::string("{\"z\": {\"y\": 1}}") : scalar()));
    if (flaw()) { members.erase(members.begin() + long(rng() % members.size())); }
    if (flaw()) { members.push_back("\"extra\": 1"); }
    if (flaw()) { std::swap(members[rng() % members.size()], members[rng() % members.size()]); }
    out += "{";
    for (size_t m = 0; m < members.size(); m++) { out += (m > 0 ? ", " : "") + members[m]; }
    out += "}";
  }
  out += "]}";
  return out;
}

TEST(Plan, RandomDocumentsShapedByThePlan) {
  const plan_spec spec = users_like();
  const std::unique_ptr<binding_plan> plan = spec.make();
  parser p;
  std::mt19937_64 rng(20261205);
  size_t followed = 0, not_followed = 0;
  for (int i = 0; i < 3000; i++) {
    std::string json = shaped(rng, 8 + i % 40);
    const bool damaged = i % 5 == 0;
    if (damaged) { json[rng() % json.size()] = "{}[],:\" x"[rng() % 9]; }
    (same_but_keys(p, json, spec, *plan, damaged) ? followed : not_followed)++;
  }
  EXPECT_GT(followed, 500u);
  EXPECT_GT(not_followed, 500u);
}

TEST(Plan, CorpusFilesThroughAPlanTheyDoNotMatch) {
  plan_spec spec;
  spec.object({{"statuses", 1}, {"search_metadata", none}}); // twitter.json's root, its statuses unplanned
  spec.array(none);
  const std::unique_ptr<binding_plan> plan = spec.make();
  parser p;
  for (const auto &path : list_files(data_directory() + "/jsonexamples", ".json")) {
    same_but_keys(p, read_file(path), spec, *plan, true);
  }
}

} // namespace
} // namespace simdbridge::test
