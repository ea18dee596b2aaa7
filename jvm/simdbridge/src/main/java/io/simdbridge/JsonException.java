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
    private final long record;
    private final String path;

    JsonException(ErrorCode code, long offset, int column, String detail) {
        super(code.message() + " at byte " + offset + (detail == null ? "" : " (" + detail + ")"));
        this.code = code;
        this.offset = offset;
        this.column = column;
        this.record = 0;
        this.path = "";
    }

    /** An error of a record of NDJSON read into Arrow, with the message the core wrote. */
    JsonException(ErrorCode code, long offset, long record, String path, String message) {
        super(message);
        this.code = code;
        this.offset = offset;
        this.column = -1;
        this.record = record;
        this.path = path;
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

    /** For NDJSON read into Arrow: the record at fault, counting from 1, or 0. */
    public long record() {
        return record;
    }

    /** For NDJSON read into Arrow: the field's path in the record (RFC 6901), or "". */
    public String path() {
        return path;
    }
}
