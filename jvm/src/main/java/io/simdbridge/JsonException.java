// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

/**
 * Invalid JSON, or a batch the extractor could not read: the error, and the byte offset in the
 * input at which it was found.
 *
 * <pre>{@code
 * try {
 *     parser.checksum(bytes);
 * } catch (JsonException e) {
 *     System.err.println(e.getMessage());   // "expected a value at byte 5"
 *     int where = (int) e.offset();
 * }
 * }</pre>
 */
public final class JsonException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final long offset;
    private final int column;

    JsonException(ErrorCode code, long offset, int column, String detail) {
        super(code.message() + " at byte " + offset + (detail == null ? "" : " (" + detail + ")"));
        this.code = code;
        this.offset = offset;
        this.column = column;
    }

    /** The only place a native error code becomes a Java exception. */
    static JsonException of(int nativeCode, long offset) {
        return new JsonException(ErrorCode.of(nativeCode), offset, -1, null);
    }

    public ErrorCode code() {
        return code;
    }

    /** The byte offset in the input (for a type mismatch, the start of the record). */
    public long offset() {
        return offset;
    }

    /** For a batch extraction: the column at fault, or -1. */
    public int column() {
        return column;
    }
}
