// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

/** What a column of a batch extraction holds (simdbridge_column_type). */
public enum ColumnType {
    /** A long per row. Integers only: a float, or an integer past the long range, is an error. */
    INT64(1, 8),
    /** A double per row. Integers are converted. */
    FLOAT64(2, 8),
    /** A byte per row: 1 for true, 0 for false. */
    BOOLEAN(3, 1),
    /** int offsets (rows + 1) into the column's UTF-8 bytes. */
    STRING(4, 4);

    final int nativeValue;
    final int valueSize;

    ColumnType(int nativeValue, int valueSize) {
        this.nativeValue = nativeValue;
        this.valueSize = valueSize;
    }
}
