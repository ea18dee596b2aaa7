// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Makes each task's reader; sent to the executors (the Hadoop configuration travels as its
 * Writable bytes).
 */
final class NdjsonReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    private final StructType schema;
    private final SourceOptions options;
    private final byte[] conf;

    NdjsonReaderFactory(StructType schema, SourceOptions options, Configuration conf) {
        this.schema = schema;
        this.options = options;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            conf.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.conf = bytes.toByteArray();
    }

    private Configuration conf() {
        Configuration c = new Configuration(false);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(conf))) {
            c.readFields(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return c;
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return options.columnar();
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        return new SplitReader((FileSplit) partition, schema, options, conf());
    }

    /** Rows: each batch's rows, each copied into an UnsafeRow (which Spark may keep). */
    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        SplitReader batches = new SplitReader((FileSplit) partition, schema, options, conf());
        UnsafeProjection project = UnsafeProjection.create(schema);
        return new PartitionReader<>() {
            private Iterator<InternalRow> rows;
            private InternalRow row;

            @Override
            public boolean next() throws IOException {
                while (rows == null || !rows.hasNext()) {
                    if (!batches.next()) {
                        return false;
                    }
                    rows = batches.get().rowIterator();
                }
                row = project.apply(rows.next());
                return true;
            }

            @Override
            public InternalRow get() {
                return row;
            }

            @Override
            public void close() throws IOException {
                batches.close();
            }
        };
    }
}
