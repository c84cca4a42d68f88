package dev.cairn.engine.internal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the write thread tells {@link DeadValueReclaimer}: whether space is short (from a refused
 * write until one goes ahead with twice the reserve free), and how many deletes were committed.
 * While space is short, each refusal and each committed delete asks for a reclamation pass (at
 * most one queued at a time).
 *
 * <p>Thread-safe: the write thread reports, the compaction thread reads. {@link #close} stops
 * its timer (whose thread starts with the first delayed request).
 */
final class SpacePressure {
    private final AtomicBoolean full = new AtomicBoolean();
    private final AtomicLong deletes = new AtomicLong();
    private final AtomicBoolean requested = new AtomicBoolean();
    private final ScheduledExecutorService timer = Executors2.newScheduled("cairn-reclaim-timer");
    private volatile Runnable requestPass = () -> { };
    private ScheduledFuture<?> delayed;

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
    synchronized void requestAfter(long nanos) {
        if (timer.isShutdown() || delayed != null && !delayed.isDone()) {
            return;
        }
        delayed = timer.schedule(this::request, nanos, TimeUnit.NANOSECONDS);
    }

    /** Cancels a delayed request and stops the timer. */
    synchronized void close() {
        timer.shutdownNow();
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
