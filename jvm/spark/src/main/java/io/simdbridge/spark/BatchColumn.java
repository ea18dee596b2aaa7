// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.math.BigInteger;

import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A column of a batch as Spark reads it, over the buffers of an Arrow array of the C Data
 * Interface as the core wrote them: no copy, and no Arrow Java vector made (Spark's
 * ArrowColumnVector needs the batch imported into Java vectors, a cost per batch that grows with
 * the schema's fields, and checks a buffer's reference count and bounds on every value). Each
 * buffer is a MemorySegment of the size its array's length implies, taken once per batch, so a
 * value is one bounds-checked load. The batch's top array owns the memory: its release (the
 * reader's, when it moves on or closes) frees every column's buffers; a column's close() does
 * nothing.
 */
abstract sealed class BatchColumn extends ColumnVector {
    // struct ArrowArray (the C Data Interface): its fields' offsets
    private static final long LENGTH = 0;
    private static final long NULL_COUNT = 8;
    private static final long OFFSET = 16;
    private static final long N_BUFFERS = 24;
    private static final long N_CHILDREN = 32;
    private static final long BUFFERS = 40;
    private static final long CHILDREN = 48;
    static final long ARRAY_SIZE = 80;

    final int length;
    private final int nulls;
    private final MemorySegment validity; // NULL where no value is null
    private final MemorySegment buffers;  // the array's buffer pointers
    private final MemorySegment children; // its children's struct pointers

    private BatchColumn(DataType type, MemorySegment array) {
        super(type);
        this.length = Math.toIntExact(array.get(JAVA_LONG, LENGTH));
        this.nulls = Math.toIntExact(array.get(JAVA_LONG, NULL_COUNT));
        if (array.get(JAVA_LONG, OFFSET) != 0 || nulls < 0) { // (what the core writes: no offset, a null count)
            throw new IllegalStateException("simdbridge: an Arrow array with an offset or no null count");
        }
        long buffersCount = array.get(JAVA_LONG, N_BUFFERS);
        this.buffers = pointer(array, BUFFERS, 8 * buffersCount);
        this.children = pointer(array, CHILDREN, 8 * array.get(JAVA_LONG, N_CHILDREN));
        this.validity = nulls == 0 || buffersCount == 0 ? MemorySegment.NULL : buffer(0, (length + 7L) / 8);
    }

    /** The columns of a record batch, the C struct array at batch (ARRAY_SIZE bytes). */
    static ColumnVector[] columns(StructType schema, MemorySegment batch) {
        return new Struct(schema, batch).fields;
    }

    /** The column over the C array at array (ARRAY_SIZE bytes), read as Spark's type. */
    static ColumnVector of(DataType type, MemorySegment array) {
        if (type instanceof StringType) {
            return new Strings(type, array);
        } else if (type instanceof StructType struct) {
            return new Struct(struct, array);
        } else if (type instanceof MapType map) {
            return new Map(map, array);
        } else if (type instanceof ArrayType list) {
            return new Array(list, array);
        } else if (type instanceof DecimalType) {
            return new Decimals(type, array);
        } else if (type instanceof NullType) {
            return new Nulls(type, array);
        } else if (type instanceof BooleanType || type instanceof ByteType || type instanceof ShortType
                || type instanceof IntegerType || type instanceof LongType || type instanceof FloatType
                || type instanceof DoubleType || type instanceof DateType || type instanceof TimestampType
                || type instanceof TimestampNTZType) {
            return new Fixed(type, array);
        }
        throw new IllegalArgumentException("simdbridge: no column of type " + type.simpleString());
    }

    /** The bytes at the pointer at array + at (NULL where it is null). */
    private static MemorySegment pointer(MemorySegment array, long at, long size) {
        MemorySegment p = array.get(ADDRESS, at);
        return p.equals(MemorySegment.NULL) ? p : p.reinterpret(size);
    }

