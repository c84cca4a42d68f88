package dev.cairn.engine.internal;

import java.util.concurrent.atomic.AtomicLong;

/** The engine's event counters reported by {@link dev.cairn.engine.Engine#stats()}. Thread-safe. */
final class EngineCounters {
    final AtomicLong userBytesWritten = new AtomicLong();
    final AtomicLong flushes = new AtomicLong();
    final AtomicLong compactions = new AtomicLong();
    final AtomicLong compactionBytesWritten = new AtomicLong();
    final AtomicLong valueGcRuns = new AtomicLong();
    final AtomicLong writeStalls = new AtomicLong();
}
