// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipInputStream;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * format("simdbridge") against Spark's own JSON source: the same rows for the same schema and
 * mode, on the corpus and on generated records with every type, missing fields and malformed
 * lines, for projections, filters and aggregates, columnar and row reads, any split size.
 */
class SimdbridgeSourceTest {
    static SparkSession spark;
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder().master("local[2]").appName("simdbridge-test")
                .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.shuffle.partitions", "4").getOrCreate();
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    static Path data(String relative) {
        String env = System.getenv("SIMDBRIDGE_DATA");
        return Path.of(env != null && !env.isEmpty() ? env : "../../../shared/data").resolve(relative);
    }

    /** The rows as text, sorted: equal tables give equal lists. */
    static List<String> rows(Dataset<Row> df) {
        List<String> out = new ArrayList<>();
        for (Row r : df.collectAsList()) {
            out.add(r.toString());
        }
        out.sort(null);
        return out;
    }

    /** Equal lists, or a message that shows where they first differ. */
    static void assertRows(List<String> expected, List<String> actual, String what) {
        if (expected.equals(actual)) {
            return;
        }
        int i = 0;
        while (i < expected.size() && i < actual.size() && expected.get(i).equals(actual.get(i))) {
            i++;
        }
        throw new AssertionError(what + ": " + expected.size() + " rows from Spark, " + actual.size()
                + " from simdbridge; first difference at " + i + ":\n spark:      "
                + (i < expected.size() ? expected.get(i) : "(none)") + "\n simdbridge: "
                + (i < actual.size() ? actual.get(i) : "(none)"));
    }

    static Dataset<Row> ours(StructType schema, Map<String, String> options, String path) {
        var reader = spark.read().format("simdbridge").options(options);
        return (schema != null ? reader.schema(schema) : reader).load(path);
    }

    static Dataset<Row> spark(StructType schema, Map<String, String> options, String path) {
        var reader = spark.read().options(options);
        return (schema != null ? reader.schema(schema) : reader).json(path);
    }

    /** The whole table, a pruned projection, a filter and an aggregate: the same from both sources. */
    static void assertSameAsSpark(StructType schema, Map<String, String> options, String path, String... columns) {
        Dataset<Row> mine = ours(schema, options, path);
        Dataset<Row> theirs = spark(schema, options, path);
        assertEquals(theirs.schema(), mine.schema());
        List<String> expected = rows(theirs);
        assertTrue(expected.size() > 0);
        assertRows(expected, rows(mine), path + " " + options);
        if (columns.length > 0) {
            assertRows(rows(theirs.selectExpr(columns)), rows(mine.selectExpr(columns)), "projection");
            String first = columns[0];
            assertRows(rows(theirs.filter(first + " is not null").selectExpr(columns)),
                    rows(mine.filter(first + " is not null").selectExpr(columns)), "filter");
            assertRows(rows(theirs.groupBy(first).count()), rows(mine.groupBy(first).count()), "group-by");
        }
    }

    @Test
    void ghArchiveWithSparksOwnSchemaAndInferred() {
        String gh = data("ndjson/gharchive-2015-01-01-0.ndjson").toString();
        StructType inferred = spark.read().json(gh).schema();
        assertSameAsSpark(inferred, Map.of(), gh, "type", "actor.login", "repo.name", "payload.size");
        // Without a schema: Spark's inference, so the schema spark.read.json gives.
        assertEquals(inferred, spark.read().format("simdbridge").load(gh).schema());
        // Many splits: every record read once.
        assertEquals(rows(spark(inferred, Map.of(), gh).select("id")),
                rows(ours(inferred, Map.of("maxPartitionBytes", "100000", "batchBytes", "65536"), gh).select("id")));
    }

    @Test
    void amazonRecordsThatAreArraysAreCorrupt() {
        String amazon = data("ndjson/amazon_cellphones.ndjson").toString();
        StructType schema = new StructType().add("asin", DataTypes.StringType).add("_corrupt_record",
                DataTypes.StringType);
        assertSameAsSpark(schema, Map.of(), amazon, "asin", "_corrupt_record");
        // (Its inferred schema is _corrupt_record alone, which Spark refuses to query from raw JSON.)
    }

