// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.types.StructType;

/**
 * A read of the table: only the columns the query asks for are read into batches (the others
 * are skipped, their values still validated), over splits planned as Spark's file sources plan
 * them.
 */
final class NdjsonScan implements ScanBuilder, SupportsPushDownRequiredColumns, Scan, Batch {
    private StructType schema;
    private final SourceOptions options;

    NdjsonScan(StructType schema, SourceOptions options) {
        this.schema = schema;
        this.options = options;
    }

    @Override
    public void pruneColumns(StructType required) {
        schema = required;
    }

    @Override
    public Scan build() {
        return this;
    }

    @Override
    public StructType readSchema() {
        return schema;
    }

    @Override
    public String description() {
        return "simdbridge NDJSON " + options.paths() + " " + schema.simpleString();
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    /**
     * The files, each cut into splits of maxSplitBytes (Spark's rule: at most maxPartitionBytes,
     * fewer bytes where that gives each core a share of the input); a compressed file whole.
     */
    @Override
    public InputPartition[] planInputPartitions() {
        Configuration conf = hadoopConf();
        try {
            List<FileStatus> files = new ArrayList<>();
            for (String p : options.paths()) {
                Path path = new Path(p);
                FileSystem fs = path.getFileSystem(conf);
                FileStatus[] matched = fs.globStatus(path);
                if (matched == null || matched.length == 0) {
                    throw new IllegalArgumentException("simdbridge: path does not exist: " + p);
                }
                for (FileStatus status : matched) {
                    collect(fs, status, files);
                }
            }
            files.sort(Comparator.comparing(f -> f.getPath().toString()));
            long total = 0;
            for (FileStatus f : files) {
                total += f.getLen() + options.openCostInBytes();
            }
            long perCore = total / options.minPartitions();
            long maxSplit = Math.min(options.maxPartitionBytes(), Math.max(options.openCostInBytes(), perCore));
            CompressionCodecFactory codecs = new CompressionCodecFactory(conf);
            List<InputPartition> splits = new ArrayList<>();
            for (FileStatus f : files) {
                String path = f.getPath().toString();
                if (codecs.getCodec(f.getPath()) != null) {
                    splits.add(new FileSplit(path, 0, f.getLen(), true));
                    continue;
                }
                for (long start = 0; start < f.getLen(); start += maxSplit) {
                    splits.add(new FileSplit(path, start, Math.min(maxSplit, f.getLen() - start), false));
                }
            }
            return splits.toArray(InputPartition[]::new);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A file, or the files under a directory (names starting with _ or . left out, as Spark does). */
    private static void collect(FileSystem fs, FileStatus status, List<FileStatus> into) throws IOException {
        String name = status.getPath().getName();
        if (name.startsWith("_") || name.startsWith(".")) {
            return;
        }
        if (!status.isDirectory()) {
            into.add(status);
            return;
        }
        for (FileStatus child : fs.listStatus(status.getPath())) {
            collect(fs, child, into);
        }
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new NdjsonReaderFactory(schema, options, hadoopConf());
    }

    private static Configuration hadoopConf() {
        return new Configuration(SparkSession.active().sparkContext().hadoopConfiguration());
    }
}
