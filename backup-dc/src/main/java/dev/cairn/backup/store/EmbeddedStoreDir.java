package dev.cairn.backup.store;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An embedded store on its own engine in a directory that no other process has open: a restore
 * destination, a restore drill's scratch store, a benchmark's source. Closing closes both.
 */
public final class EmbeddedStoreDir implements AutoCloseable {
    private final Engine engine;
    private final EmbeddedObjectStore store;

    private EmbeddedStoreDir(Engine engine, EmbeddedObjectStore store) {
        this.engine = engine;
        this.store = store;
    }

    public static EmbeddedStoreDir open(Path directory) throws IOException {
        Engine engine = Engine.open(EngineOptions.builder(directory).build());
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
