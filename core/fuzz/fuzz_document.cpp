// SPDX-License-Identifier: Apache-2.0
// One document through every single-document entry point (checksum, validate, the binding
// tape, a kept document, parse into a document), read in place and copied, under the default
// limits and tight ones; each verdict must be the scalar parser's, and the checksum its value.
#include <vector>

#include "fuzz_support.h"
#include "simdbridge/document.h"
#include "simdbridge/parser.h"
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
