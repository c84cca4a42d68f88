package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.TieredCache;
import dev.cairn.engine.TieredCacheOptions;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSettings;
import dev.cairn.store.cassandra.LocalCassandraCluster;
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

    /**
     * Two nodes, each with its own Cassandra store and so its own copy of the bucket, kept for an
     * hour: a node names a row written before versioning {@code null} as soon as it hears of the
     * change, cached or not.
     */
    @Test
    void aVersioningChangeReachesTheOtherNodesCopyOfTheBucket() throws IOException {
        CassandraSettings settings = LocalCassandraCluster.settings("contract");
        settings.setBucketCacheTtl(java.time.Duration.ofHours(1));
        LocalInvalidationChannel channel = new LocalInvalidationChannel();
        List<RowCachingObjectStore> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                RowCachingObjectStore n = cached(new CassandraObjectStore(LocalCassandraCluster.sharedSession(), false,
                        settings), "own" + i, false);
                nodes.add(n);
                n.publishTo(channel);
                channel.reconnect(n);
            }
            RowCachingObjectStore a = nodes.get(0);
            RowCachingObjectStore b = nodes.get(1);
            a.createBucket("copies", BucketAcl.PRIVATE);
            BytesContent c = BytesContent.of("before");
            a.putObject(PutRequest.of("copies", "k", c, c.md5()));
            a.putObject(PutRequest.of("copies", "uncached", c, c.md5()));
            assertNull(b.headObject("copies", "k").versionId());
            assertNull(b.headObject("copies", "k").versionId());
            long hits = b.cacheStats().rowHits();
            a.setBucketVersioning("copies", Versioning.ENABLED);
            assertEquals(VersionId.NULL, b.headObject("copies", "k").versionId());
            assertEquals(hits + 1, b.cacheStats().rowHits(), "the row stayed cached");
            channel.cutOff(b);
            assertEquals(VersionId.NULL, b.headObject("copies", "uncached").versionId(), "read from the store");
        } finally {
            for (RowCachingObjectStore n : nodes) {
                n.close();
            }
        }
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
