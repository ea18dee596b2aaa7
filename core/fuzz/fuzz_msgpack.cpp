// SPDX-License-Identifier: Apache-2.0
// JSON and MessagePack, each way round: the input read as MessagePack (one value, and as a
// stream on 1 and 3 threads and from a source in pieces, which must agree, and give a broken
// first value the error it gives alone) and, where it converts, its JSON must be valid,
// pack, and unpack to the same text; the input read as JSON and, where it packs, its MessagePack
// must unpack to JSON that packs and unpacks to itself, be the bytes the binding tape's route
// writes, and as NDJSON read from a source in
// pieces give the bytes and error of the whole stream. Nothing may read out of bounds or crash.
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "msgpack/blocks.h"
#include "simdbridge/msgpack.h"
#include "simdbridge/parser.h"
#include "simdbridge/stream.h"

using namespace simdbridge;

namespace {

std::string describe(const msgpack_error &e) {
  return std::string(error_name(e.e.code)) + " at " + std::to_string(e.e.offset) + " in " + std::to_string(e.document);
}

/** JSON our writer made: valid, and through MessagePack and back the same text. */
void check_round_trip(parser &p, const std::vector<uint8_t> &json, bool stream) {
  msgpack_options o;
  o.ndjson = o.stream = stream;
  fuzz::expect(stream ? p.validate_stream(input::copy_of(json.data(), json.size())).ok()
                      : p.validate(input::copy_of(json.data(), json.size())).ok(),
               "msgpack_to_json wrote invalid JSON");
  std::vector<uint8_t> packed, again;
  const msgpack_error e = json_to_msgpack(p, input::copy_of(json.data(), json.size()), o, packed);
  fuzz::expect(e.ok(), "msgpack_to_json's JSON does not pack");
  fuzz::expect(msgpack_to_json(input::copy_of(packed.data(), packed.size()), o, again).ok(), "repacked JSON does not unpack");
  fuzz::expect(again == json, "JSON -> MessagePack -> JSON is not the same text");
}

/**
 * `convert` over `bytes` read from a source in pieces of a few bytes, a few bytes a step, on 1
 * and 2 threads: the error of the whole input read at once (`whole_error`), and where that
 * converts, its output (`whole_output`).
 */
template <typename Convert>
void from_a_source(const std::vector<uint8_t> &bytes, const msgpack_error &whole_error,
                   const std::vector<uint8_t> &whole_output, const char *what, Convert &&convert,
                   uint64_t max_value_length = 0) {
  for (unsigned threads : {1u, 2u}) {
    fuzz::pieces source(bytes.data(), bytes.size(), 1 + bytes.size() % 11);
    msgpack_options steps;
    steps.block_size = 1 + bytes.size() % 7;
    steps.threads = threads;
    steps.max_value_length = max_value_length;
    std::vector<uint8_t> out;
    const msgpack_error e = convert(source, steps, [&](const uint8_t *d, size_t n) {
      out.insert(out.end(), d, d + n);
      return true;
    });
    if (e.e.code != whole_error.e.code || e.e.offset != whole_error.e.offset || e.document != whole_error.document ||
        (whole_error.ok() && out != whole_output)) {
      std::fprintf(stderr, "FINDING: %s from a source and whole: %s vs %s\n", what, describe(e).c_str(),
                   describe(whole_error).c_str());
      std::abort();
    }
  }
}

/**
 * `bytes` as a MessagePack stream under `max_value_length`: on 1 and 3 threads, blocks of 7
 * bytes, and from a source (from_a_source), the same outcome, else a finding. The one thread's
 * error, its text into `one`.
 */
msgpack_error as_a_stream(const std::vector<uint8_t> &bytes, uint64_t max_value_length, std::vector<uint8_t> &one) {
  msgpack_options o;
  o.stream = true;
  o.block_size = 7;
  o.max_value_length = max_value_length;
  std::vector<uint8_t> three;
  const msgpack_error a = msgpack_to_json(input::copy_of(bytes.data(), bytes.size()), o, one);
  o.threads = 3;
  const msgpack_error b = msgpack_to_json(input::copy_of(bytes.data(), bytes.size()), o, three);
  if (a.e.code != b.e.code || a.e.offset != b.e.offset || a.document != b.document || one != three) {
    std::fprintf(stderr, "FINDING: a stream (limit %llu) on 1 and 3 threads: %s vs %s\n",
                 (unsigned long long)max_value_length, describe(a).c_str(), describe(b).c_str());
    std::abort();
  }
  from_a_source(bytes, a, one, "a MessagePack stream",
                [](stream_source &source, const msgpack_options &steps, const msgpack_sink &write) {
                  return msgpack_to_json(source, steps, write);
                }, max_value_length);
  return a;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  parser p;
  // As MessagePack: one value, UTF-8 checked.
  std::vector<uint8_t> json;
  const std::vector<uint8_t> bytes(data, data + size); // exactly its bytes: nothing past them to read
  msgpack_options o;
  const msgpack_error alone = msgpack_to_json(input::copy_of(bytes.data(), bytes.size()), o, json);
  if (alone.ok()) { check_round_trip(p, json, false); }
  // As a stream, on 1 and 3 threads with small blocks, and read from a source in pieces, a few
  // bytes a step, on 1 and 2 threads: the same error, and where it converts, the same text. So
  // too under a value length limit.
  std::vector<uint8_t> one, limited_one;
  const msgpack_error a = as_a_stream(bytes, 0, one);
  if (a.ok()) { check_round_trip(p, one, true); }
  as_a_stream(bytes, 1 + size % 13, limited_one);
  // Through a parser kept from input to input, whose buffers hold what earlier inputs left in
  // them: the same outcomes, one value and a stream on 3 threads.
  static parser kept;
  const auto same_as = [&](const msgpack_error &want, const std::vector<uint8_t> &text, const msgpack_options &with,
                           const char *what) {
    std::vector<uint8_t> out;
    const msgpack_error got =
        msgpack_to_json(kept, input::copy_of(bytes.data(), bytes.size()), with, internal::into(out));
    if (got.e.code != want.e.code || got.e.offset != want.e.offset || got.document != want.document ||
        (want.ok() && out != text)) {
      std::fprintf(stderr, "FINDING: %s through a kept parser: %s vs %s\n", what, describe(got).c_str(),
                   describe(want).c_str());
      std::abort();
    }
  };
  same_as(alone, json, {}, "one value");
  msgpack_options stream;
  stream.stream = true;
  stream.block_size = 7;
  stream.threads = 3;
  same_as(a, one, stream, "a stream");
  // A first value that is broken gives the stream the error it gives read alone.
  if (!alone.ok() && alone.e.code != error_code::trailing_content && alone.e.code != error_code::empty_input &&
      (a.e.code != alone.e.code || a.e.offset != alone.e.offset || a.document != 1)) {
    std::fprintf(stderr, "FINDING: the first value alone and as a stream: %s vs %s\n", describe(alone).c_str(),
                 describe(a).c_str());
    std::abort();
  }
  // Options that let more through: never a crash.
  o = {};
  o.validate_utf8 = false;
  o.ext_as_null = true;
  (void)msgpack_to_json(input::copy_of(bytes.data(), bytes.size()), o, json);
  // As NDJSON read from a source in pieces, a few bytes a step, on 1 and 2 threads: the whole
  // stream's bytes and error, the documents before an error handed on.
  msgpack_options lines;
  lines.ndjson = true;
  std::vector<uint8_t> whole;
  const msgpack_error w = json_to_msgpack(p, input::copy_of(bytes.data(), bytes.size()), lines, whole);
  from_a_source(bytes, w, whole, "NDJSON to MessagePack", [&](stream_source &source, const msgpack_options &steps,
                                                             const msgpack_sink &write) {
    return json_to_msgpack(p, source, steps, write);
  });
  // As JSON: where it packs, the MessagePack unpacks, and that JSON is a fixed point (packed
  // and unpacked again, the same text; not the same MessagePack: a number past the double range
  // packs as an infinity, which unpacks as null).
  std::vector<uint8_t> packed, text, repacked, again;
  if (json_to_msgpack(p, input::copy_of(bytes.data(), bytes.size()), {}, packed).ok()) {
    fuzz::expect(msgpack_to_json(input::copy_of(packed.data(), packed.size()), {}, text).ok(), "packed JSON does not unpack");
    fuzz::expect(json_to_msgpack(p, input::copy_of(text.data(), text.size()), {}, repacked).ok(), "unpacked JSON does not pack");
    fuzz::expect(msgpack_to_json(input::copy_of(repacked.data(), repacked.size()), {}, again).ok() && again == text,
                 "JSON -> MessagePack -> JSON is not a fixed point");
    // The same bytes from the binding tape: a string length limit just under the input's makes
    // the conversion take that route, where the structural walk took most documents (those
    // in a container, whose strings that limit cannot reach).
    const auto first = std::find_if(bytes.begin(), bytes.end(), [](uint8_t c) { return c > ' '; });
    if (bytes.size() > 3 && first != bytes.end() && (*first == '{' || *first == '[')) {
      parser_options limited = p.options();
      limited.max_string_length = bytes.size() - 3;
      parser taping(limited);
      std::vector<uint8_t> taped;
      const bool same = json_to_msgpack(taping, input::copy_of(bytes.data(), bytes.size()), {}, taped).ok() &&
                        taped == packed;
      fuzz::expect(same, "the structural walk and the binding tape give other MessagePack");
    }
  }
  return 0;
}
