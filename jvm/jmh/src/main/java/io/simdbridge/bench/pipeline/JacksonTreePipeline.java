// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.simdbridge.bench.data.Input;
import io.simdbridge.bench.feed.Listing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Jackson's tree: every record a JsonNode, then mapped field by field. */
public final class JacksonTreePipeline implements Pipeline {
    private final ObjectReader reader = new ObjectMapper().readerFor(JsonNode.class);

    @Override
    public String name() {
        return "jackson-tree";
    }

    List<JsonNode> trees(Input batch) {
        List<JsonNode> trees = new ArrayList<>(4096);
        try (MappingIterator<JsonNode> it = reader.readValues(batch.bytes(), 0, batch.length())) {
            while (it.hasNextValue()) {
                trees.add(it.nextValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return trees;
    }

    @Override
    public long parse(Input batch) {
        long sum = 0;
        for (JsonNode n : trees(batch)) {
            sum += n.size();
        }
        return sum;
    }

    @Override
    public List<Listing> parseAndMap(Input batch) {
        List<JsonNode> trees = trees(batch);
        List<Listing> out = new ArrayList<>(trees.size());
        for (JsonNode n : trees) {
            out.add(new Listing(
                    n.get("id").longValue(), n.get("year").intValue(), text(n, "make"), text(n, "model"),
                    text(n, "VClass"), text(n, "fuelType"), text(n, "drive"), text(n, "trany"),
                    Listing.cylinders(text(n, "cylinders")), Listing.displacement(text(n, "displ")),
                    n.get("city08").intValue(), n.get("highway08").intValue(), n.get("comb08").intValue(),
                    n.get("co2TailpipeGpm").doubleValue()));
        }
        return out;
    }

    private static String text(JsonNode record, String field) {
        JsonNode v = record.get(field);
        return v == null || v.isNull() ? null : v.textValue();
    }
}
