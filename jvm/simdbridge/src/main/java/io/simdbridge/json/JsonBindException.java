// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

/**
 * A document that could not be bound: malformed JSON, a value of the wrong type, a missing
 * required property, an unknown property or a duplicate key where the mapper refuses them. The
 * message names the JSON path and the byte offset:
 *
 * <pre>{@code
 * $.users[3].age: expected an int, found a string (byte 1234)
 * $.users[0]: missing required property 'email' (byte 17)
 * $.users[2].name: expected a value (byte 96)          // malformed JSON
 * }</pre>
 */
public final class JsonBindException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String path;
    private final long offset;
    private final String reason;

    JsonBindException(String path, long offset, String reason, Throwable cause) {
        super(path + ": " + reason + " (byte " + offset + ")", cause);
        this.path = path;
        this.offset = offset;
        this.reason = reason;
    }

    /** The JSON path of the value at fault, {@code $} for the document. */
    public String path() {
        return path;
    }

    /** The byte offset in the input (-1 where there is no input: writing). */
    public long offset() {
        return offset;
    }

    /** What went wrong, without the path and offset. */
    public String reason() {
        return reason;
    }
}
