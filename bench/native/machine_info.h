// SPDX-License-Identifier: Apache-2.0
// What a benchmark result must say about where it was measured.
#ifndef SIMDBRIDGE_BENCH_MACHINE_INFO_H
#define SIMDBRIDGE_BENCH_MACHINE_INFO_H

#include <string>

namespace simdbridge::bench {

/** A JSON object: CPU model, cores, kernel, compiler, simdjson version and kernel chosen. */
std::string machine_info_json();

/** `text` as a JSON string literal, quotes included. */
std::string json_quote(const std::string &text);

} // namespace simdbridge::bench

#endif // SIMDBRIDGE_BENCH_MACHINE_INFO_H
