// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.spark.network.util.JavaUtils;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import io.simdbridge.ArrowNdjson;

/**
 * The options of a read, checked once on the driver. The JSON source's options apply where they
 * mean the same here; those that would change what is read and that this reader does not do are
 * refused with a message, never ignored.
 *
 * @param paths the files, directories or globs to read
 * @param mode what a malformed record does (PERMISSIVE, DROPMALFORMED, FAILFAST)
 * @param corruptColumn the column that takes a malformed record's line in PERMISSIVE mode
 * @param columnar whether batches are handed to Spark as columns (else as rows)
 * @param batchBytes bytes of input read into one Arrow batch
 * @param threads native threads per task reading a batch's blocks
 * @param maxPartitionBytes the most bytes of a file one task reads
 * @param openCostInBytes what opening a file costs, in bytes (as Spark's file sources plan)
 * @param minPartitions the fewest tasks a read is cut into (where the files allow)
 * @param maxLineBytes the longest line a task reads (a longer one fails the read)
 */
record SourceOptions(List<String> paths, ArrowNdjson.BadRecords mode, String corruptColumn, boolean columnar,
                     long batchBytes, int threads, long maxPartitionBytes, long openCostInBytes, int minPartitions,
                     long maxLineBytes)
        implements Serializable {

    /** This source's own options. */
    private static final Set<String> OWN = Set.of("path", "paths", "columnar", "batchbytes", "threads",
            "maxpartitionbytes", "maxlinebytes", "mode", "columnnameofcorruptrecord", "multiline");
    /** JSON options whose non-default values ask for JSON this reader does not accept. */
    private static final Set<String> LENIENT_JSON = Set.of("allowcomments", "allowunquotedfieldnames",
            "allownumericleadingzeros", "allowbackslashescapinganycharacter", "allowunquotedcontrolchars");
    /** JSON options that change how values are read, not supported yet. */
    private static final Set<String> NOT_YET = Set.of("timestampformat", "timestampntzformat", "dateformat",
            "pathglobfilter", "recursivefilelookup", "modifiedbefore", "modifiedafter", "enabledatetimeparsingfallback");

    static SourceOptions of(CaseInsensitiveStringMap options) {
        for (String key : options.keySet()) {
            String k = key.toLowerCase(Locale.ROOT);
            String v = options.get(key);
            if (LENIENT_JSON.contains(k) && Boolean.parseBoolean(v)) {
                throw refused(key + "=" + v, "simdbridge reads standard JSON (RFC 8259) only");
            }
            if (NOT_YET.contains(k)) {
                throw refused(key, "this option is not supported by the simdbridge source yet");
            }
            if ((k.equals("encoding") || k.equals("charset")) && !v.replace("-", "").equalsIgnoreCase("utf8")) {
                throw refused(key + "=" + v, "simdbridge reads UTF-8 only");
            }
            if (k.equals("linesep") && !v.equals("\n")) {
                throw refused("lineSep", "records end at a line feed (\\n or \\r\\n) only");
            }
            if (k.equals("timezone") && !v.equalsIgnoreCase("UTC")) {
                throw refused("timeZone=" + v, "timestamps without an offset are read as UTC");
            }
        }
        if (options.getBoolean("multiLine", false)) {
            throw refused("multiLine=true", "simdbridge reads NDJSON (one record per line): use spark.read.json for "
                    + "JSON documents that span lines");
        }
        SparkSession spark = SparkSession.active();
        String mode = options.getOrDefault("mode", "PERMISSIVE").toUpperCase(Locale.ROOT);
        ArrowNdjson.BadRecords bad = switch (mode) {
            case "PERMISSIVE" -> ArrowNdjson.BadRecords.KEEP;
            case "DROPMALFORMED" -> ArrowNdjson.BadRecords.DROP;
            case "FAILFAST" -> ArrowNdjson.BadRecords.FAIL;
            default -> throw refused("mode=" + mode, "the modes are PERMISSIVE, DROPMALFORMED and FAILFAST");
        };
        String corrupt = options.getOrDefault("columnNameOfCorruptRecord",
                spark.conf().get("spark.sql.columnNameOfCorruptRecord", "_corrupt_record"));
        long maxPartition = bytes(options.getOrDefault("maxPartitionBytes",
                spark.conf().get("spark.sql.files.maxPartitionBytes", "128m")));
        long openCost = bytes(spark.conf().get("spark.sql.files.openCostInBytes", "4m"));
        int minPartitions = Integer.parseInt(spark.conf().get("spark.sql.files.minPartitionNum",
                String.valueOf(spark.sparkContext().defaultParallelism())));
        long batch = bytes(options.getOrDefault("batchBytes", "8m"));
        int threads = options.getInt("threads", 1);
        long maxLine = bytes(options.getOrDefault("maxLineBytes", "2g"));
        if (maxPartition < 1 || batch < 1 || threads < 1 || maxLine < 1 || maxLine > (1L << 31)) {
            throw new IllegalArgumentException("simdbridge: maxPartitionBytes, batchBytes and threads must be positive, "
                    + "maxLineBytes between 1 and 2g");
        }
        return new SourceOptions(paths(options), bad, corrupt, options.getBoolean("columnar", true), batch, threads,
                maxPartition, openCost, Math.max(1, minPartitions), maxLine);
    }

    /** The options spark.read.json takes to infer the same schema (this source's own left out). */
    Map<String, String> inferenceOptions(CaseInsensitiveStringMap options) {
        Map<String, String> json = new HashMap<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String k = e.getKey().toLowerCase(Locale.ROOT);
            if (!OWN.contains(k) || k.equals("mode") || k.equals("columnnameofcorruptrecord")) {
                json.put(e.getKey(), e.getValue());
            }
        }
        return json;
    }

    private static List<String> paths(CaseInsensitiveStringMap options) {
        List<String> paths = new ArrayList<>();
        if (options.containsKey("paths")) {
            try {
                for (String p : new ObjectMapper().readValue(options.get("paths"), String[].class)) {
                    paths.add(p);
                }
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("simdbridge: the paths option is not a JSON array of strings", e);
            }
        }
        if (options.containsKey("path")) {
            paths.add(options.get("path"));
        }
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("simdbridge: no path to read: use load(path)");
        }
        return List.copyOf(paths);
    }

    private static long bytes(String size) {
        return JavaUtils.byteStringAsBytes(size);
    }

    private static IllegalArgumentException refused(String option, String why) {
        return new IllegalArgumentException("simdbridge: option " + option + " is not supported: " + why);
    }
}
