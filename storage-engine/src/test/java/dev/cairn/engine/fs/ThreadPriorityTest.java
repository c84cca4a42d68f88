package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A thread idles itself alone: its I/O class and CPU policy change, another thread's do not. */
class ThreadPriorityTest {
    @Test
    void idlingChangesTheCallingThreadOnly() throws Exception {
        assumeTrue(ThreadPriority.currentCpuPolicy() >= 0, "thread priorities need Linux with libc");
        assumeTrue(!ThreadPriority.currentThreadIsIdle() && ThreadPriority.currentIoClass() != ThreadPriority.IOPRIO_CLASS_IDLE,
                "the test runs at normal priority, so that a change shows");
        AtomicReference<String> idled = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                assertFalse(ThreadPriority.currentThreadIsIdle());
                assumeTrue(ThreadPriority.idleCurrentThread(), "this machine lets a thread idle itself");
                idled.set(ThreadPriority.currentIoClass() + "/" + ThreadPriority.currentCpuPolicy() + "/"
                        + ThreadPriority.currentThreadIsIdle());
                assertTrue(ThreadPriority.idleCurrentThread(), "a second call is a no-op that reports success");
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.start();
        t.join();
        if (failure.get() instanceof org.opentest4j.TestAbortedException aborted) {
            throw aborted;
        }
        assertNull(failure.get());
        assertEquals(ThreadPriority.IOPRIO_CLASS_IDLE + "/" + ThreadPriority.SCHED_IDLE + "/true", idled.get());
        assertFalse(ThreadPriority.currentThreadIsIdle(), "the test's own thread keeps its class");
        assertTrue(ThreadPriority.currentIoClass() != ThreadPriority.IOPRIO_CLASS_IDLE);
    }
}
