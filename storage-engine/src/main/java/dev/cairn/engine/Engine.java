package dev.cairn.engine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Cairn's embedded storage engine: an LSM tree with a shared commit log, several named tables
 * (separate key spaces), and large values kept apart in append-only value files.
 *
 * <p>Thread-safety: every method may be called from many threads at once. Reads never wait on
 * writes, flushes or compactions. Writes wait only for their own durability (group commit) and,
 * when flushes fall behind, for a bounded stall ({@link EngineOptions#writeStallTimeout()}).
 */
public interface Engine extends AutoCloseable {

    /** Opens (or creates, if {@link EngineOptions#createIfMissing()}) the engine in its directory. */
    static Engine open(EngineOptions options) throws IOException {
        return dev.cairn.engine.internal.DbImpl.open(options);
    }

    /**
     * Opens an engine directory, typically a {@link #checkpoint checkpoint}, for reading alone.
     * Nothing in the directory is created, changed or deleted (no lock file, no new log, no
     * flush, compaction or manifest edit, no cache files), so several read-only opens may share
     * it; nothing may write it meanwhile. {@link Table#get} and {@link Table#scan} work as usual
     * (pass {@link ReadOptions#SCAN} to keep a traversal out of the block cache; there is no row
     * cache). {@link #write}, {@link #flush}, {@link #compactAll}, {@link #collectValueGarbage},
     * {@link #checkpoint} and row encoding throw {@link UnsupportedOperationException}. A table
     * the directory does not hold reads as empty. Only the directory, file system and tier
     * options are used.
     */
    static Engine openReadOnly(EngineOptions options) throws IOException {
        return dev.cairn.engine.internal.ReadOnlyDb.open(options);
    }

    /** The table of this name, created on first use. Names are 1..200 characters. */
    Table table(String name) throws IOException;

    /** Applies every operation of the batch atomically, across tables. */
    void write(WriteBatch batch) throws IOException;

    /** A consistent point-in-time view; close it to let compaction drop what it pins. */
    Snapshot snapshot();

    /**
     * Writes an openable copy of the engine's current state into {@code directory} (which must not
     * exist), hard-linking immutable files and copying the rest.
     */
    void checkpoint(Path directory) throws IOException;

    /** Flushes the memtable to an SSTable and waits for it. */
    void flush() throws IOException;

    /** Compacts everything down to the last level and waits (tests and tools). */
    void compactAll() throws IOException;

    /** Rewrites value files whose garbage ratio is at least {@code minGarbageRatio}; waits. */
    void collectValueGarbage(double minGarbageRatio) throws IOException;

    EngineStats stats();

    /** Flushes nothing, syncs the commit log, stops background work and releases the directory. */
    @Override
    void close() throws IOException;
}