    /** Buffer i, of size bytes. */
    final MemorySegment buffer(int i, long size) {
        return pointer(buffers, 8L * i, size);
    }

    /** Child i's array struct. */
    final MemorySegment child(int i) {
        return pointer(children, 8L * i, ARRAY_SIZE);
    }

    /** Bit i of bits (Arrow's order: the lowest bit of the first byte first). */
    static boolean bit(MemorySegment bits, int i) {
        return (bits.get(JAVA_BYTE, i >>> 3) & (1 << (i & 7))) != 0;
    }

    @Override
    public final void close() {}

    @Override
    public final boolean hasNull() {
        return nulls > 0;
    }

    @Override
    public final int numNulls() {
        return nulls;
    }

    @Override
    public boolean isNullAt(int rowId) {
        return !validity.equals(MemorySegment.NULL) && !bit(validity, rowId);
    }

    private static UnsupportedOperationException unsupported(DataType type, String what) {
        return new UnsupportedOperationException("simdbridge: a " + type.simpleString() + " column has no " + what);
    }

    @Override
    public boolean getBoolean(int rowId) {
        throw unsupported(type, "boolean");
    }

    @Override
    public byte getByte(int rowId) {
        throw unsupported(type, "byte");
    }

    @Override
    public short getShort(int rowId) {
        throw unsupported(type, "short");
    }

    @Override
    public int getInt(int rowId) {
        throw unsupported(type, "int");
    }

    @Override
    public long getLong(int rowId) {
        throw unsupported(type, "long");
    }

    @Override
    public float getFloat(int rowId) {
        throw unsupported(type, "float");
    }

    @Override
    public double getDouble(int rowId) {
        throw unsupported(type, "double");
    }

    @Override
    public ColumnarArray getArray(int rowId) {
        throw unsupported(type, "array");
    }

    @Override
    public ColumnarMap getMap(int rowId) {
        throw unsupported(type, "map");
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        throw unsupported(type, "decimal");
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
        throw unsupported(type, "string");
    }

    @Override
    public byte[] getBinary(int rowId) {
        throw unsupported(type, "binary");
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        throw unsupported(type, "child");
    }

    /** Booleans (bits), integers, floating point, dates and timestamps: values of one width. */
    static final class Fixed extends BatchColumn {
        private final MemorySegment data;

        Fixed(DataType type, MemorySegment array) {
            super(type, array);
            this.data = buffer(1, type instanceof BooleanType ? (length + 7L) / 8 : (long) length * type.defaultSize());
        }

        @Override
        public boolean getBoolean(int rowId) {
            return bit(data, rowId);
        }

        @Override
        public byte getByte(int rowId) {
            return data.get(JAVA_BYTE, rowId);
        }

        @Override
        public short getShort(int rowId) {
            return data.get(JAVA_SHORT_UNALIGNED, 2L * rowId);
        }

        @Override
        public int getInt(int rowId) {
            return data.get(JAVA_INT_UNALIGNED, 4L * rowId);
        }

        @Override
        public long getLong(int rowId) {
            return data.get(JAVA_LONG_UNALIGNED, 8L * rowId);
        }

        @Override
        public float getFloat(int rowId) {
            return data.get(JAVA_FLOAT_UNALIGNED, 4L * rowId);
        }

        @Override
        public double getDouble(int rowId) {
            return data.get(JAVA_DOUBLE_UNALIGNED, 8L * rowId);
        }
    }

    /** Decimals of 128 bits, little-endian two's complement, unscaled. */
    static final class Decimals extends BatchColumn {
        private final MemorySegment data;

        Decimals(DataType type, MemorySegment array) {
            super(type, array);
            this.data = buffer(1, 16L * length);
        }

