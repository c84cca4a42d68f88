package dev.cairn.backup.store;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.store.embedded.DataDirLayout;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An embedded store in a data directory laid out as the service keeps its own
 * ({@code cairn.data-dir}, {@link DataDirLayout}), that no other process has open: a
 * restore destination the service can then be started on, a restore drill's scratch store, a
 * benchmark's source. Closing closes both.
 */
public final class EmbeddedStoreDir implements AutoCloseable {
    private final Engine engine;
    private final EmbeddedObjectStore store;

    private EmbeddedStoreDir(Engine engine, EmbeddedObjectStore store) {
        this.engine = engine;
        this.store = store;
    }

    /**
     * Opens (creating when absent) the store of the data directory {@code dataDir}; refuses one that
     * holds an engine's files itself ({@link DataDirLayout#check}).
     */
    public static EmbeddedStoreDir open(Path dataDir) throws IOException {
        DataDirLayout.check(dataDir);
        Engine engine = Engine.open(EngineOptions.builder(DataDirLayout.engineDir(dataDir)).build());
        try {
            return new EmbeddedStoreDir(engine, new EmbeddedObjectStore(engine));
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
        } finally {
            engine.close();
        }
    }
}
