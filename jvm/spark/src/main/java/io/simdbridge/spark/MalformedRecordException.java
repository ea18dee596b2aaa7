// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

/** A malformed record read in FAILFAST mode: its message names the file, line and byte offset. */
public final class MalformedRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
