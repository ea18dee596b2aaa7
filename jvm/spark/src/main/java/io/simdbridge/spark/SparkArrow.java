// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Spark types as the Arrow types the core reads them into, each one that BatchColumn (or Spark's
 * ArrowColumnVector) gives back to Spark without a copy (timestamps in microseconds, UTC).
 */
final class SparkArrow {
    private SparkArrow() {}

    /** Fails with the field and its type where a type is not read. */
    static void check(StructType schema) {
        schema(schema);
    }

    static Schema schema(StructType schema) {
        List<Field> fields = new ArrayList<>();
        for (StructField f : schema.fields()) {
            fields.add(field(f.name(), f.dataType(), f.name()));
        }
        return new Schema(fields);
    }

    private static Field field(String name, DataType type, String path) {
        List<Field> children = null;
        ArrowType arrow;
        if (type instanceof BooleanType) {
            arrow = ArrowType.Bool.INSTANCE;
        } else if (type instanceof ByteType) {
            arrow = new ArrowType.Int(8, true);
        } else if (type instanceof ShortType) {
            arrow = new ArrowType.Int(16, true);
        } else if (type instanceof IntegerType) {
            arrow = new ArrowType.Int(32, true);
        } else if (type instanceof LongType) {
            arrow = new ArrowType.Int(64, true);
        } else if (type instanceof FloatType) {
            arrow = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
        } else if (type instanceof DoubleType) {
            arrow = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
        } else if (type instanceof StringType) {
            arrow = ArrowType.Utf8.INSTANCE;
        } else if (type instanceof TimestampType) {
            arrow = new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
        } else if (type instanceof TimestampNTZType) {
            arrow = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
        } else if (type instanceof DateType) {
            arrow = new ArrowType.Date(DateUnit.DAY);
        } else if (type instanceof MapType map && map.keyType() instanceof StringType) {
            arrow = new ArrowType.Map(false);
            Field key = new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null);
            children = List.of(new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
                    List.of(key, field("value", map.valueType(), path + "{}"))));
        } else if (type instanceof DecimalType decimal) {
            arrow = new ArrowType.Decimal(decimal.precision(), decimal.scale(), 128);
        } else if (type instanceof NullType) {
            arrow = ArrowType.Null.INSTANCE;
        } else if (type instanceof StructType struct) {
            arrow = ArrowType.Struct.INSTANCE;
            children = new ArrayList<>();
            for (StructField f : struct.fields()) {
                children.add(field(f.name(), f.dataType(), path + "." + f.name()));
            }
        } else if (type instanceof ArrayType array) {
            arrow = ArrowType.List.INSTANCE;
            children = List.of(field("element", array.elementType(), path + "[]"));
        } else {
            throw new IllegalArgumentException("simdbridge: field " + path + " has type " + type.simpleString()
                    + ", which the simdbridge source does not read yet (it reads boolean, byte to long, float, double, "
                    + "decimal, string, timestamp, timestamp_ntz, date, struct, array and map with string keys)");
        }
        return new Field(name, FieldType.nullable(arrow), children);
    }
}
