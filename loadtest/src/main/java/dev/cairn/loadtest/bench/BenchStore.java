package dev.cairn.loadtest.bench;

import dev.cairn.engine.fs.IoCounters;
import java.io.IOException;

/**
 * One key-value store under benchmark, seen only through what the workload needs.
 *
 * <p>Thread-safety: {@link #put} and {@link #get} are called from many threads at once; the
 * other methods from one thread while no puts or gets run.
 */
interface BenchStore extends AutoCloseable {

    /** Durable when it returns. */
    void put(byte[] key, byte[] value) throws IOException;

    /** The value, or null when absent. */
    byte[] get(byte[] key) throws IOException;

    /** Writes the memtable out and waits for it. */
    void flush() throws IOException;

    /** The store's own space reclamation pass: full compaction and value-file garbage collection. */
    void compactAndCollectGarbage() throws IOException;

    /** Memory held for SSTable indexes and filters. */
    long indexAndFilterBytes() throws IOException;

    /** The FileSystem-level counters, or null when the store does its I/O out of sight. */
    IoCounters fileSystemCounts();

    @Override
    void close() throws IOException;
}
