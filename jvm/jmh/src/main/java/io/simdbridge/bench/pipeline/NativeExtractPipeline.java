// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.pipeline;

import io.simdbridge.Bridge;
import io.simdbridge.ColumnBatch;
import io.simdbridge.ColumnSpec;
import io.simdbridge.NativeParser;
import io.simdbridge.bench.data.Input;
import io.simdbridge.bench.feed.Listing;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * simdbridge's batch extraction: the dozen fields of every record of the batch into columns in
 * one native crossing (a direct buffer in, direct buffers out), then Listings made from the
 * columns. One instance per thread: it owns its column buffers.
 */
public final class NativeExtractPipeline implements Pipeline {
    static final List<ColumnSpec> COLUMNS = List.of(
            ColumnSpec.int64(Listing.POINTERS[0]), ColumnSpec.int64(Listing.POINTERS[1]),
            ColumnSpec.string(Listing.POINTERS[2]), ColumnSpec.string(Listing.POINTERS[3]),
            ColumnSpec.string(Listing.POINTERS[4]), ColumnSpec.string(Listing.POINTERS[5]),
            ColumnSpec.string(Listing.POINTERS[6]), ColumnSpec.string(Listing.POINTERS[7]),
            ColumnSpec.string(Listing.POINTERS[8]), ColumnSpec.string(Listing.POINTERS[9]),
            ColumnSpec.int64(Listing.POINTERS[10]), ColumnSpec.int64(Listing.POINTERS[11]),
            ColumnSpec.int64(Listing.POINTERS[12]), ColumnSpec.float64(Listing.POINTERS[13]));

    private final Bridge bridge;
    private final ColumnBatch columns;

    public NativeExtractPipeline(Bridge bridge, int maxRows) {
        this.bridge = bridge;
        this.columns = ColumnBatch.allocate(COLUMNS, maxRows, 64 * maxRows);
    }

    @Override
    public String name() {
        return bridge == Bridge.JNI_DIRECT ? "simdjson-extract-jni" : "simdjson-extract-ffm";
    }

    /** Extracts the whole batch (in as many calls as the columns need); returns the rows of the last. */
    private int extract(Input batch, List<Listing> out) {
        NativeParser parser = NativeParser.forCurrentThread();
        ByteBuffer input = batch.direct();
        int rows = 0;
        while (input.hasRemaining()) {
            rows = parser.extract(input, columns, bridge);
            if (out != null) {
                map(rows, out);
            }
        }
        return rows;
    }

    @Override
    public long parse(Input batch) {
        return extract(batch, null);
    }

    @Override
    public List<Listing> parseAndMap(Input batch) {
        List<Listing> out = new ArrayList<>(4096);
        extract(batch, out);
        return out;
    }

    private void map(int rows, List<Listing> out) {
        ColumnBatch c = columns;
        for (int r = 0; r < rows; r++) {
            out.add(new Listing(c.getLong(0, r), (int) c.getLong(1, r), c.getString(2, r), c.getString(3, r),
                    c.getString(4, r), c.getString(5, r), c.getString(6, r), c.getString(7, r),
                    Listing.cylinders(c.getString(8, r)), Listing.displacement(c.getString(9, r)),
                    (int) c.getLong(10, r), (int) c.getLong(11, r), (int) c.getLong(12, r), c.getDouble(13, r)));
        }
    }
}
