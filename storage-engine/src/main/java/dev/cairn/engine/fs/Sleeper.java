package dev.cairn.engine.fs;

import java.util.concurrent.locks.LockSupport;

/** Waits for simulated device time; injected so that tests need not really wait. */
@FunctionalInterface
public interface Sleeper {

    /** Parks the calling thread for at least {@code nanos} nanoseconds, or until interrupted. */
    Sleeper SYSTEM = nanos -> {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted during simulated device time");
            }
        }
    };

    void sleep(long nanos) throws InterruptedException;
}
