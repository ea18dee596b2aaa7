// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.xxhash64;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

import io.simdbridge.NativeParser;

/**
 * The Spark suite's measurements (bench/spark_suite.py runs it): three queries timed end to end
 * from files to result, on one data set, by Spark's JSON source, format("simdbridge") and Spark
 * reading the same data from Parquet, round-robin in one local[2] session. Before anything is
 * timed, the JSON source and simdbridge must give the same results for all three queries (a
 * checksum over every column for the full read), or it stops.
 *
 *     SparkBench NDJSON_PATH SCHEMA_JSON|infer:FILE PARQUET_DIR ROUNDS GROUP_COLUMN AGG_COLUMN AGG_COLUMN2 OUT_JSON
 */
public final class SparkBench {
    private SparkBench() {}

    public static void main(String[] args) throws IOException {
        String ndjson = args[0];
        SparkSession spark = SparkSession.builder().master("local[2]").appName("simdbridge-bench")
                .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC").getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        // A schema in Spark's JSON form, or "infer:FILE": the schema Spark infers from that file.
        StructType schema = args[1].startsWith("infer:") ? spark.read().json(args[1].substring(6)).schema()
                : (StructType) DataType.fromJson(Files.readString(Path.of(args[1])));
        String parquet = args[2];
        int rounds = Integer.parseInt(args[3]);
        String group = args[4];
        String agg1 = args[5];
        String agg2 = args[6];
        Path out = Path.of(args[7]);
        Map<String, java.util.function.Supplier<Dataset<Row>>> engines = new LinkedHashMap<>();
        engines.put("spark-json", () -> spark.read().schema(schema).json(ndjson));
        engines.put("simdbridge", () -> spark.read().format("simdbridge").schema(schema).load(ndjson));
        if (!Files.exists(Path.of(parquet))) {
            engines.get("spark-json").get().write().parquet(parquet);
        }
        engines.put("parquet", () -> spark.read().schema(schema).parquet(parquet));

        // The gate: the same answers from both JSON readers.
        List<String> gate = new ArrayList<>();
        for (String engine : List.of("spark-json", "simdbridge")) {
            Dataset<Row> df = engines.get(engine).get();
            Column[] all = new Column[schema.fields().length];
            for (int i = 0; i < all.length; i++) {
                all[i] = col("`" + schema.fields()[i].name() + "`");
            }
            gate.add(df.count() + " | " + sortedRows(projection(df, group, agg1, agg2)) + " | "
                    + df.select(sum(xxhash64(all).cast("decimal(38,0)"))).first());
        }
        if (!gate.get(0).equals(gate.get(1))) {
            System.err.println("spark: the JSON source and simdbridge differ; nothing is measured\n spark-json: "
                    + abbreviate(gate.get(0)) + "\n simdbridge: " + abbreviate(gate.get(1)));
            System.exit(3);
        }
        System.err.println("spark: gate passed (" + gate.get(0).split(" \\| ")[0] + " rows, same answers)");

        Map<String, Map<String, List<Double>>> seconds = new LinkedHashMap<>();
        for (int round = -1; round < rounds; round++) { // round -1 warms the JIT and the page cache
            for (String query : List.of("count", "projection", "full read")) {
                for (Map.Entry<String, java.util.function.Supplier<Dataset<Row>>> e : engines.entrySet()) {
                    long start = System.nanoTime();
                    Dataset<Row> df = e.getValue().get();
                    switch (query) {
                        case "count" -> df.count();
                        case "projection" -> projection(df, group, agg1, agg2).collectAsList();
                        default -> df.write().format("noop").mode("overwrite").save();
                    }
                    double s = (System.nanoTime() - start) / 1e9;
                    if (round >= 0) {
                        seconds.computeIfAbsent(query, q -> new LinkedHashMap<>())
                                .computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(s);
                    }
                    System.err.printf("spark: round %d %s %s %.2f s%n", round, query, e.getKey(), s);
                }
            }
        }
        StringBuilder json = new StringBuilder("{\"rows\": " + gate.get(0).split(" \\| ")[0]
                + ", \"spark\": \"" + spark.version() + "\", \"simdjson\": \"" + NativeParser.simdjsonVersion()
                + "\", \"kernel\": \"" + NativeParser.simdImplementation() + "\", \"seconds\": {");
        int q = 0;
        for (Map.Entry<String, Map<String, List<Double>>> query : seconds.entrySet()) {
            json.append(q++ > 0 ? ", " : "").append('"').append(query.getKey()).append("\": {");
            int k = 0;
            for (Map.Entry<String, List<Double>> e : query.getValue().entrySet()) {
                json.append(k++ > 0 ? ", " : "").append('"').append(e.getKey()).append("\": ").append(e.getValue());
            }
            json.append('}');
        }
        Files.writeString(out, json.append("}}\n").toString());
        spark.stop();
    }

    /** Three columns: grouped by one, two aggregates. */
    static Dataset<Row> projection(Dataset<Row> df, String group, String agg1, String agg2) {
        return df.groupBy(col(group)).agg(count(col(agg1)), max(col(agg2)));
    }

    static String sortedRows(Dataset<Row> df) {
        List<String> rows = new ArrayList<>();
        for (Row r : df.collectAsList()) {
            rows.add(r.toString());
        }
        rows.sort(null);
        return String.join(";", rows);
    }

    static String abbreviate(String s) {
        return s.length() > 2000 ? s.substring(0, 2000) + "..." : s;
    }
}
