package dev.cairn.store.cassandra;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.CompleteRequest;
import dev.cairn.store.CompletedPart;
import dev.cairn.store.ContentRead;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreException;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionPage;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.VersionWalk;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Versioning on the Cassandra store (docs/cassandra-internals.md, "Versioning"): the random walk the
 * embedded store runs, with the audit and a sweep in it; what old versions cost; that no content
 * a version holds is reclaimed, by settling or by a sweep; racing writers of one key. Its own
 * keyspace: the audit reads whole tables.
 */
@Tag("integration")
class CassandraVersioningTest {
    private static final String KEYSPACE = "versiontest";
    private static CassandraObjectStore store;

    @BeforeAll
    static void open() {
        store = TestKeyspace.of(KEYSPACE).store();
    }

    @AfterAll
    static void close() {
        store.close();
    }

    private static String unique(String stem) {
        return stem + "-" + Long.toHexString(System.nanoTime());
    }

    private static List<String> problems() throws IOException {
        try {
            store.awaitSettled();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return store.audit().problems();
    }

    private static byte[] bytes(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] read(ObjectRead r) throws IOException {
        try (r; InputStream in = r.open(0, r.size())) {
            return in.readAllBytes();
        }
    }

    @Test
    void randomWalkMatchesTheModel() throws IOException {
        VersionWalk walk = new VersionWalk(store, new VersionWalk.Hooks() {
            @Override
            public void extraStep() throws IOException {
                List<String> before = problems();
                assertTrue(before.isEmpty(), before.toString());
                // Releases what no row holds; a version's reference is held by its row.
                store.sweep(Duration.ZERO);
            }

            @Override
            public List<String> problems() throws IOException {
                return CassandraVersioningTest.problems();
            }
        }, 4, 20);
        walk.walk(unique("walk"), 1, 40);
    }

    @Test
    void oldVersionsCostARowNotTheirBytesAndKeepTheirContent() throws Exception {
        String bucket = unique("cost");
        store.createBucket(bucket, BucketAcl.PRIVATE);
        store.setBucketVersioning(bucket, Versioning.ENABLED);
        byte[] big = bytes(CassandraSchema.CHUNK_BYTES + 10, System.nanoTime());
        BytesContent c = BytesContent.of(big);
        int versionsBefore = store.audit().versions();
        ObjectInfo first = store.putObject(PutRequest.of(bucket, "big", c, c.md5()));
        ObjectInfo second = VersionWalk.put(store, bucket, "big", "small now");
        ObjectInfo third = store.putObject(PutRequest.of(bucket, "big", c, c.md5()));
        assertEquals(3, Set.of(first.versionId(), second.versionId(), third.versionId()).size());
        assertEquals(first.versionId(), store.objectVersion(bucket, "big", first.versionId()).versionId());
        List<String> found = problems();
        assertTrue(found.isEmpty(), found.toString());
        assertEquals(versionsBefore + 3, store.audit().versions(), "a row per version");

        store.sweep(Duration.ZERO);
        assertArrayEquals(big, read(store.getObjectVersion(bucket, "big", first.versionId())), "a sweep keeps it");
        store.deleteObjectVersion(bucket, "big", third.versionId());
        assertEquals("small now", VersionWalk.text(store.getObject(bucket, "big")));
        assertEquals(second.versionId(), store.headObject(bucket, "big").versionId());
        store.awaitSettled();
        try (ContentRead held = store.getContent(first.sha256())) {
            assertNotNull(held, "the first version still holds the content");
        }
        store.deleteObjectVersion(bucket, "big", first.versionId());
        store.awaitSettled();
        assertNull(store.getContent(first.sha256()), "the content went with its last version");
        found = problems();
        assertTrue(found.isEmpty(), found.toString());
        StoreException notEmpty = assertThrows(StoreException.class, () -> store.deleteBucket(bucket));
        assertEquals(StoreException.Reason.BUCKET_NOT_EMPTY, notEmpty.reason());
        store.deleteObjectVersion(bucket, "big", second.versionId());
        store.deleteBucket(bucket);
    }

    @Test
    void anObjectWrittenBeforeVersioningIsTheVersionNull() throws Exception {
        String bucket = unique("pre");
        store.createBucket(bucket, BucketAcl.PRIVATE);
        String unique = Long.toHexString(System.nanoTime());
        ObjectInfo before = VersionWalk.put(store, bucket, "k", "before " + unique);
        assertNull(before.versionId());
        store.setBucketVersioning(bucket, Versioning.ENABLED);
        assertEquals(VersionId.NULL, store.headObject(bucket, "k").versionId());
        ObjectInfo after = VersionWalk.put(store, bucket, "k", "after");
        assertNotNull(VersionId.decode(after.versionId()));
        assertEquals("before " + unique, VersionWalk.text(store.getObjectVersion(bucket, "k", VersionId.NULL)));
        VersionPage page = store.listObjectVersions(bucket, new VersionQuery("", null, null, null, 10));
        assertEquals(List.of(after.versionId(), VersionId.NULL), page.versions().stream().map(ObjectVersion::versionId).toList());
        assertTrue(page.versions().get(0).latest());

        store.setBucketVersioning(bucket, Versioning.SUSPENDED);
        VersionWalk.put(store, bucket, "k", "suspended");
        assertEquals("suspended", VersionWalk.text(store.getObjectVersion(bucket, "k", VersionId.NULL)));
        store.awaitSettled();
        assertNull(store.getContent(before.sha256()), "a suspended write replaced the version null");
        List<String> found = problems();
        assertTrue(found.isEmpty(), found.toString());
    }

    @Test
    void partsAndAclsOfAVersionThatIsNotCurrent() throws Exception {
        String bucket = unique("parts");
        store.createBucket(bucket, BucketAcl.PRIVATE);
        store.setBucketVersioning(bucket, Versioning.ENABLED);
        BytesContent p1 = BytesContent.of(bytes(5 * 1024 * 1024, 1));
        BytesContent p2 = BytesContent.of(bytes(1000, 2));
        String uploadId = store.createUpload(bucket, "m", ObjectAttributes.EMPTY).uploadId();
        String e1 = store.putPart(bucket, "m", uploadId, 1, p1).etag();
        String e2 = store.putPart(bucket, "m", uploadId, 2, p2).etag();
        ObjectInfo multipart = store.completeUpload(CompleteRequest.of(bucket, "m", uploadId,
                List.of(new CompletedPart(1, e1), new CompletedPart(2, e2)), 5 * 1024 * 1024));
        VersionWalk.put(store, bucket, "m", "plain now");
        ObjectVersion old = store.objectVersion(bucket, "m", multipart.versionId());
        assertFalse(old.latest());
        assertArrayEquals(new long[] {5 * 1024 * 1024, 1000}, store.partSizes(bucket, "m", old.info()));

        ObjectInfo changed = store.setObjectVersionAcl(bucket, "m", multipart.versionId(), BucketAcl.PUBLIC_READ);
        assertEquals(BucketAcl.PUBLIC_READ, changed.acl());
        assertEquals(BucketAcl.PUBLIC_READ, store.objectVersion(bucket, "m", multipart.versionId()).info().acl());
        assertEquals(BucketAcl.PRIVATE, store.headObject(bucket, "m").acl(), "the current version keeps its own");
        assertNull(store.setObjectVersionAcl(bucket, "m", VersionId.encode(VersionId.sortAt(5)), BucketAcl.PRIVATE));
        ObjectInfo current = store.setObjectAcl(bucket, "m", BucketAcl.PUBLIC_READ);
        assertEquals(store.headObject(bucket, "m").versionId(), current.versionId(), "no new version");
        assertEquals(2, store.listObjectVersions(bucket, new VersionQuery("", null, null, null, 10)).versions().size());
        List<String> found = problems();
        assertTrue(found.isEmpty(), found.toString());
    }

    @Test
    void concurrentWritersOfOneKeyEachKeepTheirVersion() throws Exception {
        String bucket = unique("race");
        store.createBucket(bucket, BucketAcl.PRIVATE);
        store.setBucketVersioning(bucket, Versioning.ENABLED);
        int threads = 3;
        int each = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<String>>> ids = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                ids.add(pool.submit(() -> {
                    List<String> mine = new ArrayList<>();
                    for (int i = 0; i < each; i++) {
                        mine.add(i % 4 == 3 ? store.deleteObjectVersion(bucket, "k", null).versionId()
                                : VersionWalk.put(store, bucket, "k", "t" + thread + "-" + (i % 2)).versionId());
                    }
                    return mine;
                }));
            }
            Set<String> written = new HashSet<>();
            for (Future<List<String>> f : ids) {
                written.addAll(f.get());
            }
            assertEquals(threads * each, written.size(), "every write has its own id");
            List<String> listed = new ArrayList<>();
            VersionPage page = store.listObjectVersions(bucket, new VersionQuery("", null, null, null, 1000));
            page.versions().forEach(v -> listed.add(v.versionId()));
            assertEquals(written, new HashSet<>(listed));
            List<String> sorted = new ArrayList<>(listed);
            sorted.sort(null);
            assertEquals(sorted, listed, "newest first is id order");
            assertTrue(page.versions().get(0).latest());
            List<String> found = problems();
            assertTrue(found.isEmpty(), found.toString());
        } finally {
            pool.shutdownNow();
        }
    }
}
