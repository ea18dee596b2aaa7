// SPDX-License-Identifier: Apache-2.0
#include "simdbridge/error.h"

namespace simdbridge {

const char *error_message(error_code code) noexcept {
  switch (code) {
  case error_code::success: return "no error";
  case error_code::empty_input: return "no JSON value: the input is empty or only white space";
  case error_code::unexpected_end: return "unexpected end of input: the JSON text is truncated";
  case error_code::expected_value: return "expected a value";
  case error_code::expected_key: return "expected an object key (a string)";
  case error_code::expected_colon: return "expected ':' after an object key";
  case error_code::expected_comma_or_bracket: return "expected ',' or ']' after an array element";
  case error_code::expected_comma_or_brace: return "expected ',' or '}' after an object member";
  case error_code::trailing_content: return "unexpected content after the JSON value";
  case error_code::invalid_number: return "invalid number";
  case error_code::invalid_literal: return "invalid literal: expected true, false or null";
  case error_code::invalid_escape: return "invalid escape sequence in a string";
  case error_code::invalid_unicode_escape: return "invalid \\u escape: expected four hex digits";
  case error_code::control_character: return "unescaped control character in a string";
  case error_code::invalid_utf8: return "invalid UTF-8";
  case error_code::byte_order_mark: return "a byte order mark (U+FEFF) is not allowed before JSON text";
  case error_code::wrong_encoding: return "the input looks like UTF-16 or UTF-32, not UTF-8";
  case error_code::depth_limit: return "arrays and objects nest deeper than the depth limit";
  case error_code::out_of_memory: return "out of memory";
  case error_code::invalid_argument: return "invalid argument";
  case error_code::invalid_pointer: return "invalid JSON Pointer";
  case error_code::output_too_small: return "output buffer too small";
  case error_code::type_mismatch: return "a value is not of its column's type";
  case error_code::unsupported_value:
    return "a number past 64 bits or the double range, or a lone surrogate, which extraction cannot read";
  case error_code::number_too_long:
    return "a number past 64 bits or the double range is longer than the limit (max_number_length)";
  case error_code::document_too_long: return "the input is longer than the limit (max_document_length)";
  case error_code::expected_array: return "expected an array: the stream's format is 'array'";
  case error_code::string_too_long: return "a string is longer than the limit (max_string_length)";
  case error_code::write_failed: return "the output could not be written";
  case error_code::read_failed: return "the input could not be read";
  case error_code::msgpack_truncated: return "the MessagePack ends inside a value";
  case error_code::msgpack_invalid: return "a byte that starts no MessagePack value";
  case error_code::msgpack_unsupported: return "a MessagePack value that has no JSON form here";
  }
  return "unknown error";
}

const char *error_name(error_code code) noexcept {
  switch (code) {
  case error_code::success: return "success";
  case error_code::empty_input: return "empty_input";
  case error_code::unexpected_end: return "unexpected_end";
  case error_code::expected_value: return "expected_value";
  case error_code::expected_key: return "expected_key";
  case error_code::expected_colon: return "expected_colon";
  case error_code::expected_comma_or_bracket: return "expected_comma_or_bracket";
  case error_code::expected_comma_or_brace: return "expected_comma_or_brace";
  case error_code::trailing_content: return "trailing_content";
  case error_code::invalid_number: return "invalid_number";
  case error_code::invalid_literal: return "invalid_literal";
  case error_code::invalid_escape: return "invalid_escape";
  case error_code::invalid_unicode_escape: return "invalid_unicode_escape";
  case error_code::control_character: return "control_character";
  case error_code::invalid_utf8: return "invalid_utf8";
  case error_code::byte_order_mark: return "byte_order_mark";
  case error_code::wrong_encoding: return "wrong_encoding";
  case error_code::depth_limit: return "depth_limit";
  case error_code::out_of_memory: return "out_of_memory";
  case error_code::invalid_argument: return "invalid_argument";
  case error_code::invalid_pointer: return "invalid_pointer";
  case error_code::output_too_small: return "output_too_small";
  case error_code::type_mismatch: return "type_mismatch";
  case error_code::unsupported_value: return "unsupported_value";
  case error_code::number_too_long: return "number_too_long";
  case error_code::document_too_long: return "document_too_long";
  case error_code::expected_array: return "expected_array";
  case error_code::string_too_long: return "string_too_long";
  case error_code::write_failed: return "write_failed";
  case error_code::read_failed: return "read_failed";
  case error_code::msgpack_truncated: return "msgpack_truncated";
  case error_code::msgpack_invalid: return "msgpack_invalid";
  case error_code::msgpack_unsupported: return "msgpack_unsupported";
  }
  return "unknown";
}

} // namespace simdbridge
