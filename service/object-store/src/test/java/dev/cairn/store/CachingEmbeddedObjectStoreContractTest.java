package dev.cairn.store;

import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.IOException;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;

/** The store contract on the service's embedded stack: the hot object cache over the embedded store on the real engine. */
class CachingEmbeddedObjectStoreContractTest extends ObjectStoreContractTest {
    private EngineProcess engine;

    @Override
    protected ObjectStore open() throws IOException {
        engine = new EngineProcess();
        return new CachingObjectStore(new EmbeddedObjectStore(engine.engine()), 1 << 20, 64 << 10);
    }

    @Override
    protected ObjectStore reopenedWith(Clock clock) throws IOException {
        store.close();
        return new CachingObjectStore(new EmbeddedObjectStore(engine.engine(), clock), 1 << 20, 64 << 10);
    }

    @AfterEach
    void closeEngine() throws IOException {
        if (engine != null) {
            engine.close();
        }
    }
}