    @Test
    void vehiclesFeedAsNdjson() throws IOException {
        Path csv = dir.resolve("vehicles.csv");
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(data("vehicles/vehicles.csv.zip")))) {
            zip.getNextEntry();
            Files.copy(zip, csv);
        }
        String ndjson = dir.resolve("vehicles-ndjson").toString();
        spark.read().option("header", "true").option("inferSchema", "true").csv(csv.toString()).write().json(ndjson);
        StructType schema = spark.read().json(ndjson).schema();
        assertSameAsSpark(schema, Map.of(), ndjson, "make", "year", "city08", "co2TailpipeGpm");
    }

    static final StructType EVERY_TYPE = new StructType()
            .add("b", DataTypes.BooleanType).add("i8", DataTypes.ByteType).add("i16", DataTypes.ShortType)
            .add("i32", DataTypes.IntegerType).add("i64", DataTypes.LongType).add("f", DataTypes.FloatType)
            .add("d", DataTypes.DoubleType).add("s", DataTypes.StringType).add("any", DataTypes.StringType)
            .add("amount", DataTypes.createDecimalType(10, 2))
            .add("tags", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType))
            .add("ts", DataTypes.TimestampType).add("day", DataTypes.DateType)
            .add("arr", DataTypes.createArrayType(DataTypes.LongType))
            .add("st", new StructType().add("x", DataTypes.LongType).add("y", DataTypes.StringType)
                    .add("z", DataTypes.createArrayType(new StructType().add("k", DataTypes.StringType))));

    /** Records with every type, nulls, missing fields, wrong types and malformed lines (seeded). */
    static String generated(int n, long seed) {
        Random g = new Random(seed);
        StringBuilder sb = new StringBuilder();
        String[] bad = {"{\"i32\": 1.5}", "{\"b\": \"true\", \"s\": \"kept\"}", "{\"i32\": tru}", "42", "[1, 2]",
            "{\"st\": {\"x\": \"no\", \"y\": \"kept\"}}", "{\"arr\": [1, {}]}", "{\"i8\": 300}", "{\"s\": \"cut",
            "{\"day\": \"2015-13-45\"}", "{\"ts\": \"yesterday\"}", "{\"st\": [1]}",
            // integers past 64 bits: a double's nearest value, a string's text, no long
            "{\"d\": 123456789012345678901234567890, \"any\": -99999999999999999999}",
            "{\"i64\": 99999999999999999999, \"s\": \"kept\"}"};
        for (int r = 0; r < n; r++) {
            if (g.nextInt(12) == 0) {
                sb.append(bad[g.nextInt(bad.length)]).append(g.nextBoolean() ? "\r\n" : "\n");
                continue;
            }
            if (g.nextInt(40) == 0) {
                sb.append(g.nextBoolean() ? "\n" : "{}\n");
                continue;
            }
            List<String> fields = new ArrayList<>();
            if (g.nextInt(5) > 0) fields.add("\"b\": " + (g.nextInt(3) == 0 ? "null" : g.nextBoolean()));
            if (g.nextInt(5) > 0) fields.add("\"i8\": " + (g.nextInt(256) - 128));
            if (g.nextInt(5) > 0) fields.add("\"i16\": " + (g.nextInt(65536) - 32768));
            if (g.nextInt(5) > 0) fields.add("\"i32\": " + g.nextInt());
            if (g.nextInt(5) > 0) fields.add("\"i64\": " + g.nextLong());
            if (g.nextInt(5) > 0) fields.add("\"f\": " + (g.nextInt(2000) - 1000) / 8.0);
            if (g.nextInt(5) > 0) fields.add("\"d\": " + (g.nextBoolean() ? String.valueOf(g.nextInt(1000)) : (g.nextInt(100000) / 16.0) + ""));
            if (g.nextInt(5) > 0) fields.add("\"tags\": " + switch (g.nextInt(5)) {
                case 0 -> "{}";
                case 1 -> "null";
                case 2 -> "{\"x\": 1, \"y\": \"not a number\"}"; // a bad value: the map is null
                default -> "{\"k" + g.nextInt(9) + "\": " + g.nextInt(99) + ", \"z\\u00e9\": null}";
            });
            if (g.nextInt(5) > 0) fields.add("\"amount\": " + switch (g.nextInt(6)) {
                case 0 -> "\"" + (g.nextInt(2000000) - 1000000) / 1000.0 + "\"";
                case 1 -> String.valueOf(g.nextLong() % 100000000);
                case 2 -> "12345678901.5"; // too many digits: a bad field
                case 3 -> (g.nextInt(2000) - 1000) + ".005";
                default -> (g.nextInt(2000000) - 1000000) / 1000.0 + "";
            });
            if (g.nextInt(5) > 0) fields.add("\"s\": " + (g.nextInt(4) == 0 ? "null" : "\"v" + r + " é\\u00e9\\n\\\"q\\\"\""));
            if (g.nextInt(5) > 0) fields.add("\"any\": " + switch (g.nextInt(5)) {
                case 0 -> String.valueOf(g.nextInt(100));
                case 1 -> "true";
                case 2 -> "{\"k\": [1, \"two\", null]}";
                case 3 -> "[]";
                default -> "\"text\"";
            });
            boolean numericDay = false;
            if (g.nextInt(12) == 0) { // seconds for Spark; a number is no date: a bad field
                numericDay = g.nextBoolean();
                fields.add(numericDay ? "\"day\": " + g.nextInt(20000) : "\"ts\": " + (1420070400 + g.nextInt(1 << 20)));
            } else if (g.nextInt(5) > 0) fields.add("\"ts\": \"2015-0" + (1 + g.nextInt(9)) + "-1" + g.nextInt(10) + "T0"
                    + g.nextInt(10) + ":3" + g.nextInt(10) + ":00" + (g.nextBoolean() ? ".123456" : "")
                    + (g.nextBoolean() ? "Z" : "+01:00") + "\"");
            if (!numericDay && g.nextInt(5) > 0) fields.add("\"day\": \"2020-0" + (1 + g.nextInt(9)) + "-2" + g.nextInt(9) + "\"");
            if (g.nextInt(5) > 0) fields.add("\"arr\": [" + (g.nextBoolean() ? "" : g.nextInt(9) + ", null, " + g.nextLong()) + "]");
            if (g.nextInt(5) > 0) fields.add("\"st\": " + (g.nextInt(6) == 0 ? "null" : "{\"y\": \"w\", \"x\": "
                    + g.nextInt(99) + ", \"z\": [{\"k\": \"a\"}, {\"k\": null}, {}], \"extra\": {\"deep\": [1]}}"));
            if (g.nextInt(8) == 0) fields.add("\"unknown\": {\"a\": [1, 2, {\"b\": null}]}");
            java.util.Collections.shuffle(fields, g);
            sb.append('{').append(String.join(", ", fields)).append('}').append(g.nextInt(10) == 0 ? "\r\n" : "\n");
        }
        sb.append("{\"i32\": 7, \"s\": \"last line, no line end\"}");
        return sb.toString();
    }

    @Test
    void everyTypeAndEveryModeAsSparksJsonSource() throws IOException {
        Path file = dir.resolve("every.ndjson");
        Files.writeString(file, generated(4000, 42), StandardCharsets.UTF_8);
        String path = file.toString();
        StructType withCorrupt = EVERY_TYPE.add("_corrupt_record", DataTypes.StringType);
        assertSameAsSpark(withCorrupt, Map.of(), path, "i32", "s", "st.x", "ts", "_corrupt_record");
        assertSameAsSpark(EVERY_TYPE, Map.of("mode", "PERMISSIVE"), path, "day", "any", "arr");
        assertSameAsSpark(EVERY_TYPE, Map.of("mode", "DROPMALFORMED"), path, "b", "st", "f");
        // count() asks for no column: the same count in every mode.
        for (String mode : List.of("PERMISSIVE", "DROPMALFORMED")) {
            assertEquals(spark(EVERY_TYPE, Map.of("mode", mode), path).count(),
                    ours(EVERY_TYPE, Map.of("mode", mode, "maxPartitionBytes", "10000"), path).count(), mode);
        }
        assertSameAsSpark(withCorrupt.add("other", DataTypes.StringType), Map.of("columnNameOfCorruptRecord", "other"),
                path, "i32", "other");
        // Row reads (columnar off, whole-stage code generation off) give the same rows.
        spark.conf().set("spark.sql.codegen.wholeStage", "false");
        try {
            assertEquals(rows(spark(withCorrupt, Map.of(), path)),
                    rows(ours(withCorrupt, Map.of("columnar", "false"), path)));
        } finally {
            spark.conf().unset("spark.sql.codegen.wholeStage");
        }
        // FAILFAST: the error names the file, the line and the byte.
        Exception failed = assertThrows(Exception.class, () -> ours(EVERY_TYPE, Map.of("mode", "FAILFAST"), path)
                .collectAsList());
        Throwable cause = failed;
        while (cause != null && !(cause instanceof MalformedRecordException)) {
            cause = cause.getCause();
        }
        assertTrue(cause != null, failed.toString());
        String text = generated(4000, 42);
        int firstBad = firstBadLine(text);
        assertTrue(cause.getMessage().contains(path + " at line " + firstBad + ", byte "), cause.getMessage());
        assertThrows(Exception.class, () -> spark(EVERY_TYPE, Map.of("mode", "FAILFAST"), path).collectAsList());
    }

    /** The line (from 1) of the first record Spark's own reader calls malformed. */
    static int firstBadLine(String text) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            Dataset<Row> one = spark.read().schema(EVERY_TYPE.add("_corrupt_record", DataTypes.StringType))
                    .json(spark.createDataset(List.of(line), org.apache.spark.sql.Encoders.STRING()));
            if (one.filter("_corrupt_record is not null").count() > 0) {
                return i + 1;
            }
        }
        return -1;
    }

    @Test
    void everyRecordOnceForAnySplitSizeCrlfAndCompression() throws IOException {
        String text = generated(60, 7);
        Path file = dir.resolve("splits.ndjson");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Path gz = dir.resolve("splits.ndjson.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        StructType schema = EVERY_TYPE.add("_corrupt_record", DataTypes.StringType);
        List<String> expected = rows(spark(schema, Map.of(), file.toString()));
        // Split sizes down to 3 bytes (a task per 3 bytes), and batches of a few bytes (each line
        // longer than the buffer, which grows) to several MB.
        String[][] cases = {{"3", "7"}, {"17", "1000"}, {"100", "7"}, {"100", "8m"}, {"4096", "7"}, {"4096", "8m"},
            {"1000000", "1000"}};
        for (String[] c : cases) {
            assertRows(expected, rows(ours(schema, Map.of("maxPartitionBytes", c[0], "batchBytes", c[1]),
                    file.toString())), c[0] + " " + c[1]);
        }
        Path big = dir.resolve("big.ndjson");
        Files.writeString(big, generated(5000, 8), StandardCharsets.UTF_8);
        List<String> all = rows(spark(schema, Map.of(), big.toString()));
        for (String split : List.of("10000", "77777")) {
            assertRows(all, rows(ours(schema, Map.of("maxPartitionBytes", split, "batchBytes", "3000"), big.toString())),
                    split);
        }
        assertRows(expected, rows(ours(schema, Map.of("maxPartitionBytes", "50"), gz.toString())), "gzip");
        assertRows(rows(spark(schema, Map.of(), dir.toString() + "/splits.*")),
                rows(ours(schema, Map.of(), dir.toString() + "/splits.*")), "glob");
    }

    @Test
    void optionsItDoesNotTakeAreRefusedWithAReason() {
        String gh = data("ndjson/gharchive-2015-01-01-0.ndjson").toString();
        StructType schema = new StructType().add("id", DataTypes.StringType);
        for (Map<String, String> o : List.of(Map.of("multiLine", "true"), Map.of("allowComments", "true"),
                Map.of("timestampFormat", "yyyy"), Map.of("mode", "LENIENT"), Map.of("encoding", "UTF-16"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ours(schema, o, gh).collectAsList(), o.toString());
            assertTrue(e.getMessage().startsWith("simdbridge: option"), e.getMessage());
        }
        IllegalArgumentException map = assertThrows(IllegalArgumentException.class, () -> ours(
                new StructType().add("m", DataTypes.createMapType(DataTypes.IntegerType, DataTypes.LongType)), Map.of(),
                gh).collectAsList());
        assertTrue(map.getMessage().contains("field m has type map<int,bigint>"), map.getMessage());
        IllegalArgumentException binary = assertThrows(IllegalArgumentException.class, () -> ours(
                new StructType().add("b", DataTypes.BinaryType), Map.of(), gh).collectAsList());
        assertTrue(binary.getMessage().contains("field b has type binary"), binary.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ours(schema, Map.of(), "/nonexistent/x.ndjson")
                .collectAsList());
    }

    @Test
    void decimalsPastALongAndNullColumnsAsSparksJsonSource() throws IOException {
        // Decimals whose unscaled values need more than 64 bits, and those that fit one, of either
        // sign, at the top level and nested; columns of Spark's null type; nulls and missing fields.
        StructType schema = new StructType().add("big", DataTypes.createDecimalType(38, 4))
                .add("whole", DataTypes.createDecimalType(20, 0)).add("small", DataTypes.createDecimalType(18, 3))
                .add("nothing", DataTypes.NullType)
                .add("list", DataTypes.createArrayType(DataTypes.createDecimalType(38, 4)))
                .add("st", new StructType().add("d", DataTypes.createDecimalType(25, 2)).add("n", DataTypes.NullType));
        Random g = new Random(5);
        java.util.function.BiFunction<Integer, Integer, String> number = (digits, fraction) -> {
            StringBuilder n = new StringBuilder(g.nextBoolean() ? "-" : "");
            int whole = 1 + g.nextInt(digits);
            n.append(1 + g.nextInt(9));
            for (int k = 1; k < whole; k++) {
                n.append(g.nextInt(10));
            }
            if (fraction > 0 && g.nextBoolean()) {
                n.append('.');
                for (int k = 1 + g.nextInt(fraction); k > 0; k--) {
                    n.append(g.nextInt(10));
                }
            }
            return g.nextInt(8) == 0 ? "null" : n.toString();
        };
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < 600; r++) {
            sb.append("{\"big\": ").append(number.apply(34, 4)).append(", \"whole\": ").append(number.apply(20, 0));
            if (g.nextInt(4) > 0) {
                sb.append(", \"small\": ").append(number.apply(15, 3));
            }
            sb.append(g.nextBoolean() ? ", \"nothing\": null" : "").append(", \"list\": [");
            for (int k = g.nextInt(4); k > 0; k--) {
                sb.append(number.apply(34, 4)).append(k > 1 ? ", " : "");
            }
            sb.append("], \"st\": ").append(g.nextInt(6) == 0 ? "null" : "{\"d\": " + number.apply(23, 2) + "}");
            sb.append("}\n");
        }
        Path file = dir.resolve("decimals.ndjson");
        Files.writeString(file, sb.toString());
        assertSameAsSpark(schema, Map.of(), file.toString(), "big", "whole", "small", "nothing", "list", "st.d",
                "st.n");
        assertSameAsSpark(schema, Map.of("batchBytes", "2k"), file.toString());
    }

    @Test
    void countIsSparksWithBlankLinesOfAnyLength() throws IOException {
        // Blank lines of spaces, tabs and carriage returns of 0 to 40 bytes, and records padded
        // with them, so that line ends and the first byte that is not blank fall anywhere in an
        // eight-byte word; the last line with and without its line end.
        Random g = new Random(11);
        String blanks = " \t\r";
        for (boolean lastEnds : List.of(true, false)) {
            StringBuilder sb = new StringBuilder();
            for (int line = 0; line < 3000; line++) {
                if (line > 0) {
                    sb.append(g.nextBoolean() ? "\n" : "\r\n");
                }
                int pad = g.nextInt(41);
                for (int k = 0; k < pad; k++) {
                    sb.append(blanks.charAt(g.nextInt(3)));
                }
                if (g.nextInt(3) > 0) {
                    sb.append("{\"a\": ").append(line).append('}');
                    for (int k = g.nextInt(12); k > 0; k--) {
                        sb.append(blanks.charAt(g.nextInt(3)));
                    }
                }
            }
            if (lastEnds) {
                sb.append('\n');
            }
            Path file = dir.resolve("blanks-" + lastEnds + ".ndjson");
            Files.writeString(file, sb.toString());
            StructType schema = new StructType().add("a", DataTypes.LongType);
            long expected = spark(schema, Map.of(), file.toString()).count();
            assertTrue(expected > 1500 && expected < 2500, String.valueOf(expected));
            for (String[] c : new String[][] {{"1000000", "8m"}, {"997", "100"}, {"64", "9"}}) {
                assertEquals(expected, ours(schema, Map.of("maxPartitionBytes", c[0], "batchBytes", c[1]),
                        file.toString()).count(), c[0] + " " + c[1]);
            }
        }
    }

    @Test
    void emptyAndBlankFilesHaveNoRows() throws IOException {
        StructType schema = new StructType().add("a", DataTypes.LongType);
        Path empty = dir.resolve("empty.ndjson");
        Files.write(empty, new byte[0]);
        Path blank = dir.resolve("blank.ndjson");
        Files.writeString(blank, "\n  \r\n\t\n");
        for (Path p : List.of(empty, blank)) {
            assertEquals(0, ours(schema, Map.of(), p.toString()).count(), p.toString());
            assertEquals(List.of(), rows(ours(schema, Map.of(), p.toString())), p.toString());
        }
    }

    @Test
    void aLineLongerThanMaxLineBytesStopsTheReadWithItsOffset() throws IOException {
        Path file = dir.resolve("long.ndjson");
        Files.writeString(file, "{\"a\": 1}\n{\"a\": \"" + "x".repeat(10_000) + "\"}\n{\"a\": 3}\n");
        StructType schema = new StructType().add("a", DataTypes.StringType);
        Map<String, String> small = Map.of("maxLineBytes", "4k", "batchBytes", "1k");
        Exception e = assertThrows(Exception.class, () -> ours(schema, small, file.toString()).collectAsList());
        Throwable cause = e;
        while (cause != null && !(cause instanceof MalformedRecordException)) {
            cause = cause.getCause();
        }
        assertTrue(cause != null && cause.getMessage().contains("longer than maxLineBytes (4096)")
                && cause.getMessage().contains("at byte 9"), String.valueOf(cause));
        assertEquals(3, ours(schema, Map.of("batchBytes", "1k"), file.toString()).collectAsList().size());
    }
}
