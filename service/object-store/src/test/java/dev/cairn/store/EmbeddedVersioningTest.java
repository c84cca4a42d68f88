package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Versioning in the embedded store: the random walk of {@link VersionWalk} against a model,
 * checking after every step that reference counts are exact; and what old versions cost.
 */
class EmbeddedVersioningTest {
    @TempDir
    Path dir;
    private Engine engine;
    private EmbeddedObjectStore store;

    @BeforeEach
    void open() throws IOException {
        engine = Engine.open(options());
        store = new EmbeddedObjectStore(engine);
    }

    private EngineOptions options() {
        return EngineOptions.builder(dir.resolve("engine")).memtableBytes(4L << 20).build();
    }

    @AfterEach
    void close() throws IOException {
        engine.close();
    }

    private ObjectInfo put(String bucket, String key, String content) throws IOException {
        return VersionWalk.put(store, bucket, key, content);
    }

    private static String text(ObjectRead r) throws IOException {
        return VersionWalk.text(r);
    }

    @Test
    void versionIdsSortNewestFirstAndRoundTrip() {
        byte[] older = VersionId.sortAt(1_000_000);
        byte[] newer = VersionId.sortAt(1_000_001);
        String a = VersionId.encode(older);
        String b = VersionId.encode(newer);
        assertEquals(VersionId.CHARS, a.length());
        assertTrue(b.compareTo(a) < 0, b + " sorts before " + a);
        assertArrayEquals(older, VersionId.decode(a));
        assertEquals(1_000_000, VersionId.micros(older));
        assertTrue(a.matches("[-0-9A-Za-z_]{16}"));
        assertNull(VersionId.decode("null"));
        assertFalse(VersionId.isWellFormed("not a version"));
        assertTrue(VersionId.isWellFormed("null"));
    }

    @Test
    void aBucketNeverVersionedKeepsItsRowsAsBefore() throws IOException {
        store.createBucket("plain", BucketAcl.PRIVATE);
        ObjectInfo o = put("plain", "k", "one");
        assertNull(o.versionId());
        assertEquals(Versioning.UNVERSIONED, store.bucket("plain").versioning());
        assertNull(store.currentDeleteMarker("plain", "k"));
        ObjectVersion removed = store.deleteObjectVersion("plain", "k", null);
        assertFalse(removed.deleteMarker());
        assertNull(store.headObject("plain", "k"));
        assertTrue(store.audit().problems().isEmpty(), store.audit().problems().toString());
    }

    @Test
    void oldVersionsCostARowNotTheirBytes() throws IOException {
        store.createBucket("v", BucketAcl.PRIVATE);
        store.setBucketVersioning("v", Versioning.ENABLED);
        byte[] big = new byte[EmbeddedObjectStore.CHUNK_BYTES + 10];
        big[3] = 3;
        BytesContent c = BytesContent.of(big);
        ObjectInfo first = store.putObject(PutRequest.of("v", "big", c, c.md5()));
        put("v", "big", "small now");
        ObjectInfo third = store.putObject(PutRequest.of("v", "big", c, c.md5()));
        assertNotEquals(first.versionId(), third.versionId());
        EmbeddedObjectStore.AuditReport audit = store.audit();
        assertTrue(audit.problems().isEmpty(), audit.problems().toString());
        assertEquals(2, audit.contents(), "two distinct contents for three versions");
        try (ObjectRead r = store.getObjectVersion("v", "big", first.versionId()); InputStream in = r.open(0, r.size())) {
            assertArrayEquals(big, in.readAllBytes());
        }
        store.deleteObjectVersion("v", "big", third.versionId());
        assertEquals("small now", text(store.getObject("v", "big")));
        store.deleteObjectVersion("v", "big", first.versionId());
        audit = store.audit();
        assertTrue(audit.problems().isEmpty(), audit.problems().toString());
        assertEquals(1, audit.contents(), "the big content went with its last version");
        assertThrows(StoreException.class, () -> store.deleteBucket("v"));
    }

    @Test
    void randomWalkMatchesTheModel() throws IOException {
        VersionWalk walk = new VersionWalk(store, new VersionWalk.Hooks() {
            @Override
            public void extraStep() throws IOException {
                engine.flush();
            }

            @Override
            public List<String> problems() throws IOException {
                return store.audit().problems();
            }
        }, 1, 1);
        for (long seed = 1; seed <= 4; seed++) {
            walk.walk("walk" + seed, seed, 250);
        }
    }

    @Test
    void concurrentWritersOfOneKeyEachKeepTheirVersion() throws Exception {
        store.createBucket("race", BucketAcl.PRIVATE);
        store.setBucketVersioning("race", Versioning.ENABLED);
        int threads = 4;
        int each = 50;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<List<String>>> ids = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                ids.add(pool.submit(() -> {
                    List<String> mine = new ArrayList<>();
                    for (int i = 0; i < each; i++) {
                        if (i % 10 == 9) {
                            mine.add(store.deleteObjectVersion("race", "k", null).versionId());
                        } else {
                            mine.add(put("race", "k", "t" + thread + "-" + (i % 3)).versionId());
                        }
                    }
                    return mine;
                }));
            }
            java.util.Set<String> written = new java.util.HashSet<>();
            for (java.util.concurrent.Future<List<String>> f : ids) {
                written.addAll(f.get());
            }
            assertEquals(threads * each, written.size(), "every write has its own id");
            List<String> listed = new ArrayList<>();
            VersionPage page = store.listObjectVersions("race", new VersionQuery("", null, null, null, 1000));
            for (ObjectVersion v : page.versions()) {
                listed.add(v.versionId());
            }
            assertEquals(written, new java.util.HashSet<>(listed));
            List<String> sorted = new ArrayList<>(listed);
            sorted.sort(null);
            assertEquals(sorted, listed, "newest first is id order");
            assertTrue(page.versions().get(0).latest());
            assertTrue(store.audit().problems().isEmpty(), store.audit().problems().toString());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void delimiterRollsUpVersionsAndMarkers() throws IOException {
        store.createBucket("d", BucketAcl.PRIVATE);
        store.setBucketVersioning("d", Versioning.ENABLED);
        put("d", "p/x", "1");
        put("d", "p/x", "2");
        store.deleteObjectVersion("d", "q/y", null);
        put("d", "top", "3");
        VersionPage page = store.listObjectVersions("d", new VersionQuery("", "/", null, null, 10));
        assertEquals(List.of("p/", "q/"), page.commonPrefixes());
        assertEquals(1, page.versions().size());
        assertEquals("top", page.versions().get(0).key());
        VersionPage first = store.listObjectVersions("d", new VersionQuery("", "/", null, null, 1));
        assertTrue(first.truncated());
        assertEquals("p/", first.nextKeyMarker());
        VersionPage second = store.listObjectVersions("d", new VersionQuery("", "/", first.nextKeyMarker(), null, 1));
        assertEquals(List.of("q/"), second.commonPrefixes());
        VersionPage under = store.listObjectVersions("d", new VersionQuery("p/", "/", null, null, 10));
        assertEquals(2, under.versions().size());
        assertTrue(under.versions().get(0).latest());
        assertFalse(under.versions().get(1).latest());
    }
}
