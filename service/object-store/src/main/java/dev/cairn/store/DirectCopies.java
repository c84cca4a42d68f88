package dev.cairn.store;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Off-heap copies of cached objects, within a budget that counts each copy until its memory is
 * freed. A socket takes a direct buffer's bytes as they are; a heap array's the JDK first copies
 * into a temporary direct buffer on every write. A direct buffer is freed only when the collector
 * finds it unreachable (every answer that shares it done, its entry evicted), so the count goes
 * down only then, through a {@link Cleaner}: when copies evicted but not yet collected fill the
 * budget, new entries stay on the heap. Thread-safe.
 */
final class DirectCopies {
    private static final Cleaner FREED = Cleaner.create();

    private final long budget;
    private final AtomicLong live = new AtomicLong();
    /** Set when the JVM's own direct-memory limit refused a copy: from then on, none is made. */
    private volatile boolean refused;

    DirectCopies(long budget) {
        this.budget = budget;
    }

    /** A budget of {@code capacity}, at most half of what the JVM allows: the rest is Jetty's and the JDK's. */
    static DirectCopies within(long capacity) {
        return new DirectCopies(Math.min(capacity, jvmDirectLimit() / 2));
    }

    /** {@code -XX:MaxDirectMemorySize}, or the heap's maximum, the JVM's default for it. */
    static long jvmDirectLimit() {
        try {
            String set = java.lang.management.ManagementFactory
                    .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                    .getVMOption("MaxDirectMemorySize").getValue();
            long bytes = Long.parseLong(set);
            if (bytes > 0) {
                return bytes;
            }
        } catch (RuntimeException | LinkageError e) {
            // Not a HotSpot JVM: assume its default.
        }
        return Runtime.getRuntime().maxMemory();
    }

    /** A read-only off-heap copy of {@code bytes}; null when it does not fit the budget. */
    ByteBuffer copyOf(byte[] bytes) {
        int n = bytes.length;
        if (n == 0 || refused) {
            return null;
        }
        if (live.addAndGet(n) > budget) {
            live.addAndGet(-n);
            return null;
        }
        ByteBuffer copy;
        try {
            copy = ByteBuffer.allocateDirect(n);
        } catch (OutOfMemoryError e) {
            // -XX:MaxDirectMemorySize below the cache's budget: the JVM collected and waited in vain.
            live.addAndGet(-n);
            refused = true;
            return null;
        }
        copy.put(bytes).flip();
        AtomicLong counted = live;
        FREED.register(copy, () -> counted.addAndGet(-n));
        // Views (read-only, slices) keep the buffer they view reachable: freed after the last.
        return copy.asReadOnlyBuffer();
    }

    /** Bytes of copies not yet freed, cached or not. */
    long liveBytes() {
        return live.get();
    }
}
