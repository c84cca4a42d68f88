package dev.cairn.store.embedded;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.SyncPolicy;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An embedded store in a directory that no other process has open, with the engine under it:
 * a restore destination the service can then be started on, a restore drill's scratch store, a
 * benchmark's source. Closing closes both.
 */
public final class EmbeddedStoreDir implements AutoCloseable {
    private final Engine engine;
    private final EmbeddedObjectStore store;
    private final boolean flushOnClose;

    private EmbeddedStoreDir(Engine engine, EmbeddedObjectStore store, boolean flushOnClose) {
        this.engine = engine;
        this.store = store;
        this.flushOnClose = flushOnClose;
    }

    /**
     * Opens (creating when absent) the store of the data directory {@code dataDir}, laid out as the
     * service keeps its own ({@code cairn.data-dir}, {@link DataDirLayout}); refuses one that holds
     * an engine's files itself ({@link DataDirLayout#check}).
     */
    public static EmbeddedStoreDir open(Path dataDir) throws IOException {
        DataDirLayout.check(dataDir);
        return open(EngineOptions.builder(DataDirLayout.engineDir(dataDir)).build(), false);
    }

    /**
     * Opens (creating when absent) a store whose engine is {@code engineDir} itself, for loading
     * many objects fast: writes are synced periodically rather than each, so a crash may lose the
     * last of them. Closing flushes, so that the directory then reads as a checkpoint does
     * ({@link CheckpointScan}, which then replays no log).
     */
    public static EmbeddedStoreDir openForBulkLoad(Path engineDir) throws IOException {
        return open(EngineOptions.builder(engineDir).syncPolicy(SyncPolicy.PERIODIC).build(), true);
    }

    private static EmbeddedStoreDir open(EngineOptions options, boolean flushOnClose) throws IOException {
        Engine engine = Engine.open(options);
        try {
            return new EmbeddedStoreDir(engine, new EmbeddedObjectStore(engine), flushOnClose);
        } catch (IOException | RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    public EmbeddedObjectStore store() {
        return store;
    }

    @Override
    public void close() throws IOException {
        try {
            store.close();
            if (flushOnClose) {
                engine.flush();
            }
        } finally {
            engine.close();
        }
    }
}
