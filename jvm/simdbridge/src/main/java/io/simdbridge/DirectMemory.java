// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The memory behind a direct buffer, checked before native code reads or writes it. A buffer
 * from an {@link java.lang.foreign.Arena} lives only as long as its arena: once the arena is
 * closed, its address points at freed memory, and reading it crashes the JVM. So every direct
 * buffer is checked alive and accessible from this thread, and one whose memory another thread
 * may free during the call (a shared arena's) is passed to FFM as a segment, which the linker
 * holds for the call (closing the arena meanwhile then throws in the thread that closes it).
 */
final class DirectMemory {
    /** A thread never started: a segment it may access is not confined to one thread. */
    private static final Thread NOBODY = new Thread(() -> {});
    /**
     * The classes of the scopes that only the garbage collector ends: a direct buffer's own, the
     * global arena's, an automatic arena's (java.lang.foreign has no public test for whether a
     * scope can be closed; these are taken from instances, not named).
     */
    private static final Class<?> BUFFER_SCOPE = MemorySegment.ofBuffer(ByteBuffer.allocateDirect(1)).scope().getClass();
    private static final Class<?> GLOBAL_SCOPE = Arena.global().allocate(1).scope().getClass();
    private static final Class<?> AUTOMATIC_SCOPE = Arena.ofAuto().allocate(1).scope().getClass();

    private DirectMemory() {}

    /**
     * The buffer's memory from its position to its limit, alive and accessible from this thread.
     *
     * @throws IllegalStateException where its arena is closed
     * @throws WrongThreadException where it belongs to a confined arena of another thread
     */
    static MemorySegment live(ByteBuffer buffer) {
        MemorySegment segment = MemorySegment.ofBuffer(buffer);
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the direct buffer's memory was freed: its Arena is closed");
        }
        if (!segment.isAccessibleBy(Thread.currentThread())) {
            throw new WrongThreadException("the direct buffer belongs to a confined Arena of another thread ("
                    + "Arena.ofConfined); use it on that thread, or use a shared or global arena");
        }
        return segment;
    }

    /**
     * True where nothing but the garbage collector can free the memory while the buffer is
     * reachable (ByteBuffer.allocateDirect, a mapped file, the global and automatic arenas), or
     * where only this thread can (a confined arena it owns): its raw address may be passed, with
     * the buffer kept reachable for the call. False for a shared arena, which any thread may
     * close at any time, and for a kind of memory this class does not know.
     */
    static boolean safeByAddress(MemorySegment live) {
        if (!live.isAccessibleBy(NOBODY)) {
            return true; // confined, and live() checked that this thread owns it
        }
        Class<?> scope = live.scope().getClass();
        return scope == BUFFER_SCOPE || scope == GLOBAL_SCOPE || scope == AUTOMATIC_SCOPE;
    }
}
