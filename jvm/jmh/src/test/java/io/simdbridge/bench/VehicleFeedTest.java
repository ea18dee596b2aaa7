// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.simdbridge.bench.data.Datasets;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

class VehicleFeedTest {
    @Test
    void csvQuotesLineEndsAndEmptyFields() {
        List<List<String>> rows = Csv.parse("a,b,c\r\n1,\"x, \"\"y\"\"\",\r\n\"\",2,\"line\nbreak\"\n");
        assertEquals(List.of(List.of("a", "b", "c"), List.of("1", "x, \"y\"", ""), List.of("", "2", "line\nbreak")), rows);
        assertThrows(IllegalArgumentException.class, () -> Csv.parse("a,\"b"));
    }

    @Test
    void typesAreInferredPerColumn() throws Exception {
        String csv = "id,price,cylinders,name,empty\r\n1,2.5,4,\"A \"\"quoted\"\" name\",\r\n2,3,NA,B\\C,\r\n";
        VehicleFeed.Feed feed = VehicleFeed.convert(csv);
        assertEquals(List.of(VehicleFeed.Type.INTEGER, VehicleFeed.Type.DOUBLE, VehicleFeed.Type.STRING,
                VehicleFeed.Type.STRING, VehicleFeed.Type.INTEGER), feed.types());
        String ndjson = new String(feed.ndjson(), StandardCharsets.UTF_8);
        assertEquals("{\"id\":1,\"price\":2.5,\"cylinders\":\"4\",\"name\":\"A \\\"quoted\\\" name\",\"empty\":null}\n"
                + "{\"id\":2,\"price\":3.0,\"cylinders\":\"NA\",\"name\":\"B\\\\C\",\"empty\":null}\n", ndjson);
        assertEquals(2, feed.records());
        assertEquals(2, feed.nulls()[4]);
    }

    @Test
    void theEpaFile() throws Exception {
        byte[] zip = Files.readAllBytes(Datasets.dataDirectory().resolve("vehicles/vehicles.csv.zip"));
        VehicleFeed.Feed feed = VehicleFeed.convert(VehicleFeed.unzipCsv(zip));
        assertEquals(49582, feed.records());
        assertEquals(84, feed.names().size());
        assertEquals(VehicleFeed.Type.STRING, feed.types().get(feed.names().indexOf("cylinders")), "it holds NA");
        assertEquals(VehicleFeed.Type.INTEGER, feed.types().get(feed.names().indexOf("year")));
        assertEquals(VehicleFeed.Type.DOUBLE, feed.types().get(feed.names().indexOf("co2TailpipeGpm")));
        // Every line is a JSON object with every column, read back by Jackson.
        ObjectMapper mapper = new ObjectMapper();
        String[] lines = new String(feed.ndjson(), StandardCharsets.UTF_8).split("\n");
        assertEquals(49582, lines.length);
        for (int i = 0; i < lines.length; i += 97) {
            JsonNode record = mapper.readTree(lines[i]);
            assertEquals(84, record.size());
            assertTrue(record.get("year").isInt());
            assertTrue(record.get("co2TailpipeGpm").isDouble());
        }
        String manifest = VehicleFeed.manifest(feed, "x");
        JsonNode m = mapper.readTree(manifest);
        assertEquals(49582, m.get("records").intValue());
        assertEquals(VehicleFeed.sha256(feed.ndjson()), m.get("sha256").textValue());
        assertEquals(84, m.get("columns").size());
    }
}
