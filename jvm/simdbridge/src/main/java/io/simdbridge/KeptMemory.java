// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Native memory a parser keeps from one call to the next (a MessagePack conversion's padded input
 * and its output), so that a call neither allocates, zeroes nor faults in fresh pages: on GH
 * Archive's 17.8 MB those took about half of a conversion. Each buffer is kept up to {@link
 * #KEPT_AT_MOST} bytes (the core keeps its conversion workspace up to the same); a larger one is
 * the call's own, freed when the call ends. Freed with the parser (close, trim, or the Cleaner
 * once it is unreachable). Used by the thread that holds the parser, one call at a time.
 */
final class KeptMemory {
    static final long KEPT_AT_MOST = 64L << 20;
    static final int INPUT = 0, OUTPUT = 1;

    private final Arena[] arenas = new Arena[2];
    private final MemorySegment[] buffers = new MemorySegment[2];

    /**
     * At least {@code size} bytes of buffer {@code which}: the kept one (grown to twice its size
     * or more where it is too small; what it holds is left from earlier calls), or past
     * KEPT_AT_MOST memory from {@code call}.
     */
    MemorySegment atLeast(int which, long size, Arena call) {
        if (size > KEPT_AT_MOST) {
            return call.allocate(size, 64);
        }
        MemorySegment kept = buffers[which];
        if (kept == null || kept.byteSize() < size) {
            long grown = kept == null ? size : Math.min(KEPT_AT_MOST, Math.max(size, 2 * kept.byteSize()));
            free(which);
            // Shared: a pooled parser, and so its memory, goes from thread to thread.
            arenas[which] = Arena.ofShared();
            buffers[which] = kept = arenas[which].allocate(grown, 64);
        }
        return kept;
    }

    /** The bytes kept now (tests check what is kept and what is freed). */
    long keptBytes() {
        long n = 0;
        for (MemorySegment b : buffers) {
            n += b == null ? 0 : b.byteSize();
        }
        return n;
    }

    void free() {
        free(INPUT);
        free(OUTPUT);
    }

    private void free(int which) {
        if (arenas[which] != null) {
            Arena a = arenas[which];
            arenas[which] = null;
            buffers[which] = null;
            a.close();
        }
    }
}
