package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.TieredCache;
import dev.cairn.engine.TieredCacheOptions;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The row cache in front of a shared store: the store's contract on one node, and on several
 * nodes sharing one in-memory store with an in-process invalidation channel, every read checked
 * against a model of the last acknowledged writes; versioned buckets on several nodes sharing one
 * embedded store, every read checked against the store's own answer.
 */
class RowCachingObjectStoreTest extends ObjectStoreContractTest {
    @TempDir
    Path dir;

    private final List<RowCachingObjectStore> nodes = new ArrayList<>();
    private Engine engine;

    @Override
    protected ObjectStore open() throws IOException {
        return node(new InMemoryObjectStore(), true);
    }

    private RowCachingObjectStore node(ObjectStore shared, boolean trusted) throws IOException {
        TieredCache cache = TieredCache.open(TieredCacheOptions.builder(dir.resolve("n" + nodes.size()))
                .memoryBytes(1 << 20).build());
        RowCachingObjectStore n = new RowCachingObjectStore(shared, cache, 64 << 10, trusted);
        nodes.add(n);
        return n;
    }

    private List<RowCachingObjectStore> cluster(ObjectStore shared, LocalInvalidationChannel channel, int size) throws IOException {
        List<RowCachingObjectStore> list = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            RowCachingObjectStore n = node(shared, false);
            n.publishTo(channel);
            channel.reconnect(n);
            list.add(n);
        }
        return list;
    }

    /** The store with its calls counted by method name, getObject held at {@code gate} once armed. */
    private static final class Instrumented {
        final AtomicInteger gets = new AtomicInteger();
        final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        volatile CountDownLatch readDone;
        volatile CountDownLatch gate;
        final ObjectStore store;

        Instrumented(ObjectStore delegate) {
            store = (ObjectStore) Proxy.newProxyInstance(ObjectStore.class.getClassLoader(),
                    new Class<?>[] {ObjectStore.class}, (proxy, method, args) -> {
                        Object result;
                        try {
                            result = method.invoke(delegate, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                        calls.computeIfAbsent(method.getName(), m -> new AtomicInteger()).incrementAndGet();
                        if (method.getName().equals("getObject")) {
                            gets.incrementAndGet();
                            CountDownLatch g = gate;
                            if (g != null) {
                                gate = null;
                                readDone.countDown();
                                g.await(10, TimeUnit.SECONDS);
                            }
                        }
                        return result;
                    });
        }
    }

    private static void put(ObjectStore s, String key, byte[] bytes) throws IOException {
        BytesContent c = BytesContent.of(bytes);
        s.putObject(PutRequest.of("b", key, c, c.md5()));
    }

    private static byte[] read(ObjectStore s, String key) throws IOException {
        try (ObjectRead r = s.getObject("b", key)) {
            if (r == null) {
                return null;
            }
            try (InputStream in = r.open(0, r.size())) {
                return in.readAllBytes();
            }
        }
    }

    @AfterEach
    void closeNodes() throws IOException {
        for (RowCachingObjectStore n : nodes) {
            if (n != store) {
                n.close();
            }
        }
        if (engine != null) {
            engine.close();
        }
    }

    /** An embedded store (which keeps versions) that the nodes over it share and do not close. */
    private ObjectStore sharedVersionedStore() throws IOException {
        engine = Engine.open(EngineOptions.builder(dir.resolve("engine")).memtableBytes(4L << 20).build());
        return new ForwardingObjectStore(new EmbeddedObjectStore(engine)) {
            @Override
            public void close() {
            }
        };
    }

    @Test
    void versionedKeysReadAsTheStoreAnswersOnEveryNodeAfterEveryKindOfChange() throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        ObjectStore shared = sharedVersionedStore();
        LocalInvalidationChannel channel = new LocalInvalidationChannel();
        List<RowCachingObjectStore> cluster = cluster(shared, channel, 3);
        long hits = new RowCacheVersionWalk(shared, cluster).walk("b", seed, 400);
        assertTrue(hits > 1000, "seed " + seed + ": the cache answered " + hits + " reads");
    }

    @Test
    void theCurrentVersionOfAVersionedKeyIsAnsweredWithoutTheStore() throws IOException {
        Instrumented shared = new Instrumented(sharedVersionedStore());
        RowCachingObjectStore n = node(shared.store, true);
        n.createBucket("b", BucketAcl.PRIVATE);
        n.setBucketVersioning("b", Versioning.ENABLED);
        BytesContent c = BytesContent.of("one");
        ObjectInfo written = n.putObject(PutRequest.of("b", "k", c, c.md5()));
        assertEquals(VersionId.CHARS, written.versionId().length());
        assertArrayEquals("one".getBytes(), read(n, "k"));
        int storeCalls = storeReads(shared);
        try (ObjectRead r = n.getObject("b", "k")) {
            assertEquals(written.versionId(), r.info().versionId());
        }
        assertEquals(written.versionId(), n.headObject("b", "k").versionId());
        assertNull(n.currentDeleteMarker("b", "k"));
        assertEquals(storeCalls, storeReads(shared), "a cached version was read from the store");

        ObjectVersion marker = n.deleteObjectVersion("b", "k", null);
        assertTrue(marker.deleteMarker());
        assertNull(n.getObject("b", "k"));
        assertEquals(marker.versionId(), n.currentDeleteMarker("b", "k").versionId());
        storeCalls = storeReads(shared);
        assertNull(n.getObject("b", "k"));
        assertNull(n.headObject("b", "k"));
        ObjectVersion cachedMarker = n.currentDeleteMarker("b", "k");
        assertEquals(marker.versionId(), cachedMarker.versionId());
        assertEquals(marker.lastModified(), cachedMarker.lastModified());
        assertEquals(storeCalls, storeReads(shared), "a cached delete marker was read from the store");

        n.deleteObjectVersion("b", "k", marker.versionId());
        assertEquals(written.versionId(), n.headObject("b", "k").versionId(), "the version made current again");
        assertNull(n.currentDeleteMarker("b", "k"));
    }

    private static int storeReads(Instrumented s) {
        int sum = 0;
        for (String m : List.of("getObject", "headObject", "currentDeleteMarker")) {
            AtomicInteger c = s.calls.get(m);
            sum += c == null ? 0 : c.get();
        }
        return sum;
    }

    @Test
    void aVersioningChangeThatCouldNotBeAnnouncedIsReportedAsUnavailable() throws IOException {
        ObjectStore shared = sharedVersionedStore();
        LocalInvalidationChannel channel = new LocalInvalidationChannel();
        RowCachingObjectStore a = cluster(shared, channel, 1).get(0);
        a.createBucket("b", BucketAcl.PRIVATE);
        channel.failing = true;
        assertThrows(StoreUnavailableException.class, () -> a.setBucketVersioning("b", Versioning.ENABLED));
        assertEquals(Versioning.ENABLED, shared.bucket("b").versioning(), "the change itself was stored");
    }

    @Test
    void aCachedRowWrittenWithoutVersionIsNamedNullOnceItsBucketIsVersionedElsewhere() throws IOException {
        ObjectStore shared = sharedVersionedStore();
        LocalInvalidationChannel channel = new LocalInvalidationChannel();
        List<RowCachingObjectStore> cluster = cluster(shared, channel, 2);
        RowCachingObjectStore a = cluster.get(0);
        RowCachingObjectStore b = cluster.get(1);
        a.createBucket("b", BucketAcl.PRIVATE);
        put(a, "k", "one".getBytes());
        assertNull(b.headObject("b", "k").versionId());
        assertNull(b.headObject("b", "k").versionId());
        long hits = b.cacheStats().rowHits();
        a.setBucketVersioning("b", Versioning.SUSPENDED);
        assertEquals(VersionId.NULL, b.headObject("b", "k").versionId());
        try (ObjectRead r = b.getObject("b", "k")) {
            assertEquals(VersionId.NULL, r.info().versionId());
        }
        assertEquals(hits + 2, b.cacheStats().rowHits(), "the row stayed cached");
    }

    @Test
    void aRepeatedGetIsAnsweredWithoutTheStore() throws IOException {
        Instrumented shared = new Instrumented(new InMemoryObjectStore());
        RowCachingObjectStore n = node(shared.store, true);
        n.createBucket("b", BucketAcl.PRIVATE);
        put(n, "k", "one".getBytes());
        assertArrayEquals("one".getBytes(), read(n, "k"));
        int afterFirst = shared.gets.get();
        assertArrayEquals("one".getBytes(), read(n, "k"));
        assertEquals("one".length(), n.headObject("b", "k").size());
        assertEquals(afterFirst, shared.gets.get(), "a cached object was read from the store");
        RowCachingObjectStore.Stats s = n.cacheStats();
        assertEquals(2, s.rowHits());
        assertEquals(1, s.contentHits());
    }

    @Test
    void everyNodeReadsTheLastAcknowledgedWrite() throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        Random random = new Random(seed);
        LocalInvalidationChannel channel = new LocalInvalidationChannel();
        List<RowCachingObjectStore> cluster = cluster(new InMemoryObjectStore(), channel, 3);
        cluster.get(0).createBucket("b", BucketAcl.PRIVATE);
        Map<String, byte[]> model = new HashMap<>();
        for (int op = 0; op < 3000; op++) {
            RowCachingObjectStore n = cluster.get(random.nextInt(cluster.size()));
            String key = "k" + random.nextInt(8);
            int choice = random.nextInt(10);
            if (choice == 0) {
                n.deleteObject("b", key);
                model.remove(key);
            } else if (choice < 3) {
                byte[] bytes = ("v" + op + "-" + random.nextInt()).getBytes();
                put(n, key, bytes);
                model.put(key, bytes);
            } else if (choice < 5) {
                ObjectInfo head = n.headObject("b", key);
                byte[] expected = model.get(key);
                assertEquals(expected == null ? null : BytesContent.of(expected).sha256(),
                        head == null ? null : head.sha256(), "seed " + seed + " op " + op + " head " + key);
            } else {
                assertArrayEquals(model.get(key), read(n, key), "seed " + seed + " op " + op + " get " + key);
            }
        }
        long hits = cluster.stream().mapToLong(n -> n.cacheStats().rowHits()).sum();
        assertTrue(hits > 0, "the cache was never used");
    }

    @Test
    void aReadThatFetchedTheOldRowBeforeAnotherNodesWriteDoesNotCacheIt() throws Exception {
        Instrumented shared = new Instrumented(new InMemoryObjectStore());
        LocalInvalidationChannel channel = new LocalInvalidationChannel();
        List<RowCachingObjectStore> cluster = cluster(shared.store, channel, 2);
        RowCachingObjectStore a = cluster.get(0);
        RowCachingObjectStore b = cluster.get(1);
        a.createBucket("b", BucketAcl.PRIVATE);
        put(a, "k", "old".getBytes());

        shared.readDone = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        shared.gate = release;
        CompletableFuture<byte[]> slowRead = CompletableFuture.supplyAsync(() -> {
            try {
                return read(b, "k");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertTrue(shared.readDone.await(10, TimeUnit.SECONDS));
        put(a, "k", "new".getBytes());
        release.countDown();
        assertArrayEquals("old".getBytes(), slowRead.get(10, TimeUnit.SECONDS), "it read before the write");
        assertArrayEquals("new".getBytes(), read(b, "k"), "the old row was cached after the invalidation");
    }

    @Test
    void aNodeCutOffFromTheChannelStopsServingCachedRowsUntilItIsBack() throws IOException {
        LocalInvalidationChannel channel = new LocalInvalidationChannel();
        List<RowCachingObjectStore> cluster = cluster(new InMemoryObjectStore(), channel, 2);
        RowCachingObjectStore a = cluster.get(0);
        RowCachingObjectStore b = cluster.get(1);
        a.createBucket("b", BucketAcl.PRIVATE);
        put(a, "k", "one".getBytes());
        assertArrayEquals("one".getBytes(), read(b, "k"));
        assertArrayEquals("one".getBytes(), read(b, "k"));
        assertEquals(1, b.cacheStats().rowHits());

        channel.cutOff(b);
        assertFalse(b.cacheStats().trusted());
        put(a, "k", "two".getBytes());
        assertArrayEquals("two".getBytes(), read(b, "k"), "served a row cached before the channel was lost");
        channel.reconnect(b);
        put(a, "other", "x".getBytes());
        assertArrayEquals("two".getBytes(), read(b, "k"), "served a row cached before the gap");
        assertEquals("two".length(), b.headObject("b", "k").size());
    }

    @Test
    void aWriteWhoseInvalidationCouldNotBeSentIsReportedAsUnavailable() throws IOException {
        LocalInvalidationChannel channel = new LocalInvalidationChannel();
        List<RowCachingObjectStore> cluster = cluster(new InMemoryObjectStore(), channel, 2);
        RowCachingObjectStore a = cluster.get(0);
        a.createBucket("b", BucketAcl.PRIVATE);
        put(a, "k", "one".getBytes());
        channel.failing = true;
        assertThrows(StoreUnavailableException.class, () -> put(a, "k", "two".getBytes()));
        channel.failing = false;
        assertArrayEquals("two".getBytes(), read(a, "k"), "the write itself was stored");
        assertThrows(StoreException.class, () -> a.putObject(PutRequest.of("missing", "k", BytesContent.of("x"), null)));
    }

    @Test
    void anUntrustedNodeAnswersFromTheStore() throws IOException {
        InMemoryObjectStore shared = new InMemoryObjectStore();
        RowCachingObjectStore n = node(shared, false);
        n.createBucket("b", BucketAcl.PRIVATE);
        put(n, "k", "one".getBytes());
        assertArrayEquals("one".getBytes(), read(n, "k"));
        put(shared, "k", "two".getBytes());
        assertArrayEquals("two".getBytes(), read(n, "k"));
        assertEquals(0, n.cacheStats().rowHits() + n.cacheStats().rowMisses());
        assertNull(n.headObject("b", "absent"));
    }
}
