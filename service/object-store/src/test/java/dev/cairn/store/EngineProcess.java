package dev.cairn.store;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.fs.FaultInjectingFileSystem;
import dev.cairn.engine.fs.FaultRule;
import dev.cairn.engine.fs.FsOp;
import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The real engine on an in-memory file system, as one process. It can die: after
 * {@link #dieAfterWrites} a commit-log sync fails, which stops the engine accepting writes, and
 * {@link #restart} opens a new engine on what had been synced, as after power loss. Or, opened
 * {@link #stalling()}, it can refuse writes for a while without dying, as a write stall does.
 */
final class EngineProcess implements AutoCloseable {
    private static final Path DIRECTORY = Path.of("/engine");
    /**
     * A write stalled this long is refused; long enough that flushes of live writes never take it,
     * also when four writers queue behind one-chunk flushes on a loaded machine. Each refusal a
     * test places costs this long.
     */
    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(5);

    private final boolean stalling;
    private MemFileSystem disk = new MemFileSystem();
    private FaultInjectingFileSystem faults;
    private FlushGate flushes;
    private Engine engine;

    private EngineProcess(boolean stalling) throws IOException {
        this.stalling = stalling;
        start();
    }

    EngineProcess() throws IOException {
        this(false);
    }

    /**
     * Values as large as a chunk are held in a memtable of their own and at most one memtable
     * waits for its flush, so that {@link #refuseWritesAfterChunks} can place the refusal.
     */
    static EngineProcess stalling() throws IOException {
        return new EngineProcess(true);
    }

    private void start() throws IOException {
        faults = new FaultInjectingFileSystem(disk);
        flushes = new FlushGate(faults);
        EngineOptions.Builder options = EngineOptions.builder(DIRECTORY).fileSystem(flushes).memtableBytes(4L << 20);
        if (stalling) {
            options.memtableBytes(EmbeddedObjectStore.CHUNK_BYTES / 2)
                    .valueThreshold(2 * EmbeddedObjectStore.CHUNK_BYTES)
                    .maxImmutableMemtables(1)
                    .compactionBytesPerSecond(0)
                    .writeStallTimeout(STALL_TIMEOUT);
        }
        engine = Engine.open(options.build());
    }

    Engine engine() {
        return engine;
    }

    /** The next {@code writes} engine writes (single-threaded: one commit-log sync each) succeed, the one after fails. */
    void dieAfterWrites(long writes) {
        faults.inject(FaultRule.on(FsOp.SYNC)
                .matching(p -> p.getFileName().toString().matches("\\d+\\.log"))
                .afterSucceeding(writes)
                .always());
    }

    /**
     * Single-threaded writes succeed up to the {@code chunkWrites}-th write of a chunk (1 or 2);
     * every later one stalls and is refused until {@link #resumeWrites()}. The engine stays open.
     */
    void refuseWritesAfterChunks(int chunkWrites) throws IOException {
        if (!stalling || chunkWrites < 1 || chunkWrites > 2) {
            throw new IllegalArgumentException("needs a stalling engine and 1 or 2 chunk writes: " + chunkWrites);
        }
        engine.flush();
        flushes.shut();
        if (chunkWrites == 1) {
            // A full memtable: the next write moves it aside, the first chunk fills the next one.
            engine.table("ballast").put(new byte[] {1}, new byte[EmbeddedObjectStore.CHUNK_BYTES]);
        }
    }

    void resumeWrites() {
        flushes.open();
    }

    /** A new process: the old engine is abandoned and a new one opened on the synced state only. */
    Engine restart() throws IOException {
        MemFileSystem survived = disk.crashClone();
        closeQuietly();
        disk = survived;
        start();
        return engine;
    }

    /** Rows in {@code table}. */
    long size(String table) throws IOException {
        long n = 0;
        try (EntryIterator it = engine.table(table).scan(KeyRange.all())) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException dead) {
            // a process that died does not close cleanly; what it synced is what survives
        }
    }

    @Override
    public void close() throws IOException {
        flushes.open();
        engine.close();
    }
}
