package dev.cairn.service.s3;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The memory held by answers written detached and not yet taken by their readers, within one
 * budget ({@code cairn.limits.pending-answer-bytes}). An answer holds a buffer: one read for it
 * alone, or one it shares with others (a cache entry's bytes); a shared buffer is counted once,
 * while any answer holds it. Thread-safe.
 */
public final class PendingAnswers {
    private final MemoryBudget budget;
    /** Guarded by {@code this}. */
    private final Map<Object, Holders> held = new IdentityHashMap<>();

    private static final class Holders {
        final long bytes;
        int count = 1;

        Holders(long bytes) {
            this.bytes = bytes;
        }
    }

    public PendingAnswers(long capacity) {
        this.budget = new MemoryBudget(capacity);
    }

    /**
     * Holds a buffer of {@code bytes} for one answer; {@code buffer} identifies it (the same
     * object for every answer that shares it). Returns what to run, once, when the answer no
     * longer needs it; null when the budget has no room for it.
     */
    synchronized Runnable tryHold(Object buffer, long bytes) {
        Holders h = held.get(buffer);
        if (h != null) {
            h.count++;
        } else if (budget.tryReserve(bytes)) {
            held.put(buffer, new Holders(bytes));
        } else {
            return null;
        }
        return () -> release(buffer);
    }

    private synchronized void release(Object buffer) {
        Holders h = held.get(buffer);
        if (--h.count == 0) {
            held.remove(buffer);
            budget.release(h.bytes);
        }
    }

    /** Bytes held now. */
    public long used() {
        return budget.used();
    }

    public long capacity() {
        return budget.capacity();
    }

    /** Answers written holding their thread since start, for want of room in the budget. */
    public long refusals() {
        return budget.refusals();
    }
}
