// SPDX-License-Identifier: Apache-2.0
// JSON Pointer (RFC 6901), parsed once for every front end: batch extraction, Arrow, and the
// Python package's fields= and at_pointer().
#ifndef SIMDBRIDGE_JSON_POINTER_H
#define SIMDBRIDGE_JSON_POINTER_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simdbridge {

/**
 * The reference tokens of a JSON Pointer, ~1 and ~0 undone: "" is the whole document (no
 * token), "/a~1b/0" is {"a/b", "0"}. False where `pointer` is not a JSON Pointer (it does not
 * start with '/', or a '~' is not followed by '0' or '1'); `tokens` is then unspecified.
 */
bool parse_json_pointer(std::string_view pointer, std::vector<std::string> &tokens);

/** A reference token as an array index ("0", or digits without a leading zero, up to 18 of them), or -1. */
int64_t json_pointer_index(std::string_view token) noexcept;

} // namespace simdbridge

#endif // SIMDBRIDGE_JSON_POINTER_H
