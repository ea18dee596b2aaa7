// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_ERROR_H
#define SIMDBRIDGE_ERROR_H

#include <cstdint>

#include "simdbridge/simdbridge_c.h"

namespace simdbridge {

/**
 * Why an input was refused. The values are those of the C API (`simdbridge_error` in
 * simdbridge_c.h), so that an error crosses every boundary as a plain integer.
 *
 * Every error but `invalid_argument` and `out_of_memory` comes with the byte offset at which the
 * input stopped being a valid prefix of JSON text.
 */
enum class error_code : int32_t {
  /** No error. */
  success = SIMDBRIDGE_SUCCESS,
  /** The input holds no JSON value: it is empty or only white space. */
  empty_input = SIMDBRIDGE_EMPTY_INPUT,
  /** The input ends inside a value: it was truncated. */
  unexpected_end = SIMDBRIDGE_UNEXPECTED_END,
  /** A value (object, array, string, number, true, false or null) was expected here. */
  expected_value = SIMDBRIDGE_EXPECTED_VALUE,
  /** An object key, which must be a string, was expected here. */
  expected_key = SIMDBRIDGE_EXPECTED_KEY,
  /** A ':' was expected after an object key. */
  expected_colon = SIMDBRIDGE_EXPECTED_COLON,
  /** A ',' or ']' was expected after an array element. */
  expected_comma_or_bracket = SIMDBRIDGE_EXPECTED_COMMA_OR_BRACKET,
  /** A ',' or '}' was expected after an object member. */
  expected_comma_or_brace = SIMDBRIDGE_EXPECTED_COMMA_OR_BRACE,
  /** Something other than white space follows the document. */
  trailing_content = SIMDBRIDGE_TRAILING_CONTENT,
  /** A number that does not follow the JSON grammar (a leading zero, a missing digit, ...). */
  invalid_number = SIMDBRIDGE_INVALID_NUMBER,
  /** A word that is not true, false or null. */
  invalid_literal = SIMDBRIDGE_INVALID_LITERAL,
  /** A backslash escape that JSON does not define. */
  invalid_escape = SIMDBRIDGE_INVALID_ESCAPE,
  /** A \u escape that is not followed by four hexadecimal digits. */
  invalid_unicode_escape = SIMDBRIDGE_INVALID_UNICODE_ESCAPE,
  /** An unescaped control character (U+0000 to U+001F) inside a string. */
  control_character = SIMDBRIDGE_CONTROL_CHARACTER,
  /** Bytes that are not valid UTF-8 (RFC 3629) inside a string. */
  invalid_utf8 = SIMDBRIDGE_INVALID_UTF8,
  /** The input starts with a UTF-8 byte order mark, which JSON text must not carry. */
  byte_order_mark = SIMDBRIDGE_BYTE_ORDER_MARK,
  /** The input looks like UTF-16 or UTF-32; JSON exchanged between systems is UTF-8. */
  wrong_encoding = SIMDBRIDGE_WRONG_ENCODING,
  /** Arrays and objects nest deeper than the parser's depth limit. */
  depth_limit = SIMDBRIDGE_DEPTH_LIMIT,
  /** Memory could not be allocated. */
  out_of_memory = SIMDBRIDGE_OUT_OF_MEMORY,
  /** A null pointer, a length past the capacity, or another misuse of the API. */
  invalid_argument = SIMDBRIDGE_INVALID_ARGUMENT,
  /** A JSON Pointer (RFC 6901) that is not well formed. */
  invalid_pointer = SIMDBRIDGE_INVALID_POINTER,
  /** An output buffer is too small for what the call must write into it. */
  output_too_small = SIMDBRIDGE_OUTPUT_TOO_SMALL,
  /** A value is not of its column's type (a string in an int64 column, ...). */
  type_mismatch = SIMDBRIDGE_TYPE_MISMATCH,
  /**
   * Valid JSON that field extraction cannot read yet: a number past 64 bits or past the double
   * range, or a lone surrogate escape, anywhere in the record (the checksum reads them).
   */
  unsupported_value = SIMDBRIDGE_UNSUPPORTED_VALUE,
  /** A number past 64 bits or the double range, longer than the parser's max_number_length. */
  number_too_long = SIMDBRIDGE_NUMBER_TOO_LONG,
  /** The input is longer than the parser's max_document_length (the offset is that limit). */
  document_too_long = SIMDBRIDGE_DOCUMENT_TOO_LONG,
  /** A stream read as the elements of one array (format "array") does not hold an array. */
  expected_array = SIMDBRIDGE_EXPECTED_ARRAY,
  /** A string (or key), unescaped, longer than the parser's max_string_length. */
  string_too_long = SIMDBRIDGE_STRING_TOO_LONG,
  /** The destination of written output refused it (a full disk, a closed file). */
  write_failed = SIMDBRIDGE_WRITE_FAILED,
  /** The input could not be read (a file's read failed). */
  read_failed = SIMDBRIDGE_READ_FAILED,
  /** MessagePack that ends inside a value, or a length past the end of the input. */
  msgpack_truncated = SIMDBRIDGE_MSGPACK_TRUNCATED,
  /** A byte that starts no MessagePack value (0xc1, which the format reserves). */
  msgpack_invalid = SIMDBRIDGE_MSGPACK_INVALID,
  /** A MessagePack value with no JSON form under the options (an ext type, bin, a container as a map key). */
  msgpack_unsupported = SIMDBRIDGE_MSGPACK_UNSUPPORTED,
};

/** A one-line English description of `code`, for error messages. Never null. */
const char *error_message(error_code code) noexcept;

/** The enumerator's name ("unexpected_end"), for logs and tests. Never null. */
const char *error_name(error_code code) noexcept;

/**
 * An error and where it was found.
 *
 * Example:
 *
 *     simdbridge::error e = parser.validate(simdbridge::input::copy_of("[1,]"));
 *     if (!e.ok()) { std::printf("%s at byte %llu\n", e.message(), (unsigned long long)e.offset); }
 */
struct error {
  error_code code = error_code::success;
  /** The byte offset in the input at which the input stopped being valid JSON. */
  uint64_t offset = 0;

  constexpr bool ok() const noexcept { return code == error_code::success; }
  const char *message() const noexcept { return error_message(code); }
};

} // namespace simdbridge

#endif // SIMDBRIDGE_ERROR_H
