package dev.cairn.backup.store;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An embedded store in a data directory laid out as the service keeps its own
 * ({@code cairn.data-dir}: the engine in {@link #ENGINE_DIR}), that no other process has open: a
 * restore destination the service can then be started on, a restore drill's scratch store, a
 * benchmark's source. Closing closes both.
 */
public final class EmbeddedStoreDir implements AutoCloseable {
    /** Where the service keeps the engine inside its data directory. */
    public static final String ENGINE_DIR = "engine";
    /** A file every engine directory holds: found at the top of a data directory, the engine is a level too high. */
    private static final String ENGINE_MARKER = "CURRENT";

    private final Engine engine;
    private final EmbeddedObjectStore store;

    private EmbeddedStoreDir(Engine engine, EmbeddedObjectStore store) {
        this.engine = engine;
        this.store = store;
    }

    /** Opens (creating when absent) the store of the data directory {@code dataDir}. */
    public static EmbeddedStoreDir open(Path dataDir) throws IOException {
        if (Files.exists(dataDir.resolve(ENGINE_MARKER))) {
            throw new IllegalArgumentException(dataDir + " holds an engine's files itself; give the service's data directory"
                    + " (cairn.data-dir), whose engine is in its " + ENGINE_DIR + "/ folder"
                    + (dataDir.getFileName() != null && dataDir.getFileName().toString().equals(ENGINE_DIR)
                    ? ": here " + dataDir.toAbsolutePath().getParent() : ""));
        }
        Engine engine = Engine.open(EngineOptions.builder(dataDir.resolve(ENGINE_DIR)).build());
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
