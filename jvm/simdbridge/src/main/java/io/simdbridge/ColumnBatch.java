// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * The columns of a batch extraction, in the caller's direct buffers, which the native code
 * writes into: per column, the values (a long, double or byte per row, or rows + 1 int offsets
 * for strings), a validity bitmap (bit {@code row % 8} of byte {@code row / 8}: Arrow's
 * layout), and for strings their UTF-8 bytes. Reuse one batch for every call.
 *
 * <pre>{@code
 * ColumnBatch columns = ColumnBatch.allocate(List.of(ColumnSpec.int64("/year"),
 *         ColumnSpec.string("/make")), 4096, 1 << 20);
 * parser.extract(ndjson, columns, Bridge.JNI_DIRECT);     // one crossing for the batch
 * for (int row = 0; row < columns.rows(); row++) {
 *     long year = columns.isValid(0, row) ? columns.getLong(0, row) : -1;
 *     String make = columns.getString(1, row);
 * }
 * }</pre>
 */
public final class ColumnBatch {
    /** simdbridge_column: 64 bytes. */
    static final StructLayout DESCRIPTOR = MemoryLayout.structLayout(
            ADDRESS.withName("pointer"), JAVA_LONG.withName("pointer_length"),
            JAVA_INT.withName("type"), JAVA_INT.withName("reserved"),
            ADDRESS.withName("values"), ADDRESS.withName("validity"),
            ADDRESS.withName("string_bytes"), JAVA_LONG.withName("string_capacity"),
            JAVA_LONG.withName("string_size"));
    private static final long STRING_SIZE = DESCRIPTOR.byteOffset(MemoryLayout.PathElement.groupElement("string_size"));

    private final List<ColumnSpec> specs;
    private final int maxRows;
    private final ByteBuffer[] values;
    private final ByteBuffer[] validity;
    private final ByteBuffer[] strings;
    private final MemorySegment descriptors;
    private byte[] scratch = new byte[256];
    private int rows;

    /**
     * Columns over the caller's direct buffers, checked here: each must be direct, writable, and
     * large enough for {@code maxRows} rows (strings: {@code (maxRows + 1) * 4} bytes of offsets).
     * {@code strings[c]} is null for a column that is not a string.
     */
    public ColumnBatch(List<ColumnSpec> specs, int maxRows, ByteBuffer[] values, ByteBuffer[] validity,
                       ByteBuffer[] strings) {
        this.specs = List.copyOf(specs);
        int n = this.specs.size();
        if (maxRows < 0 || maxRows > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("maxRows " + maxRows + " out of range");
        }
        if (values.length != n || validity.length != n || strings.length != n) {
            throw new IllegalArgumentException("one values, validity and strings buffer per column: " + n + " columns");
        }
        this.maxRows = maxRows;
        this.values = values.clone();
        this.validity = validity.clone();
        this.strings = strings.clone();
        Arena arena = Arena.ofAuto();
        descriptors = arena.allocate(DESCRIPTOR, Math.max(n, 1));
        for (int c = 0; c < n; c++) {
            ColumnSpec spec = this.specs.get(c);
            long valueBytes = (long) (spec.type() == ColumnType.STRING ? maxRows + 1 : maxRows) * spec.type().valueSize;
            check(this.values[c], valueBytes, "values", c);
            check(this.validity[c], (maxRows + 7L) / 8, "validity", c);
            this.values[c].order(ByteOrder.nativeOrder());
            MemorySegment stringBytes = MemorySegment.NULL;
            long stringCapacity = 0;
            if (spec.type() == ColumnType.STRING) {
                check(this.strings[c], 0, "strings", c);
                stringBytes = MemorySegment.ofBuffer(this.strings[c].clear());
                stringCapacity = this.strings[c].capacity();
            } else if (this.strings[c] != null) {
                throw new IllegalArgumentException("column " + c + " is " + spec.type() + ": it takes no string buffer");
            }
            byte[] pointer = spec.pointer().getBytes(StandardCharsets.UTF_8);
            MemorySegment pointerBytes = arena.allocate(Math.max(pointer.length, 1));
            MemorySegment.copy(pointer, 0, pointerBytes, JAVA_BYTE_LAYOUT, 0, pointer.length);
            MemorySegment d = descriptors.asSlice(c * DESCRIPTOR.byteSize(), DESCRIPTOR);
            d.set(ADDRESS, 0, pointerBytes);
            d.set(JAVA_LONG, 8, pointer.length);
            d.set(JAVA_INT, 16, spec.type().nativeValue);
            d.set(JAVA_INT, 20, 0);
            d.set(ADDRESS, 24, MemorySegment.ofBuffer(this.values[c].clear()));
            d.set(ADDRESS, 32, MemorySegment.ofBuffer(this.validity[c].clear()));
            d.set(ADDRESS, 40, stringBytes);
            d.set(JAVA_LONG, 48, stringCapacity);
            d.set(JAVA_LONG, 56, 0);
        }
    }

    private static final java.lang.foreign.ValueLayout.OfByte JAVA_BYTE_LAYOUT = java.lang.foreign.ValueLayout.JAVA_BYTE;

