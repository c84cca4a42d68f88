package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.TieredCache;
import dev.cairn.engine.TieredCacheOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store contract on the service's Cassandra stack: the row cache over the Cassandra store,
 * against the local test cluster; and versioned keys read through two row caches over one
 * Cassandra store, every answer checked against the store's own.
 */
@Tag("integration")
class RowCachingCassandraObjectStoreContractTest extends CassandraObjectStoreContractTest {
    @TempDir
    Path dir;

    private ObjectStore cassandra;

    @Override
    protected ObjectStore open() throws IOException {
        cassandra = super.open();
        return cached(cassandra, "cache", true);
    }

    private RowCachingObjectStore cached(ObjectStore delegate, String name, boolean trusted) throws IOException {
        TieredCache cache = TieredCache.open(TieredCacheOptions.builder(dir.resolve(name)).memoryBytes(1 << 20).build());
        return new RowCachingObjectStore(delegate, cache, 64 << 10, trusted);
    }

    @Test
    void versionedKeysReadAsTheStoreAnswersOnEveryNodeAfterEveryKindOfChange() throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        ObjectStore shared = new ForwardingObjectStore(cassandra) {
            @Override
            public void close() {
            }
        };
        LocalInvalidationChannel channel = new LocalInvalidationChannel();
        List<RowCachingObjectStore> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                RowCachingObjectStore n = cached(shared, "node" + i, false);
                nodes.add(n);
                n.publishTo(channel);
                channel.reconnect(n);
            }
            long hits = new RowCacheVersionWalk(cassandra, nodes).walk("versioned", seed, 200);
            assertTrue(hits > 100, "seed " + seed + ": the cache answered " + hits + " reads");
        } finally {
            for (RowCachingObjectStore n : nodes) {
                n.close();
            }
        }
    }
}
