// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A column of a batch as Spark reads it, over the Arrow vector's buffers as they are (no copy).
 * Spark's ArrowColumnVector reads each value through Arrow's ArrowBuf, which checks the buffer's
 * reference count and bounds on every access, and through a holder for strings; here each buffer
 * is a MemorySegment taken once per batch, so a value is one bounds-checked load. The types that
 * SparkArrow maps to fixed-width, string, struct, list and map vectors read here; the others
 * (decimal, null) through ArrowColumnVector. As there, closing a column closes its vector and the
 * vector's children (Spark closes a batch's top columns).
 */
abstract sealed class BatchColumn extends ColumnVector {
    private final FieldVector vector;
    private final MemorySegment validity; // null where no value is null
    private final int nulls;

    private BatchColumn(DataType type, FieldVector vector) {
        super(type);
        this.vector = vector;
        this.nulls = vector.getNullCount();
        this.validity = nulls == 0 ? null : segment(vector.getValidityBuffer());
    }

    /** The column over vector, read as Spark's type. */
    static ColumnVector of(DataType type, FieldVector vector) {
        if (type instanceof StringType && vector instanceof VarCharVector v) {
            return new Strings(type, v);
        }
        if (type instanceof StructType struct && vector instanceof StructVector v) {
            return new Struct(struct, v);
        }
        if (type instanceof MapType map && vector instanceof MapVector v) {
            return new Map(map, v);
        }
        if (type instanceof ArrayType array && vector instanceof ListVector v) {
            return new Array(array, v);
        }
        if (fixedWidth(type) && vector instanceof BaseFixedWidthVector v) {
            return new Fixed(type, v);
        }
        return new ArrowColumnVector(vector);
    }

    private static boolean fixedWidth(DataType t) {
        return t instanceof BooleanType || t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType
                || t instanceof LongType || t instanceof FloatType || t instanceof DoubleType || t instanceof DateType
                || t instanceof TimestampType || t instanceof TimestampNTZType;
    }

    private static MemorySegment segment(ArrowBuf buf) {
        long size = buf.capacity();
        return size == 0 ? MemorySegment.NULL : MemorySegment.ofAddress(buf.memoryAddress()).reinterpret(size);
    }

    @Override
    public final void close() {
        vector.close();
    }

    @Override
    public final boolean hasNull() {
        return nulls > 0;
    }

    @Override
    public final int numNulls() {
        return nulls;
    }

    @Override
    public final boolean isNullAt(int rowId) {
        return validity != null && (validity.get(JAVA_BYTE, rowId >>> 3) & (1 << (rowId & 7))) == 0;
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

        Fixed(DataType type, BaseFixedWidthVector v) {
            super(type, v);
            this.data = segment(v.getDataBuffer());
        }

        @Override
        public boolean getBoolean(int rowId) {
            return (data.get(JAVA_BYTE, rowId >>> 3) & (1 << (rowId & 7))) != 0;
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

    /** UTF-8 strings: 32-bit offsets into their bytes, each string a view of them. */
    static final class Strings extends BatchColumn {
        private final MemorySegment offsets;
        private final long bytes; // the address of the strings' bytes

        Strings(DataType type, VarCharVector v) {
            super(type, v);
            this.offsets = segment(v.getOffsetBuffer());
            this.bytes = v.getDataBuffer().memoryAddress();
        }

        @Override
        public UTF8String getUTF8String(int rowId) {
            if (isNullAt(rowId)) {
                return null;
            }
            int start = offsets.get(JAVA_INT_UNALIGNED, 4L * rowId);
            int end = offsets.get(JAVA_INT_UNALIGNED, 4L * rowId + 4);
            return UTF8String.fromAddress(null, bytes + start, end - start);
        }
    }

    /** A struct: its fields are its children, read at the struct's row. */
    static final class Struct extends BatchColumn {
        private final ColumnVector[] children;

        Struct(StructType type, StructVector v) {
            super(type, v);
            List<FieldVector> fields = v.getChildrenFromFields();
            children = new ColumnVector[fields.size()];
            for (int i = 0; i < children.length; i++) {
                children[i] = of(type.fields()[i].dataType(), fields.get(i));
            }
        }

        @Override
        public ColumnVector getChild(int ordinal) {
            return children[ordinal];
        }
    }

    /** A list: 32-bit offsets into its elements' column. */
    static final class Array extends BatchColumn {
        private final MemorySegment offsets;
        private final ColumnVector elements;

        Array(ArrayType type, ListVector v) {
            super(type, v);
            this.offsets = segment(v.getOffsetBuffer());
            this.elements = of(type.elementType(), v.getDataVector());
        }

        @Override
        public ColumnarArray getArray(int rowId) {
            if (isNullAt(rowId)) {
                return null;
            }
            int start = offsets.get(JAVA_INT_UNALIGNED, 4L * rowId);
            return new ColumnarArray(elements, start, offsets.get(JAVA_INT_UNALIGNED, 4L * rowId + 4) - start);
        }
    }

    /** A map: 32-bit offsets into its entries, whose keys and values are two columns. */
    static final class Map extends BatchColumn {
        private final MemorySegment offsets;
        private final ColumnVector keys;
        private final ColumnVector values;

        Map(MapType type, MapVector v) {
            super(type, v);
            this.offsets = segment(v.getOffsetBuffer());
            List<FieldVector> entry = ((StructVector) v.getDataVector()).getChildrenFromFields();
            this.keys = of(type.keyType(), entry.get(0));
            this.values = of(type.valueType(), entry.get(1));
        }

        @Override
        public ColumnarMap getMap(int rowId) {
            if (isNullAt(rowId)) {
                return null;
            }
            int start = offsets.get(JAVA_INT_UNALIGNED, 4L * rowId);
            return new ColumnarMap(keys, values, start, offsets.get(JAVA_INT_UNALIGNED, 4L * rowId + 4) - start);
        }
    }
}
