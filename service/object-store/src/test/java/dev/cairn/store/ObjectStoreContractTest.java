package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contract of {@link ObjectStore}, run against every implementation. */
abstract class ObjectStoreContractTest {

    protected ObjectStore store;

    protected abstract ObjectStore open() throws IOException;

    /**
     * The store's data, opened again going by {@code clock}, the current store closed; null where
     * the fixture cannot (the Cassandra fixture: rows written at another time than the cluster's
     * would outlive its cleanup between tests).
     */
    protected ObjectStore reopenedWith(Clock clock) throws IOException {
        return null;
    }

    @BeforeEach
    void setUp() throws IOException {
        store = open();
    }

    @AfterEach
    void tearDown() throws IOException {
        store.close();
    }

    private ObjectInfo put(String bucket, String key, ContentSource c) throws IOException {
        return store.putObject(PutRequest.of(bucket, key, c, c.md5()));
    }

    private byte[] read(String bucket, String key) throws IOException {
        try (ObjectRead r = store.getObject(bucket, key)) {
            if (r == null) {
                return null;
            }
            try (InputStream in = r.open(0, r.size())) {
                return in.readAllBytes();
            }
        }
    }

    private byte[] readContent(String sha) throws IOException {
        try (ContentRead r = store.getContent(sha)) {
            if (r == null) {
                return null;
            }
            try (InputStream in = r.open(0, r.size())) {
                return in.readAllBytes();
            }
        }
    }

    private static StoreException.Reason reason(ThrowingRunnable r) {
        StoreException e = assertThrows(StoreException.class, r::run);
        return e.reason();
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void bucketsAreCreatedListedAndDeletedWhenEmpty() throws IOException {
        assertNull(store.bucket("b1"));
        store.createBucket("b2", BucketAcl.PRIVATE);
        store.createBucket("b1", BucketAcl.PUBLIC_READ);
        assertEquals(StoreException.Reason.BUCKET_EXISTS, reason(() -> store.createBucket("b1", BucketAcl.PRIVATE)));
        assertEquals(List.of("b1", "b2"), store.listBuckets().stream().map(BucketInfo::name).toList());
        assertEquals(BucketAcl.PUBLIC_READ, store.bucket("b1").acl());
        store.setBucketAcl("b1", BucketAcl.PRIVATE);
        assertEquals(BucketAcl.PRIVATE, store.bucket("b1").acl());

        put("b1", "k", BytesContent.of("x"));
        assertEquals(StoreException.Reason.BUCKET_NOT_EMPTY, reason(() -> store.deleteBucket("b1")));
        store.deleteObject("b1", "k");
        store.createUpload("b1", "pending", ObjectAttributes.EMPTY);
        store.deleteBucket("b1");
        assertNull(store.bucket("b1"));
        assertEquals(StoreException.Reason.NO_SUCH_BUCKET, reason(() -> store.deleteBucket("b1")));
        assertEquals(StoreException.Reason.NO_SUCH_BUCKET, reason(() -> put("b1", "k", BytesContent.of("x"))));
        assertEquals(StoreException.Reason.NO_SUCH_BUCKET, reason(() -> store.getObject("b1", "k")));
    }

    @Test
    void bucketDocumentsAreSetReplacedAndRemovedByKindBesideTheOtherSettings() throws IOException {
        store.createBucket("docs", BucketAcl.PRIVATE);
        assertNull(store.bucket("docs").document(BucketDocument.CORS));
        store.setBucketDocument(BucketDocument.of("docs", BucketDocument.CORS, "<CORSConfiguration>1</CORSConfiguration>"));
        store.setBucketDocument(BucketDocument.of("docs", "other", "ünï"));
        store.setBucketDocument(BucketDocument.of("docs", BucketDocument.CORS, "<CORSConfiguration>2</CORSConfiguration>"));
        store.setBucketAcl("docs", BucketAcl.PUBLIC_READ);
        BucketInfo b = store.bucket("docs");
        assertEquals("<CORSConfiguration>2</CORSConfiguration>", b.document(BucketDocument.CORS));
        assertEquals("ünï", b.document("other"));
        assertEquals(BucketAcl.PUBLIC_READ, b.acl());
        assertEquals(b.documents(), store.listBuckets().stream().filter(l -> l.name().equals("docs")).findFirst().orElseThrow().documents());

        store.setBucketDocument(BucketDocument.removed("docs", BucketDocument.CORS));
        store.setBucketDocument(BucketDocument.removed("docs", BucketDocument.CORS));
        assertNull(store.bucket("docs").document(BucketDocument.CORS));
        assertEquals(Map.of("other", "ünï"), store.bucket("docs").documents());
        assertEquals(StoreException.Reason.NO_SUCH_BUCKET,
                reason(() -> store.setBucketDocument(BucketDocument.of("absent", BucketDocument.CORS, "x"))));
        assertNull(store.bucket("absent"));
    }

    @Test
    void objectRoundTripsWithItsAttributes() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        ObjectAttributes attrs = new ObjectAttributes("image/png", "max-age=60", "inline", "gzip", "en",
                "Wed, 21 Oct 2015 07:28:00 GMT", Map.of("colour", "blue", "ünï", "cödé"));
        BytesContent c = BytesContent.of("hello world");
        ObjectInfo written = store.putObject(PutRequest.of("b", "a/b.png", c, c.md5()).withAttributes(attrs)
                .withChecksums(Map.of("CRC32", "DUoRhQ==")));
        ObjectInfo head = store.headObject("b", "a/b.png");
        assertEquals(written, head);
        assertEquals(attrs, head.attributes());
        assertEquals(c.sha256(), head.sha256());
        assertEquals(11, head.size());
        assertEquals(Map.of("CRC32", "DUoRhQ=="), head.checksums());
        assertArrayEquals(c.bytes(), read("b", "a/b.png"));
        try (ObjectRead r = store.getObject("b", "a/b.png"); InputStream in = r.open(6, 5)) {
            assertEquals("world", new String(in.readAllBytes()));
        }
        assertNull(store.headObject("b", "missing"));
        assertNull(store.getObject("b", "missing"));
        assertNull(store.deleteObject("b", "missing"));
        assertEquals(written, store.deleteObject("b", "a/b.png"));
        assertNull(store.headObject("b", "a/b.png"));
    }

