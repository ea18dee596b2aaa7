// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.pipeline;

import io.simdbridge.bench.data.Input;
import io.simdbridge.bench.feed.Listing;
import java.util.ArrayList;
import java.util.List;

/**
 * An ingestion pipeline: a batch of NDJSON vehicle records into the valid {@link Listing}s, in
 * three stages whose costs suite E measures as differences of the variants below.
 */
public interface Pipeline {
    String name();

    /** Parse only: every record read, its fields' values taken, no Listing made. Returns a count. */
    long parse(Input batch);

    /** Parse and map: every record as a Listing. */
    List<Listing> parseAndMap(Input batch);

    /** The whole pipeline: parse, map, and keep the valid listings. */
    default List<Listing> run(Input batch) {
        return validate(parseAndMap(batch));
    }

    static List<Listing> validate(List<Listing> listings) {
        List<Listing> valid = new ArrayList<>(listings.size());
        for (Listing l : listings) {
            if (l.valid()) {
                valid.add(l);
            }
        }
        return valid;
    }
}
