// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import java.util.Objects;

/**
 * A column to extract: a JSON Pointer (RFC 6901) into each record, and the type of its values.
 * A record where the pointer leads nowhere, or to null, leaves the row invalid.
 *
 * <pre>{@code
 * ColumnSpec year = ColumnSpec.int64("/year");
 * ColumnSpec login = ColumnSpec.string("/actor/login");
 * }</pre>
 */
public record ColumnSpec(String pointer, ColumnType type) {
    public ColumnSpec {
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(type, "type");
    }

    public static ColumnSpec int64(String pointer) {
        return new ColumnSpec(pointer, ColumnType.INT64);
    }

    public static ColumnSpec float64(String pointer) {
        return new ColumnSpec(pointer, ColumnType.FLOAT64);
    }

    public static ColumnSpec bool(String pointer) {
        return new ColumnSpec(pointer, ColumnType.BOOLEAN);
    }

    public static ColumnSpec string(String pointer) {
        return new ColumnSpec(pointer, ColumnType.STRING);
    }
}