    @Test
    void objectAclsAreStoredAndChanged() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        BytesContent c = BytesContent.of("acl body");
        ObjectAttributes open = new ObjectAttributes("text/plain", null, null, null, null, null, Map.of("k", "v"))
                .withAcl(BucketAcl.PUBLIC_READ);
        store.putObject(PutRequest.of("b", "open", c, c.md5()).withAttributes(open));
        put("b", "closed", c);
        assertEquals(BucketAcl.PUBLIC_READ, store.headObject("b", "open").acl());
        assertEquals(BucketAcl.PUBLIC_READ, store.getObject("b", "open").info().acl());
        assertEquals(BucketAcl.PRIVATE, store.headObject("b", "closed").acl());
        ObjectInfo changed = store.setObjectAcl("b", "closed", BucketAcl.PUBLIC_READ);
        assertEquals(BucketAcl.PUBLIC_READ, changed.acl());
        assertEquals(BucketAcl.PUBLIC_READ, store.headObject("b", "closed").acl());
        store.setObjectAcl("b", "open", BucketAcl.PRIVATE);
        ObjectInfo head = store.headObject("b", "open");
        assertEquals(BucketAcl.PRIVATE, head.acl());
        assertEquals(open.withAcl(BucketAcl.PRIVATE), head.attributes());
        assertArrayEquals(c.bytes(), read("b", "open"));
        assertEquals(StoreException.Reason.NO_SUCH_KEY, reason(() -> store.setObjectAcl("b", "absent", BucketAcl.PUBLIC_READ)));
        store.deleteObject("b", "open");
        store.deleteObject("b", "closed");
        assertNull(readContent(c.sha256()), "references stay exact through ACL changes");
    }

    @Test
    void emptyObjectRoundTrips() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        put("b", "empty", BytesContent.of(new byte[0]));
        assertArrayEquals(new byte[0], read("b", "empty"));
        assertArrayEquals(new byte[0], readContent(BytesContent.of(new byte[0]).sha256()));
    }

    @Test
    void onlyIfAbsentRefusesAnExistingKeyAndKeepsIt() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        BytesContent first = BytesContent.of("first");
        BytesContent second = BytesContent.of("second");
        store.putObject(PutRequest.of("b", "k", first, first.md5()).withOnlyIfAbsent(true));
        assertEquals(StoreException.Reason.PRECONDITION_FAILED, reason(() ->
                store.putObject(PutRequest.of("b", "k", second, second.md5()).withOnlyIfAbsent(true))));
        assertArrayEquals(first.bytes(), read("b", "k"));
        assertNull(store.getContent(second.sha256()), "refused content must not stay stored");
    }

    @Test
    void identicalContentIsStoredOnceAndReclaimedWithItsLastReference() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        store.createBucket("c", BucketAcl.PRIVATE);
        BytesContent c = BytesContent.of("same bytes");
        put("b", "one", c);
        put("b", "two", c);
        put("c", "three", c);
        assertEquals(new StoreStats(30, 10), store.stats());
        assertEquals(3.0, store.stats().dedupRatio());
        store.deleteObject("b", "one");
        assertArrayEquals(c.bytes(), read("b", "two"));
        put("b", "two", BytesContent.of("other"));
        assertArrayEquals(c.bytes(), read("c", "three"));
        assertArrayEquals(c.bytes(), readContent(c.sha256()));
        store.deleteObject("c", "three");
        assertNull(store.getContent(c.sha256()));
        assertArrayEquals("other".getBytes(), read("b", "two"));
    }

    @Test
    void overwriteWithTheSameContentKeepsIt() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        BytesContent c = BytesContent.of("again");
        put("b", "k", c);
        put("b", "k", c);
        assertArrayEquals(c.bytes(), read("b", "k"));
        store.deleteObject("b", "k");
        assertNull(store.getContent(c.sha256()));
    }

    @Test
    void contentIsPublicOnlyThroughAnObjectInAPublicBucket() throws IOException {
        store.createBucket("pub", BucketAcl.PUBLIC_READ);
        store.createBucket("priv", BucketAcl.PRIVATE);
        BytesContent c = BytesContent.of("shared");
        put("priv", "k", c);
        assertFalse(store.isContentPublic(c.sha256()));
        UploadInfo u = store.createUpload("pub", "m", ObjectAttributes.EMPTY);
        store.putPart("pub", "m", u.uploadId(), 1, c);
        assertFalse(store.isContentPublic(c.sha256()), "a part is not an object");
        put("pub", "k", c);
        assertTrue(store.isContentPublic(c.sha256()));
        store.setBucketAcl("pub", BucketAcl.PRIVATE);
        assertFalse(store.isContentPublic(c.sha256()));
        assertFalse(store.isContentPublic(BytesContent.of("never").sha256()));
    }

    @Test
    void largeObjectsSpanChunksAndRangesCrossThem() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        byte[] data = new byte[EmbeddedObjectStore.CHUNK_BYTES * 2 + 12345];
        new Random(7).nextBytes(data);
        BytesContent c = BytesContent.of(data);
        put("b", "big", c);
        assertArrayEquals(data, read("b", "big"));
        long from = EmbeddedObjectStore.CHUNK_BYTES - 10;
        try (ObjectRead r = store.getObject("b", "big"); InputStream in = r.open(from, 20)) {
            byte[] want = java.util.Arrays.copyOfRange(data, (int) from, (int) from + 20);
            assertArrayEquals(want, in.readAllBytes());
        }
        assertArrayEquals(data, readContent(c.sha256()));
        try (ObjectRead r = store.getObject("b", "big")) {
            store.deleteObject("b", "big");
            try (InputStream in = r.open(0, r.size())) {
                assertArrayEquals(data, in.readAllBytes(), "an open read keeps what it read");
            }
        }
        assertNull(store.getContent(c.sha256()));
    }

    @Test
    void keysAreStoredExactly() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        List<String> keys = List.of("..", "../x", "a//b", "with space", "100%", "ü/ñ", "\uD83D\uDE00", "\uFFFD", "a\u0000b");
        for (String k : keys) {
            put("b", k, BytesContent.of(k));
        }
        for (String k : keys) {
            assertArrayEquals(k.getBytes(java.nio.charset.StandardCharsets.UTF_8), read("b", k), k);
        }
        List<String> listed = store.listObjects("b", new ListQuery("", null, null, 1000)).objects().stream()
                .map(ObjectInfo::key).toList();
        List<String> expected = new ArrayList<>(keys);
        expected.sort(Utf8Order.COMPARATOR);
        assertEquals(expected, listed);
        assertTrue(Utf8Order.compare("\uFFFD", "\uD83D\uDE00") < 0, "UTF-8 order, not UTF-16 order");
    }

    @Test
    void listingPagesMatchAModel() throws IOException {
        long seed = System.nanoTime();
        System.out.println("listingPagesMatchAModel seed=" + seed);
        Random rnd = new Random(seed);
        store.createBucket("b", BucketAcl.PRIVATE);
        TreeSet<String> model = new TreeSet<>(Utf8Order.COMPARATOR);
        String[] parts = {"a", "b", "/", "ab", "é", "x/", "//"};
        for (int i = 0; i < 150; i++) {
            StringBuilder k = new StringBuilder();
            int n = 1 + rnd.nextInt(5);
            for (int j = 0; j < n; j++) {
                k.append(parts[rnd.nextInt(parts.length)]);
            }
            model.add(k.toString());
        }
        for (String k : model) {
            put("b", k, BytesContent.of(k));
        }
        String[] prefixes = {"", "a", "a/", "x", "é", "zz"};
        String[] delimiters = {null, "/", "b", "//"};
        for (String prefix : prefixes) {
            for (String delimiter : delimiters) {
                List<String> expected = expectedListing(model, prefix, delimiter);
                for (int maxKeys : new int[] {1, 3, 1000}) {
                    List<String> got = new ArrayList<>();
                    String after = null;
                    for (int guard = 0; guard < 1000; guard++) {
                        ListPage page = store.listObjects("b", new ListQuery(prefix, delimiter, after, maxKeys));
                        assertTrue(page.objects().size() + page.commonPrefixes().size() <= maxKeys);
                        TreeSet<String> merged = new TreeSet<>(Utf8Order.COMPARATOR);
                        page.objects().forEach(o -> merged.add(o.key()));
                        merged.addAll(page.commonPrefixes());
                        got.addAll(merged);
                        if (!page.truncated()) {
                            break;
                        }
                        assertEquals(merged.last(), page.lastReturned());
                        after = page.lastReturned();
                    }
                    assertEquals(expected, got, "seed=" + seed + " prefix=" + prefix + " delimiter=" + delimiter
                            + " maxKeys=" + maxKeys);
                }
            }
        }
    }

    private static List<String> expectedListing(TreeSet<String> keys, String prefix, String delimiter) {
        TreeSet<String> out = new TreeSet<>(Utf8Order.COMPARATOR);
        for (String k : keys) {
            if (!k.startsWith(prefix)) {
                continue;
            }
            int at = delimiter == null ? -1 : k.indexOf(delimiter, prefix.length());
            out.add(at < 0 ? k : k.substring(0, at + delimiter.length()));
        }
        return new ArrayList<>(out);
    }

    @Test
    void multipartUploadAssemblesPartsInOrder() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        ObjectAttributes attrs = new ObjectAttributes("text/plain", null, null, null, null, null, Map.of("m", "v"));
        UploadInfo u = store.createUpload("b", "mp", attrs);
        assertEquals(u, store.upload("b", "mp", u.uploadId()));
        BytesContent p1 = BytesContent.of("part-one|");
        BytesContent p2 = BytesContent.of("part-two|");
        BytesContent p3 = BytesContent.of("three");
        store.putPart("b", "mp", u.uploadId(), 1, BytesContent.of("replaced"));
        store.putPart("b", "mp", u.uploadId(), 1, p1);
        store.putPart("b", "mp", u.uploadId(), 2, p2);
        store.putPart("b", "mp", u.uploadId(), 3, p3);
        assertNull(store.getContent(BytesContent.of("replaced").sha256()), "a replaced part is released");
        List<PartInfo> listed = store.listParts("b", "mp", u.uploadId(), 0, 10);
        assertEquals(List.of(1, 2, 3), listed.stream().map(PartInfo::partNumber).toList());
        assertEquals(p2.md5(), listed.get(1).etag());
        assertEquals(List.of(2), store.listParts("b", "mp", u.uploadId(), 1, 1).stream().map(PartInfo::partNumber).toList());
        assertEquals(List.of(u.uploadId()), store.listUploads("b", "", null, null, 10).stream().map(UploadInfo::uploadId).toList());

        assertEquals(StoreException.Reason.INVALID_PART, reason(() -> store.completeUpload(
                CompleteRequest.of("b", "mp", u.uploadId(),
                        List.of(new CompletedPart(1, "\"" + p2.md5() + "\"")), 0))));
        assertEquals(StoreException.Reason.INVALID_PART_ORDER, reason(() -> store.completeUpload(
                CompleteRequest.of("b", "mp", u.uploadId(),
                        List.of(new CompletedPart(2, p2.md5()), new CompletedPart(1, p1.md5())), 0))));
        assertEquals(StoreException.Reason.ENTITY_TOO_SMALL, reason(() -> store.completeUpload(
                CompleteRequest.of("b", "mp", u.uploadId(),
                        List.of(new CompletedPart(1, p1.md5()), new CompletedPart(3, p3.md5())), 100))));

        ObjectInfo done = store.completeUpload(CompleteRequest.of("b", "mp", u.uploadId(),
                List.of(new CompletedPart(1, "\"" + p1.md5() + "\""), new CompletedPart(3, p3.md5())), 5));
        assertEquals("part-one|three", new String(read("b", "mp")));
        assertEquals(2, done.partCount());
        assertTrue(done.etag().endsWith("-2"), done.etag());
        assertEquals(attrs, done.attributes());
        assertEquals(StoreException.Reason.NO_SUCH_UPLOAD, reason(() -> store.upload("b", "mp", u.uploadId())));
        assertNull(store.getContent(p2.sha256()), "unused parts are released");
        assertNull(store.getContent(p1.sha256()));
        assertTrue(store.listUploads("b", "", null, null, 10).isEmpty());
    }

    @Test
    void abortReleasesPartsAndUnknownUploadsAreRefused() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        UploadInfo u = store.createUpload("b", "k", ObjectAttributes.EMPTY);
        UploadInfo v = store.createUpload("b", "j", ObjectAttributes.EMPTY);
        BytesContent p = BytesContent.of("part");
        store.putPart("b", "k", u.uploadId(), 1, p);
        assertEquals(List.of("j", "k"), store.listUploads("b", "", null, null, 10).stream().map(UploadInfo::key).toList());
        assertEquals(List.of("k"), store.listUploads("b", "", "j", null, 10).stream().map(UploadInfo::key).toList());
        assertEquals(List.of("j"), store.listUploads("b", "j", null, null, 10).stream().map(UploadInfo::key).toList());
        store.abortUpload("b", "k", u.uploadId());
        assertNull(store.getContent(p.sha256()));
        assertEquals(StoreException.Reason.NO_SUCH_UPLOAD, reason(() -> store.abortUpload("b", "k", u.uploadId())));
        assertEquals(StoreException.Reason.NO_SUCH_UPLOAD, reason(() -> store.putPart("b", "k", u.uploadId(), 1, p)));
        assertEquals(StoreException.Reason.NO_SUCH_UPLOAD, reason(() -> store.upload("b", "k", v.uploadId())));
        assertEquals(StoreException.Reason.NO_SUCH_UPLOAD, reason(() -> store.upload("b", "j", "nonsense")));
    }

    @Test
    void concurrentWritesAndReadsKeepReferencesExact() throws Exception {
        long seed = System.nanoTime();
        System.out.println("concurrentWritesAndReadsKeepReferencesExact seed=" + seed);
        store.createBucket("b", BucketAcl.PRIVATE);
        List<BytesContent> contents = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            contents.add(BytesContent.of("content-" + i));
        }
        byte[] big = new byte[EmbeddedObjectStore.CHUNK_BYTES + 100];
        new Random(seed).nextBytes(big);
        contents.add(BytesContent.of(big));
        Map<String, BytesContent> bySha = new HashMap<>();
        contents.forEach(c -> bySha.put(c.sha256(), c));
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random rnd = new Random(seed + t);
                int self = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 300; i++) {
                        // shared keys k0..k3 and keys owned by this thread
                        String key = rnd.nextBoolean() ? "k" + rnd.nextInt(4) : "own" + self + "-" + rnd.nextInt(3);
                        int op = rnd.nextInt(10);
                        if (op < 5) {
                            BytesContent c = contents.get(rnd.nextInt(contents.size()));
                            put("b", key, c);
                        } else if (op < 7) {
                            store.deleteObject("b", key);
                        } else {
                            try (ObjectRead r = store.getObject("b", key)) {
                                if (r != null) {
                                    byte[] got;
                                    try (InputStream in = r.open(0, r.size())) {
                                        got = in.readAllBytes();
                                    }
                                    assertEquals(r.info().sha256(), BytesContent.hash("SHA-256", got),
                                            "a read saw a mix of writes");
                                }
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Set<String> referenced = new HashSet<>();
        for (ObjectInfo o : store.listObjects("b", new ListQuery("", null, null, 1000)).objects()) {
            referenced.add(o.sha256());
            assertArrayEquals(bySha.get(o.sha256()).bytes(), read("b", o.key()), "seed=" + seed);
        }
        for (BytesContent c : contents) {
            assertEquals(referenced.contains(c.sha256()), store.getContent(c.sha256()) != null,
                    "content kept iff referenced, seed=" + seed);
        }
        for (ObjectInfo o : store.listObjects("b", new ListQuery("", null, null, 1000)).objects()) {
            store.deleteObject("b", o.key());
        }
        for (BytesContent c : contents) {
            assertNull(store.getContent(c.sha256()), "seed=" + seed);
        }
        store.deleteBucket("b");
    }


    @Test
    void everyTimeTheStoreRecordsIsItsClocksAndVersionsKeepTheirOrderWhenTheClockGoesBack() throws IOException {
        Instant t1 = Instant.parse("2031-05-01T10:00:00Z");
        MovableClock clock = new MovableClock(t1);
        ObjectStore reopened = reopenedWith(clock);
        assumeTrue(reopened != null, "this fixture cannot set the store's clock");
        store = reopened;
        assertEquals(t1.toEpochMilli(), store.createBucket("timed", BucketAcl.PRIVATE).createdMillis());
        BytesContent c = BytesContent.of("x");
        assertEquals(t1.toEpochMilli(), store.putObject(PutRequest.of("timed", "plain", c, c.md5())).lastModified());

        Instant t2 = t1.plusSeconds(60);
        clock.set(t2);
        UploadInfo u = store.createUpload("timed", "mp", ObjectAttributes.EMPTY);
        assertEquals(t2.toEpochMilli(), u.initiatedMillis());
        store.putPart("timed", "mp", u.uploadId(), 1, BytesContent.of("part"));
        assertEquals(t2.toEpochMilli(), store.listParts("timed", "mp", u.uploadId(), 0, 10).get(0).lastModified());

        store.setBucketVersioning("timed", Versioning.ENABLED);
        Instant t3 = t2.plusSeconds(60);
        clock.set(t3);
        ObjectInfo first = store.putObject(PutRequest.of("timed", "v", c, c.md5()));
        assertEquals(t3.toEpochMilli(), first.lastModified());
        clock.set(t1);
        ObjectInfo second = store.putObject(PutRequest.of("timed", "v", c, c.md5()));
        store.deleteObject("timed", "v");
        List<ObjectVersion> versions = store.listObjectVersions("timed", new VersionQuery("v", null, null, null, 10)).versions();
        assertEquals(3, versions.size());
        assertTrue(versions.get(0).deleteMarker(), "the marker, written last, is the latest though the clock went back");
        assertEquals(second.versionId(), versions.get(1).versionId());
        assertEquals(first.versionId(), versions.get(2).versionId());
    }
}
