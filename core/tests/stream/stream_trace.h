// SPDX-License-Identifier: Apache-2.0
// A stream's documents as text, for comparing two ways of reading it.
#ifndef SIMDBRIDGE_TESTS_STREAM_TRACE_H
#define SIMDBRIDGE_TESTS_STREAM_TRACE_H

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simdbridge/document.h"
#include "test_support.h"

namespace simdbridge::test {

/** Each document as "begin-end:rendering" (or its bytes where not on a tape), then how it ended. */
template <typename Reader> std::vector<std::string> trace(Reader &reader, bool keep, const std::string &text) {
  std::vector<std::string> out;
  std::vector<document> kept;
  for (;;) {
    document d;
    const result<bool> r = keep ? reader.next(d) : reader.next();
    if (!r.ok()) {
      out.push_back(std::string("error ") + error_name(r.error().code) + " at " + std::to_string(r.error().offset) +
                    " after " + std::to_string(reader.count()));
      break;
    }
    if (!r.value()) {
      out.push_back("end");
      break;
    }
    const tape_view t = reader.tape();
    const std::string where = std::to_string(reader.begin()) + "-" + std::to_string(reader.end()) + ":";
    out.push_back(where + (t.words ? render(t, reader.value_index())
                                   : "bytes:" + text.substr(reader.begin(), reader.end() - reader.begin())));
    if (keep) { kept.push_back(std::move(d)); }
  }
  if (keep) { // the kept tapes are still the documents they were
    for (size_t i = 0; i < kept.size(); i++) {
      const tape_view t = kept[i].tape();
      if (out[i].find(":bytes:") == std::string::npos) { EXPECT_EQ(out[i].substr(out[i].find(':') + 1), render(t, tape_view::first)); }
    }
  }
  return out;
}

} // namespace simdbridge::test

#endif // SIMDBRIDGE_TESTS_STREAM_TRACE_H
