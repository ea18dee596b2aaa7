// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.feed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Turns the EPA vehicles CSV ({@code vehicles/vehicles.csv.zip}) into NDJSON: one JSON object
 * per row, keys in the header's order. Each column's type is inferred from all its cells: an
 * integer column when every non-empty cell is a JSON integer within the long range, a double
 * column when every one is a JSON number (its integral cells are written with ".0"), otherwise a
 * string column (so "NA" in a numeric column keeps it a string). Empty cells become null.
 *
 * <pre>
 * java -cp benchmarks.jar io.simdbridge.bench.feed.VehicleFeed DATA_DIR OUT.ndjson MANIFEST.json
 * </pre>
 */
public final class VehicleFeed {
    static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]*)");
    static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

    enum Type { INTEGER, DOUBLE, STRING }

    /** The NDJSON, and what the manifest says of it. */
    record Feed(byte[] ndjson, List<String> names, List<Type> types, long[] nulls, int records) {}

    private VehicleFeed() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: VehicleFeed DATA_DIR OUT.ndjson MANIFEST.json");
            System.exit(2);
        }
        Path zip = Path.of(args[0], "vehicles", "vehicles.csv.zip");
        byte[] source = Files.readAllBytes(zip);
        Feed feed = convert(unzipCsv(source));
        Path out = Path.of(args[1]);
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.write(out, feed.ndjson());
        Files.writeString(Path.of(args[2]), manifest(feed, sha256(source)));
        System.out.println("vehicle feed: " + feed.records() + " records, " + feed.ndjson().length + " bytes -> " + out);
    }

    static String unzipCsv(byte[] zip) throws IOException {
        try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(zip))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (e.getName().endsWith(".csv")) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        }
        throw new IOException("no .csv in the zip");
    }

    static Feed convert(String csv) {
        List<List<String>> rows = Csv.parse(csv);
        List<String> names = rows.get(0);
        int columns = names.size();
        Type[] types = new Type[columns];
        long[] nulls = new long[columns];
        for (int c = 0; c < columns; c++) {
            boolean integers = true;
            boolean numbers = true;
            for (int r = 1; r < rows.size(); r++) {
                String cell = cell(rows.get(r), c, r);
                if (cell.isEmpty()) {
                    nulls[c]++;
                    continue;
                }
                if (!INTEGER.matcher(cell).matches() || !fitsLong(cell)) {
                    integers = false;
                }
                if (!NUMBER.matcher(cell).matches()) {
                    numbers = false;
                }
            }
            types[c] = integers ? Type.INTEGER : numbers ? Type.DOUBLE : Type.STRING;
        }
        StringBuilder out = new StringBuilder(csv.length() * 2);
        for (int r = 1; r < rows.size(); r++) {
            out.append('{');
            for (int c = 0; c < columns; c++) {
                if (c > 0) {
                    out.append(',');
                }
                appendString(out, names.get(c));
                out.append(':');
                String cell = rows.get(r).get(c);
                if (cell.isEmpty()) {
                    out.append("null");
                } else if (types[c] == Type.STRING) {
                    appendString(out, cell);
                } else {
                    out.append(cell);
                    if (types[c] == Type.DOUBLE && INTEGER.matcher(cell).matches()) {
                        out.append(".0");
                    }
                }
            }
            out.append("}\n");
        }
        return new Feed(out.toString().getBytes(StandardCharsets.UTF_8), names, List.of(types), nulls, rows.size() - 1);
    }

    private static String cell(List<String> row, int column, int index) {
        if (row.size() <= column) {
            throw new IllegalArgumentException("CSV row " + index + " has " + row.size() + " fields");
        }
        return row.get(column);
    }

    private static boolean fitsLong(String digits) {
        try {
            Long.parseLong(digits);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A JSON string: quotes, backslashes and control characters escaped. */
    static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    static String manifest(Feed feed, String sourceSha256) {
        StringBuilder json = new StringBuilder();
        json.append("{\n  \"source\": \"vehicles/vehicles.csv.zip\",\n");
        json.append("  \"source_sha256\": \"").append(sourceSha256).append("\",\n");
        json.append("  \"records\": ").append(feed.records()).append(",\n");
        json.append("  \"bytes\": ").append(feed.ndjson().length).append(",\n");
        json.append("  \"sha256\": \"").append(sha256(feed.ndjson())).append("\",\n");
        json.append("  \"columns\": [\n");
        for (int c = 0; c < feed.names().size(); c++) {
            json.append("    {\"name\": ");
            StringBuilder name = new StringBuilder();
            appendString(name, feed.names().get(c));
            json.append(name).append(", \"type\": \"").append(feed.types().get(c).name().toLowerCase())
                    .append("\", \"nulls\": ").append(feed.nulls()[c]).append('}')
                    .append(c + 1 < feed.names().size() ? ",\n" : "\n");
        }
        json.append("  ]\n}\n");
        return json.toString();
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
