package dev.cairn.loadtest.bench;

import dev.cairn.engine.fs.Sleeper;

/**
 * A {@link Sleeper} that waits out simulated device time only while switched on, so that a
 * benchmark can build and warm its stores at full speed and simulate the slow device only while
 * it measures. Thread-safety: thread-safe; a switch applies to requests that start after it.
 */
final class SwitchableSleeper implements Sleeper {
    private volatile boolean on;

    void on(boolean value) {
        on = value;
    }

    @Override
    public void sleep(long nanos) throws InterruptedException {
        if (on) {
            Sleeper.SYSTEM.sleep(nanos);
        }
    }
}
