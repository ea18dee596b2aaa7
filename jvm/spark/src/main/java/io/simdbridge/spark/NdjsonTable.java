// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import java.util.EnumSet;
import java.util.Set;

import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** The NDJSON files of one load(), read in batches. */
final class NdjsonTable implements SupportsRead {
    private final StructType schema;
    private final CaseInsensitiveStringMap properties;

    NdjsonTable(StructType schema, CaseInsensitiveStringMap properties) {
        this.schema = schema;
        this.properties = properties;
        SparkArrow.check(schema); // an unsupported type fails here, before any task runs
    }

    @Override
    public String name() {
        return "simdbridge " + String.join(", ", SourceOptions.of(properties).paths());
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new NdjsonScan(schema, SourceOptions.of(properties));
    }
}
