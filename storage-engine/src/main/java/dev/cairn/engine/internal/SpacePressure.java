package dev.cairn.engine.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the write thread tells {@link DeadValueReclaimer}: whether space is short (from a refused
 * write until one goes ahead with twice the reserve free), and how many deletes were committed.
 * While space is short, each refusal and each committed delete asks for a reclamation pass (at
 * most one queued at a time).
 *
 * <p>Thread-safe: the write thread reports, the compaction thread reads.
 */
final class SpacePressure {
    private final AtomicBoolean full = new AtomicBoolean();
    private final AtomicLong deletes = new AtomicLong();
    private final AtomicBoolean requested = new AtomicBoolean();
    private volatile Runnable requestPass = () -> { };

    /** How a pass is asked for (the compaction thread's queue). Set once, before writes. */
    void onPassWanted(Runnable requestPass) {
        this.requestPass = requestPass;
    }

    /** A write was refused: the disk is as full as the reserve allows. */
    void refused() {
        full.set(true);
        request();
    }

    /** A write that takes space went ahead with twice the reserve free: space is no longer short. */
    void admitted() {
        full.set(false);
    }

    /** {@code count} deletes were committed. */
    void deleted(int count) {
        if (count > 0) {
            deletes.addAndGet(count);
            if (full.get()) {
                request();
            }
        }
    }

    boolean full() {
        return full.get();
    }

    long deletes() {
        return deletes.get();
    }

    /** Called as a requested pass starts, so that later events ask again. */
    void passStarting() {
        requested.set(false);
    }

    /** Asks for a pass {@code nanos} from now (one that came too soon after the last). */
    void requestAfter(long nanos) {
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS).execute(this::request);
    }

    /** Asks for a run (at most one queued at a time). */
    void ask() {
        request();
    }

    private void request() {
        if (requested.compareAndSet(false, true)) {
            requestPass.run();
        }
    }
}
