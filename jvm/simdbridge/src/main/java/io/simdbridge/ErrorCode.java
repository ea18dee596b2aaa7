// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

/**
 * Why the native core refused an input: the codes of {@code simdbridge_error} in
 * simdbridge_c.h, in the same order. {@link JsonException#code()} gives one.
 */
public enum ErrorCode {
    SUCCESS,
    EMPTY_INPUT,
    UNEXPECTED_END,
    EXPECTED_VALUE,
    EXPECTED_KEY,
    EXPECTED_COLON,
    EXPECTED_COMMA_OR_BRACKET,
    EXPECTED_COMMA_OR_BRACE,
    TRAILING_CONTENT,
    INVALID_NUMBER,
    INVALID_LITERAL,
    INVALID_ESCAPE,
    INVALID_UNICODE_ESCAPE,
    CONTROL_CHARACTER,
    INVALID_UTF8,
    BYTE_ORDER_MARK,
    WRONG_ENCODING,
    DEPTH_LIMIT,
    OUT_OF_MEMORY,
    INVALID_ARGUMENT,
    INVALID_POINTER,
    OUTPUT_TOO_SMALL,
    TYPE_MISMATCH,
    UNSUPPORTED_VALUE,
    NUMBER_TOO_LONG,
    DOCUMENT_TOO_LONG,
    EXPECTED_ARRAY,
    STRING_TOO_LONG,
    WRITE_FAILED,
    READ_FAILED,
    MSGPACK_TRUNCATED,
    MSGPACK_INVALID,
    MSGPACK_UNSUPPORTED;

    private static final ErrorCode[] VALUES = values();

    /** The code with this native value, or INVALID_ARGUMENT for a value this enum does not know. */
    static ErrorCode of(int nativeCode) {
        return nativeCode >= 0 && nativeCode < VALUES.length ? VALUES[nativeCode] : INVALID_ARGUMENT;
    }

    /** The native core's one-line description. */
    public String message() {
        return JniBridge.errorMessage0(ordinal());
    }
}
