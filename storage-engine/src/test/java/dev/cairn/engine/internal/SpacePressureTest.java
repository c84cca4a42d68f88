package dev.cairn.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A pass asked for later runs on the engine's own timer, and closing the engine cancels it. */
class SpacePressureTest {
    @Test
    void aDelayedRequestRunsOnTheEnginesTimer() throws InterruptedException {
        SpacePressure pressure = new SpacePressure();
        BlockingQueue<String> threads = new ArrayBlockingQueue<>(4);
        pressure.onPassWanted(() -> threads.add(Thread.currentThread().getName()));
        try {
            pressure.requestAfter(TimeUnit.MILLISECONDS.toNanos(10));
            assertEquals("cairn-reclaim-timer", threads.poll(10, TimeUnit.SECONDS));
        } finally {
            pressure.close();
        }
    }

    @Test
    void closingCancelsADelayedRequest() throws InterruptedException {
        SpacePressure pressure = new SpacePressure();
        BlockingQueue<String> threads = new ArrayBlockingQueue<>(4);
        pressure.onPassWanted(() -> threads.add(Thread.currentThread().getName()));
        pressure.requestAfter(TimeUnit.MILLISECONDS.toNanos(200));
        pressure.close();
        assertNull(threads.poll(500, TimeUnit.MILLISECONDS), "a pass was asked for after close");
        pressure.requestAfter(0);
        assertNull(threads.poll(100, TimeUnit.MILLISECONDS), "a pass was asked for after close");
    }
}
