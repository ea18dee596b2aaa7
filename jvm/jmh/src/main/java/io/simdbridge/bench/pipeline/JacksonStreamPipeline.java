// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.pipeline;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.simdbridge.bench.data.Input;
import io.simdbridge.bench.feed.Listing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Jackson's streaming parser: each record's fields read as their tokens go by, the dozen wanted
 * ones into locals, the rest skipped. Parse and map are one loop by nature; the parse-only
 * variant takes the values and builds nothing.
 */
public final class JacksonStreamPipeline implements Pipeline {
    private final JsonFactory factory = new JsonFactory();

    @Override
    public String name() {
        return "jackson-stream";
    }

    @Override
    public long parse(Input batch) {
        return read(batch, null);
    }

    @Override
    public List<Listing> parseAndMap(Input batch) {
        List<Listing> out = new ArrayList<>(4096);
        read(batch, out);
        return out;
    }

    /** Reads every record; adds a Listing per record to `out` unless it is null. Returns a count. */
    private long read(Input batch, List<Listing> out) {
        long seen = 0;
        try (JsonParser p = factory.createParser(batch.bytes(), 0, batch.length())) {
            while (p.nextToken() == JsonToken.START_OBJECT) {
                long id = 0;
                int year = 0, city = 0, highway = 0, comb = 0;
                double co2 = 0;
                String make = null, model = null, vehicleClass = null, fuelType = null, drive = null, trany = null;
                String cylinders = null, displ = null;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken value = p.nextToken();
                    switch (name) {
                        case "id" -> id = p.getLongValue();
                        case "year" -> year = p.getIntValue();
                        case "make" -> make = p.getValueAsString();
                        case "model" -> model = p.getValueAsString();
                        case "VClass" -> vehicleClass = p.getValueAsString();
                        case "fuelType" -> fuelType = p.getValueAsString();
                        case "drive" -> drive = p.getValueAsString();
                        case "trany" -> trany = p.getValueAsString();
                        case "cylinders" -> cylinders = p.getValueAsString();
                        case "displ" -> displ = p.getValueAsString();
                        case "city08" -> city = p.getIntValue();
                        case "highway08" -> highway = p.getIntValue();
                        case "comb08" -> comb = p.getIntValue();
                        case "co2TailpipeGpm" -> co2 = p.getDoubleValue();
                        default -> {
                            if (value.isStructStart()) {
                                p.skipChildren();
                            }
                        }
                    }
                }
                seen++;
                if (out != null) {
                    out.add(new Listing(id, year, make, model, vehicleClass, fuelType, drive, trany,
                            Listing.cylinders(cylinders), Listing.displacement(displ), city, highway, comb, co2));
                } else {
                    seen += id + year + city + highway + comb + (long) co2 + (make == null ? 0 : 1) + (model == null ? 0 : 1)
                            + (vehicleClass == null ? 0 : 1) + (fuelType == null ? 0 : 1) + (drive == null ? 0 : 1)
                            + (trany == null ? 0 : 1) + (cylinders == null ? 0 : 1) + (displ == null ? 0 : 1);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return seen;
    }
}