    /** Allocates every buffer: {@code stringBytes} bytes for each string column. */
    public static ColumnBatch allocate(List<ColumnSpec> specs, int maxRows, int stringBytes) {
        int n = specs.size();
        ByteBuffer[] values = new ByteBuffer[n];
        ByteBuffer[] validity = new ByteBuffer[n];
        ByteBuffer[] strings = new ByteBuffer[n];
        for (int c = 0; c < n; c++) {
            ColumnType type = specs.get(c).type();
            values[c] = ByteBuffer.allocateDirect((type == ColumnType.STRING ? maxRows + 1 : maxRows) * type.valueSize);
            validity[c] = ByteBuffer.allocateDirect((maxRows + 7) / 8);
            strings[c] = type == ColumnType.STRING ? ByteBuffer.allocateDirect(stringBytes) : null;
        }
        return new ColumnBatch(specs, maxRows, values, validity, strings);
    }

    private static void check(ByteBuffer buffer, long needed, String what, int column) {
        if (buffer == null) {
            throw new IllegalArgumentException("column " + column + ": no " + what + " buffer");
        }
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("column " + column + ": the " + what + " buffer must be direct");
        }
        if (buffer.isReadOnly()) {
            throw new IllegalArgumentException("column " + column + ": the " + what + " buffer is read-only");
        }
        MemorySegment memory = DirectMemory.live(buffer);
        if (!DirectMemory.safeByAddress(memory)) {
            throw new IllegalArgumentException("column " + column + ": the " + what + " buffer is a shared Arena's, "
                    + "which another thread may close while native code writes it: use ByteBuffer.allocateDirect, "
                    + "Arena.global(), Arena.ofAuto() or a confined Arena of the extracting thread");
        }
        if (buffer.capacity() < needed) {
            throw new IllegalArgumentException("column " + column + ": the " + what + " buffer holds "
                    + buffer.capacity() + " bytes, " + needed + " are needed");
        }
    }

    public List<ColumnSpec> specs() {
        return specs;
    }

    public int columnCount() {
        return specs.size();
    }

    public int maxRows() {
        return maxRows;
    }

    /** Rows written by the last extraction. */
    public int rows() {
        return rows;
    }

    /** The values buffer of a column (native byte order), for reading it in bulk. */
    public ByteBuffer values(int column) {
        return values[column].duplicate().order(ByteOrder.nativeOrder());
    }

    public ByteBuffer validity(int column) {
        return validity[column].duplicate();
    }

    /** The UTF-8 bytes of a string column. */
    public ByteBuffer stringBytes(int column) {
        return strings[column].duplicate();
    }

    /** True where the record had a non-null value at the column's pointer. */
    public boolean isValid(int column, int row) {
        checkRow(row);
        return (validity[column].get(row >>> 3) >> (row & 7) & 1) != 0;
    }

    public long getLong(int column, int row) {
        checkType(column, ColumnType.INT64);
        checkRow(row);
        return values[column].getLong(row * 8);
    }

    public double getDouble(int column, int row) {
        checkType(column, ColumnType.FLOAT64);
        checkRow(row);
        return values[column].getDouble(row * 8);
    }

    public boolean getBoolean(int column, int row) {
        checkType(column, ColumnType.BOOLEAN);
        checkRow(row);
        return values[column].get(row) != 0;
    }

    /** The string at (column, row), or null where it is not valid. */
    public String getString(int column, int row) {
        checkType(column, ColumnType.STRING);
        if (!isValid(column, row)) {
            return null;
        }
        ByteBuffer offsets = values[column];
        int begin = offsets.getInt(row * 4);
        int length = offsets.getInt(row * 4 + 4) - begin;
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        strings[column].get(begin, scratch, 0, length);
        return new String(scratch, 0, length, StandardCharsets.UTF_8);
    }

    MemorySegment descriptors() {
        return descriptors;
    }

    /** Before native code writes the buffers: each still alive and this thread's to use. */
    void checkLive() {
        for (int c = 0; c < values.length; c++) {
            DirectMemory.live(values[c]);
            DirectMemory.live(validity[c]);
            if (strings[c] != null) {
                DirectMemory.live(strings[c]);
            }
        }
    }

    void setRows(int rows) {
        this.rows = rows;
    }

    JsonException error(int nativeCode, long offset, int column) {
        if (column >= 0 && column < specs.size()) {
            ColumnSpec spec = specs.get(column);
            return new JsonException(ErrorCode.of(nativeCode), offset, column,
                    "column " + column + " \"" + spec.pointer() + "\", " + spec.type());
        }
        return JsonException.of(nativeCode, offset);
    }

    private void checkType(int column, ColumnType type) {
        Objects.checkIndex(column, specs.size());
        if (specs.get(column).type() != type) {
            throw new IllegalArgumentException("column " + column + " is " + specs.get(column).type() + ", not " + type);
        }
    }

    private void checkRow(int row) {
        Objects.checkIndex(row, rows);
    }

    /** String bytes written by the last extraction, per column (0 for other types). */
    public long stringSize(int column) {
        return descriptors.get(JAVA_LONG, column * DESCRIPTOR.byteSize() + STRING_SIZE);
    }
}
