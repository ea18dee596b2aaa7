// SPDX-License-Identifier: Apache-2.0
// One document through every single-document entry point (checksum, validate, the binding
// tape, with a binding plan too, a kept document, parse into a document), read in place and
// copied, under the default limits and tight ones; each verdict must be the scalar parser's, and
// the checksum its value. With the plan, the tape must be the one without it, or shorter.
#include <algorithm>
#include <memory>
#include <vector>

#include "fuzz_support.h"
#include "simdbridge/document.h"
#include "simdbridge/parser.h"
#include "simdbridge/binding_plan.h"
#include "simdbridge/binding_tape.h"

using namespace simdbridge;
using simdbridge::fuzz::outcome;

namespace {

parser_options tight_options() {
  parser_options o;
  o.max_depth = 6;
  o.max_number_length = 24;
  o.max_document_length = 300;
  o.max_string_length = 16;
  return o;
}

/** {"a": [node 0...], "b": anything, "c": node 0}: short keys, a cycle, a list. */
const binding_plan &fuzz_plan() {
  static const std::unique_ptr<binding_plan> plan = [] {
    const std::vector<uint8_t> spec = {2, 0, 0, 0,                                     // two nodes
                                       1, 0, 0, 0, 3, 0, 0, 0,                         // 0: an object of 3 keys
                                       1, 0, 0, 0, 'a', 1, 0, 0, 0,                    //   "a": node 1
                                       1, 0, 0, 0, 'b', 0xFF, 0xFF, 0xFF, 0xFF,        //   "b": none
                                       1, 0, 0, 0, 'c', 0, 0, 0, 0,                    //   "c": node 0
                                       2, 0, 0, 0, 0, 0, 0, 0};                        // 1: an array of node 0
    error e;
    std::unique_ptr<binding_plan> p = binding_plan::parse(spec.data(), spec.size(), e);
    fuzz::expect(p != nullptr, "the fuzzer's plan is malformed");
    return p;
  }();
  return *plan;
}

void check(parser &p, const uint8_t *data, size_t size) {
  const parser_options &options = p.options();
  const outcome slow = fuzz::slow_checksum(data, size, options);
  const fuzz::padded_bytes in_place(data, size);
  const input copied = input::copy_of(data, size);

  const outcome fast = outcome::of(p.checksum(in_place.in()));
  if (!(fast == slow)) { fuzz::fail("checksum in place against the scalar parser", fast, slow); }
  const outcome again = outcome::of(p.checksum(copied));
  if (!(again == slow)) { fuzz::fail("checksum copied against the scalar parser", again, slow); }

  const outcome valid = outcome::of(p.validate(in_place.in()));
  if (!valid.same_verdict(slow)) { fuzz::fail("validate against the scalar parser", valid, slow); }

  // The binding tape: two words per value at most one per byte, strings no longer than the input.
  std::vector<uint64_t> words(2 * size + 8);
  std::vector<uint8_t> strings(size + 32);
  binding_tape_buffer out{words.data(), words.size(), strings.data(), strings.size()};
  const error t = p.to_binding_tape(in_place.in(), out);
  if (!outcome::of(t).same_verdict(slow)) { fuzz::fail("to_binding_tape against the scalar parser", outcome::of(t), slow); }
  if (t.ok()) {
    fuzz::expect(out.words_used <= words.size() && out.strings_used <= strings.size(), "to_binding_tape wrote past its arrays");
    fuzz::expect(out.words_used >= 2 && out.words_used % 2 == 0, "to_binding_tape: an odd or empty tape");
    const uint64_t end = words[1] >> 32;
    const auto kind = binding_tape_entry(words[0] >> 56);
    const bool container = kind == binding_tape_entry::object || kind == binding_tape_entry::array;
    fuzz::expect(!container || end == out.words_used, "to_binding_tape: the root container does not end the tape");
  }
  // With the plan: the same verdict; the tape without the plan, or, followed, a shorter one.
  {
    std::vector<uint64_t> planned_words(words.size());
    std::vector<uint8_t> planned_strings(strings.size());
    binding_tape_buffer planned{planned_words.data(), planned_words.size(), planned_strings.data(), planned_strings.size()};
    const error pt = p.to_binding_tape(in_place.in(), fuzz_plan(), planned);
    if (!outcome::of(pt).same_verdict(outcome::of(t)) || pt.offset != t.offset) {
      fuzz::fail("to_binding_tape with a plan against without", outcome::of(pt), outcome::of(t));
    }
    if (pt.ok() && !planned.planned) {
      fuzz::expect(planned.words_used == out.words_used && planned.strings_used == out.strings_used &&
                       std::equal(words.begin(), words.begin() + long(out.words_used), planned_words.begin()) &&
                       std::equal(strings.begin(), strings.begin() + long(out.strings_used), planned_strings.begin()),
                   "to_binding_tape with a plan not followed: another tape than without it");
    }
    if (pt.ok() && planned.planned) {
      fuzz::expect(planned.words_used <= out.words_used && planned.strings_used <= out.strings_used,
                   "to_binding_tape with a plan followed: a longer tape");
      if (planned.words_used > 2) {
        binding_tape_buffer small{planned_words.data(), planned.words_used - 2, planned_strings.data(), planned.strings_used};
        const error s = p.to_binding_tape(in_place.in(), fuzz_plan(), small);
        fuzz::expect(s.code == error_code::output_too_small && small.words_used == planned.words_used && small.planned,
                     "to_binding_tape with a plan into too small an array");
      }
    }
    fuzz::expect(!planned.planned || pt.ok(), "to_binding_tape: an error said to follow the plan");
  }
  // With string values left in the input: the same verdict and offset, the same entries, and
  // each string's bytes (from the input or the strings) those of the copied tape.
  {
    std::vector<uint64_t> left_words(words.size());
    std::vector<uint8_t> left_strings(strings.size());
    binding_tape_buffer left{left_words.data(), left_words.size(), left_strings.data(), left_strings.size()};
    left.strings_in_input = true;
    const error lt = p.to_binding_tape(in_place.in(), left);
    if (!outcome::of(lt).same_verdict(outcome::of(t)) || lt.offset != t.offset) {
      fuzz::fail("to_binding_tape with strings in the input against without", outcome::of(lt), outcome::of(t));
    }
    if (lt.ok()) {
      fuzz::expect(left.words_used == out.words_used && left.strings_used <= out.strings_used,
                   "to_binding_tape with strings in the input: another tape's size");
      for (size_t w = 0; w < out.words_used; w += 2) {
        const uint64_t flags = binding_tape_in_input | binding_tape_ascii;
        fuzz::expect((left_words[w] & ~flags) == (words[w] & ~flags), "to_binding_tape with strings in the input: another entry");
        if (binding_tape_entry(words[w] >> 56) != binding_tape_entry::string) {
          fuzz::expect(left_words[w + 1] == words[w + 1], "to_binding_tape with strings in the input: another value");
          continue;
        }
        const uint32_t length = uint32_t(words[w + 1]), at = uint32_t(left_words[w + 1] >> 32);
        const bool in_input = (left_words[w] & binding_tape_in_input) != 0;
        fuzz::expect(uint32_t(left_words[w + 1]) == length && at + size_t(length) <= (in_input ? size : left.strings_used),
                     "to_binding_tape with strings in the input: a string out of bounds");
        const uint8_t *bytes = in_input ? data + at : left_strings.data() + at;
        fuzz::expect(std::equal(bytes, bytes + length, strings.begin() + long(words[w + 1] >> 32)),
                     "to_binding_tape with strings in the input: other bytes");
      }
    }
  }
  // A tape that does not fit: the sizes it needs, never a write past the arrays.
  if (t.ok() && out.words_used > 2) {
    binding_tape_buffer small{words.data(), out.words_used - 2, strings.data(), out.strings_used};
    const error s = p.to_binding_tape(in_place.in(), small);
    fuzz::expect(s.code == error_code::output_too_small && small.words_used == out.words_used,
                 "to_binding_tape into too small an array");
  }

  const error kept = p.document_parse(in_place.in());
  const bool kept_verdict = kept.ok() || kept.code == error_code::unsupported_value ? slow.ok : outcome::of(kept).same_verdict(slow);
  if (!kept_verdict) { fuzz::fail("document_parse against the scalar parser", outcome::of(kept), slow); }

  document doc;
  const error d = p.parse(copied, doc);
  const bool parsed_verdict = d.ok() || d.code == error_code::unsupported_value ? slow.ok : outcome::of(d).same_verdict(slow);
  if (!parsed_verdict) { fuzz::fail("parse into a document against the scalar parser", outcome::of(d), slow); }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static parser plain;
  static parser tight(tight_options());
  check(plain, data, size);
  check(tight, data, size);
  return 0;
}