        @Override
        public Decimal getDecimal(int rowId, int precision, int scale) {
            if (isNullAt(rowId)) {
                return null;
            }
            long at = 16L * rowId;
            long low = data.get(JAVA_LONG_UNALIGNED, at);
            if (precision <= Decimal.MAX_LONG_DIGITS()) { // (then the value fits the low word)
                return Decimal.createUnsafe(low, precision, scale);
            }
            long high = data.get(JAVA_LONG_UNALIGNED, at + 8);
            byte[] bigEndian = new byte[16];
            for (int k = 0; k < 8; k++) {
                bigEndian[k] = (byte) (high >>> (56 - 8 * k));
                bigEndian[8 + k] = (byte) (low >>> (56 - 8 * k));
            }
            return Decimal.apply(new BigDecimal(new BigInteger(bigEndian), scale), precision, scale);
        }
    }

    /** A column of Spark's null type: every value null. */
    static final class Nulls extends BatchColumn {
        Nulls(DataType type, MemorySegment array) {
            super(type, array);
        }

        @Override
        public boolean isNullAt(int rowId) {
            return true;
        }
    }

    /** Strings, lists and maps: each row a range of values, from 32-bit offsets (buffer 1). */
    abstract static sealed class Ranges extends BatchColumn {
        private final MemorySegment offsets; // length + 1 of them

        Ranges(DataType type, MemorySegment array) {
            super(type, array);
            this.offsets = buffer(1, 4 * (length + 1L));
        }

        /** Where row's range starts. */
        final int start(int rowId) {
            return offsets.get(JAVA_INT_UNALIGNED, 4L * rowId);
        }

        /** How many values row's range holds. */
        final int count(int rowId) {
            return offsets.get(JAVA_INT_UNALIGNED, 4L * rowId + 4) - start(rowId);
        }
    }

    /** UTF-8 strings: each a view of its range of bytes. */
    static final class Strings extends Ranges {
        private final long bytes; // the address of the strings' bytes

        Strings(DataType type, MemorySegment array) {
            super(type, array);
            this.bytes = buffer(2, 0).address();
        }

        @Override
        public UTF8String getUTF8String(int rowId) {
            return isNullAt(rowId) ? null : UTF8String.fromAddress(null, bytes + start(rowId), count(rowId));
        }
    }

    /** A struct: its fields are its children, read at the struct's row. */
    static final class Struct extends BatchColumn {
        private final ColumnVector[] fields;

        Struct(StructType type, MemorySegment array) {
            super(type, array);
            fields = new ColumnVector[type.fields().length];
            if (array.get(JAVA_LONG, N_CHILDREN) != fields.length) {
                throw new IllegalStateException("simdbridge: a struct of " + fields.length + " fields came with "
                        + array.get(JAVA_LONG, N_CHILDREN) + " children");
            }
            for (int i = 0; i < fields.length; i++) {
                fields[i] = of(type.fields()[i].dataType(), child(i));
            }
        }

        @Override
        public ColumnVector getChild(int ordinal) {
            return fields[ordinal];
        }
    }

    /** A list: each a range of its elements' column. */
    static final class Array extends Ranges {
        private final ColumnVector elements;

        Array(ArrayType type, MemorySegment array) {
            super(type, array);
            this.elements = of(type.elementType(), child(0));
        }

        @Override
        public ColumnarArray getArray(int rowId) {
            return isNullAt(rowId) ? null : new ColumnarArray(elements, start(rowId), count(rowId));
        }
    }

    /** A map: each a range of its entries, a struct whose two children are the keys and the values. */
    static final class Map extends Ranges {
        private final ColumnVector keys;
        private final ColumnVector values;

        Map(MapType type, MemorySegment array) {
            super(type, array);
            Struct entries = new Struct(new StructType().add("key", type.keyType()).add("value", type.valueType()),
                    child(0));
            this.keys = entries.getChild(0);
            this.values = entries.getChild(1);
        }

        @Override
        public ColumnarMap getMap(int rowId) {
            return isNullAt(rowId) ? null : new ColumnarMap(keys, values, start(rowId), count(rowId));
        }
    }
}
