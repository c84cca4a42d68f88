package dev.cairn.service.s3;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes of memory shared by every request that would hold an upload body in memory. A body
 * reserves its size before it is read and gives it back when it is closed; a body that finds the
 * budget spent is spooled to a file instead, so many uploads at once cost disk, never more heap
 * than the budget. Reservations never wait, so no request can block another. Thread-safe.
 */
public final class MemoryBudget {
    private final long capacity;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    /** @param capacity bytes that may be held at once; 0 holds nothing in memory */
    public MemoryBudget(long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("a memory budget must not be negative, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Reserves {@code bytes} when that many are free; false (and nothing reserved) otherwise. */
    public boolean tryReserve(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative reservation " + bytes);
        }
        long now;
        do {
            now = used.get();
            if (now + bytes > capacity) {
                refused.incrementAndGet();
                return false;
            }
        } while (!used.compareAndSet(now, now + bytes));
        return true;
    }

    /** Gives back bytes reserved earlier. */
    public void release(long bytes) {
        if (bytes > 0 && used.addAndGet(-bytes) < 0) {
            throw new IllegalStateException("released more than was reserved");
        }
    }

    public long capacity() {
        return capacity;
    }

    /** Bytes reserved now. */
    public long used() {
        return used.get();
    }

    /** Reservations refused since start: bodies that went to a file for want of memory. */
    public long refusals() {
        return refused.get();
    }
}
