package dev.cairn.engine.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reference count that starts at one and runs {@code onDeath} once when it drops to zero;
 * once dead it cannot be revived ({@link #tryRef} fails), so a reader racing the last release
 * simply retries with the newer object.
 */
final class RefCount {
    private final AtomicInteger refs = new AtomicInteger(1);
    private final Runnable onDeath;

    RefCount(Runnable onDeath) {
        this.onDeath = onDeath;
    }

    boolean tryRef() {
        while (true) {
            int r = refs.get();
            if (r <= 0) {
                return false;
            }
            if (refs.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    void unref() {
        if (refs.decrementAndGet() == 0) {
            onDeath.run();
        }
    }
}
