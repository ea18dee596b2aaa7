// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.internal;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A few reusable things (parsers, buffers) shared by threads that come and go, such as a virtual
 * thread per task: {@link #take()} one, use it on this thread alone, {@link #give(Object)} it
 * back. Lock-free: a thread never waits on it. That matters on virtual threads: one that waited
 * for a lock would unmount and queue behind every runnable task (a microsecond's read could
 * wait milliseconds), where a few compare-and-set tries cost nanoseconds. What one thread gives back happens-before another takes it.
 *
 * @param <T> what it holds
 */
public final class SharedPool<T> {
    private final AtomicReferenceArray<T> slots;

    /** A pool of {@code capacity} slots, empty. */
    public SharedPool(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity + " < 1");
        }
        slots = new AtomicReferenceArray<>(capacity);
    }

    /** Slots for a few per core: as many as can be in use at once where no task blocks inside. */
    public static <T> SharedPool<T> perCore() {
        return new SharedPool<>(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
    }

    /** Something given back, now this thread's alone; null where the pool holds nothing. */
    public T take() {
        int n = slots.length();
        int start = start(n);
        for (int k = 0; k < n; k++) {
            int i = start + k < n ? start + k : start + k - n;
            T x = slots.get(i);
            if (x != null && slots.compareAndSet(i, x, null)) {
                return x;
            }
        }
        return null;
    }

    /**
     * Gives {@code x} back: the giving thread may not use it afterwards. False where every slot is
     * full: the caller then drops it (and frees what it holds).
     */
    public boolean give(T x) {
        if (x == null) {
            throw new NullPointerException("x");
        }
        int n = slots.length();
        int start = start(n);
        for (int k = 0; k < n; k++) {
            int i = start + k < n ? start + k : start + k - n;
            if (slots.get(i) == null && slots.compareAndSet(i, null, x)) {
                return true;
            }
        }
        return false;
    }

    /** Where a thread starts looking: spread by thread, so that threads seldom try the same slot. */
    private static int start(int n) {
        return (int) Long.remainderUnsigned(Thread.currentThread().threadId(), n);
    }
}
