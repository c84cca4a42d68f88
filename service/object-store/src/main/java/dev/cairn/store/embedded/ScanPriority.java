package dev.cairn.store.embedded;

import dev.cairn.engine.fs.ThreadPriority;

/**
 * The priority a full traversal of a store runs at, so that a backup on the service's host uses
 * only what serving leaves: {@link #IDLE} is the idle I/O class, the idle CPU scheduling class and
 * nice 19 (Linux; elsewhere, or where refused, nothing changes and the engine logs it once).
 */
public enum ScanPriority {
    /** As the thread is. */
    NORMAL,
    /** Idle I/O and CPU. */
    IDLE;

    /** Puts the calling thread at this priority; a thread made by it inherits it. */
    public void applyToCurrentThread() {
        if (this == IDLE) {
            ThreadPriority.idleCurrentThread();
        }
    }

    /**
     * Puts every thread the process has now at this priority — the JVM's compiler and collector
     * threads too — and, by inheritance, the threads made after: for a process whose every
     * instruction must only use what serving leaves.
     */
    public void applyToWholeProcess() {
        if (this == IDLE) {
            ThreadPriority.idleWholeProcess();
        }
    }
}
