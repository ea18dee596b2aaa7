// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.simdbridge.Bridge;
import io.simdbridge.bench.data.Input;
import io.simdbridge.bench.feed.Listing;
import io.simdbridge.bench.pipeline.JacksonStreamPipeline;
import io.simdbridge.bench.pipeline.JacksonTreePipeline;
import io.simdbridge.bench.pipeline.NativeExtractPipeline;
import io.simdbridge.bench.pipeline.Pipeline;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ingestion pipelines produce the same listings; the extraction pipeline in small batches too. */
class PipelinesTest {
    static final String RECORDS = """
            {"id":1,"year":1985,"make":"Alfa Romeo","model":"Spider","VClass":"Two Seaters","fuelType":"Regular","drive":"Rear-Wheel Drive","trany":"Manual 5-spd","cylinders":"4","displ":"2.0","city08":19,"highway08":25,"comb08":21,"co2TailpipeGpm":423.19,"other":[1,{"x":2}]}
            {"id":2,"year":2024,"make":"Tesla","model":"Model 3","VClass":"Midsize Cars","fuelType":"Electricity","drive":null,"trany":"Automatic (A1)","cylinders":"NA","displ":"NA","city08":138,"highway08":126,"comb08":132,"co2TailpipeGpm":0.0}
            {"id":3,"year":1899,"make":"Old","model":"Too old","VClass":"x","fuelType":"x","drive":"x","trany":"x","cylinders":null,"displ":null,"city08":1,"highway08":1,"comb08":1,"co2TailpipeGpm":1.5}
            """;

    @Test
    void allPipelinesGiveTheSameListings() {
        Input batch = Input.of("records", true, RECORDS.getBytes(StandardCharsets.UTF_8));
        List<Pipeline> pipelines = List.of(new JacksonTreePipeline(), new JacksonStreamPipeline(),
                new NativeExtractPipeline(Bridge.JNI_DIRECT, 4096), new NativeExtractPipeline(Bridge.FFM_DIRECT, 4096),
                new NativeExtractPipeline(Bridge.JNI_DIRECT, 1)); // one row per crossing
        List<Listing> expected = List.of(
                new Listing(1, 1985, "Alfa Romeo", "Spider", "Two Seaters", "Regular", "Rear-Wheel Drive",
                        "Manual 5-spd", 4, 2.0, 19, 25, 21, 423.19),
                new Listing(2, 2024, "Tesla", "Model 3", "Midsize Cars", "Electricity", null, "Automatic (A1)",
                        null, null, 138, 126, 132, 0.0));
        for (Pipeline p : pipelines) {
            assertEquals(expected, p.run(batch), p.name());
            assertEquals(3, p.parseAndMap(batch).size(), p.name());
            assertTrue(p.parse(batch) > 0, p.name());
        }
    }
}
