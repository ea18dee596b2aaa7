// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import java.util.Map;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The data source {@code spark.read.format("simdbridge")}: NDJSON files read through simdbridge's
 * NDJSON-to-Arrow reader into columnar batches, with the results of {@code spark.read.json} for
 * the same schema and mode (see docs/spark.md for where they differ).
 *
 * <pre>{@code
 * Dataset<Row> events = spark.read().format("simdbridge").schema(schema).load("events/*.ndjson");
 * }</pre>
 */
public final class SimdbridgeSource implements TableProvider, DataSourceRegister {
    @Override
    public String shortName() {
        return "simdbridge";
    }

    /**
     * Without a schema, Spark's own JSON inference over the same files and options
     * (samplingRatio, primitivesAsString, prefersDecimal, dropFieldIfAllNull...), so that the
     * schema is the one spark.read.json would give. It reads the sampled records with Spark's
     * parser: pass a schema (or a samplingRatio) where that pass costs too much.
     */
    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        SourceOptions parsed = SourceOptions.of(options);
        Map<String, String> json = parsed.inferenceOptions(options);
        SparkSession spark = SparkSession.active();
        return spark.read().options(json).json(parsed.paths().toArray(String[]::new)).schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return new NdjsonTable(schema, new CaseInsensitiveStringMap(properties));
    }

    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }
}
