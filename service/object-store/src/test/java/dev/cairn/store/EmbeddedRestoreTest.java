package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.ReadOptions;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import dev.cairn.store.embedded.EmbeddedVersionScanner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every version read with its sort id ({@link EmbeddedVersionScanner}) and written back as recorded
 * ({@link ObjectStore#restoreVersion}) into another store, in a shuffled order and twice over:
 * ListObjectVersions, bytes, times and reference counts come out the same.
 */
class EmbeddedRestoreTest {
    @TempDir
    Path dir;

    private static Engine open(Path p) throws IOException {
        return Engine.open(EngineOptions.builder(p).memtableBytes(4L << 20).build());
    }

    private static void put(ObjectStore s, String bucket, String key, Random r, int size) throws IOException {
        byte[] b = new byte[size];
        r.nextBytes(b);
        BytesContent c = BytesContent.of(b);
        ObjectAttributes a = new ObjectAttributes("text/plain", null, null, null, null, null, Map.of("s", "" + size));
        s.putObject(PutRequest.of(bucket, key, c, c.md5()).withAttributes(a)
                .withChecksums(Map.of("CRC32C", "AAAAAA==")));
    }

    /** A random walk of writes, delete markers, deletes of one version and versioning changes. */
    private static void seed(ObjectStore s) throws IOException {
        Random r = new Random(3);
        s.createBucket("v", BucketAcl.PRIVATE);
        put(s, "v", "before-versioning", r, 10);
        s.setBucketVersioning("v", Versioning.ENABLED);
        s.createBucket("u", BucketAcl.PUBLIC_READ);
        put(s, "u", "plain", r, 20);
        String[] keys = {"a", "a/b", "b", "c€"};
        for (int i = 0; i < 120; i++) {
            String key = keys[r.nextInt(keys.length)];
            int what = r.nextInt(10);
            if (what < 5) {
                put(s, "v", key, r, what == 0 ? 1_200_000 : 1 + r.nextInt(3000));
            } else if (what < 7) {
                s.deleteObjectVersion("v", key, null);
            } else if (what == 7) {
                List<ObjectVersion> vs = s.listObjectVersions("v", new VersionQuery(key, null, null, null, 50)).versions()
                        .stream().filter(v -> v.key().equals(key)).toList();
                if (!vs.isEmpty()) {
                    s.deleteObjectVersion("v", key, vs.get(r.nextInt(vs.size())).versionId());
                }
            } else {
                s.setBucketVersioning("v", r.nextBoolean() ? Versioning.SUSPENDED : Versioning.ENABLED);
            }
        }
    }

    static List<String> versions(ObjectStore s) throws IOException {
        List<String> out = new ArrayList<>();
        for (BucketInfo b : s.listBuckets()) {
            out.add(b.name() + " " + b.acl() + " " + b.versioning());
            String km = null;
            String vm = null;
            VersionPage page;
            do {
                page = s.listObjectVersions(b.name(), new VersionQuery("", null, km, vm, 3));
                for (ObjectVersion v : page.versions()) {
                    String line = v.key() + " " + v.versionId() + " " + v.latest() + " " + v.deleteMarker() + " "
                            + v.lastModified();
                    if (!v.deleteMarker()) {
                        try (ObjectRead read = s.getObjectVersion(b.name(), v.key(), v.versionId());
                             InputStream in = read.open(0, read.size())) {
                            line += " " + BytesContent.of(in.readAllBytes()).sha256() + " " + read.info();
                        }
                    }
                    out.add(line);
                }
                km = page.nextKeyMarker();
                vm = page.nextVersionIdMarker();
            } while (page.truncated());
        }
        return out;
    }

    @Test
    void versionsWrittenBackInAnyOrderGiveTheSameListing() throws IOException {
        List<String> before;
        Map<String, List<VersionRecord>> records = new java.util.LinkedHashMap<>();
        List<BucketInfo> buckets;
        try (Engine e = open(dir.resolve("source"))) {
            EmbeddedObjectStore s = new EmbeddedObjectStore(e);
            seed(s);
            before = versions(s);
            buckets = s.listBuckets();
            EmbeddedVersionScanner scanner = new EmbeddedVersionScanner(e, ReadOptions.SCAN);
            for (BucketInfo b : buckets) {
                List<VersionRecord> list = new ArrayList<>();
                scanner.scan(b.name(), b.versioning(), null, null, list::add);
                records.put(b.name(), list);
                // Resuming after any version gives exactly the versions after it.
                for (int cut = 0; cut < list.size(); cut++) {
                    List<VersionRecord> rest = new ArrayList<>();
                    VersionRecord at = list.get(cut);
                    scanner.scan(b.name(), b.versioning(), at.version().key(), at.order(), rest::add);
                    assertEquals(list.subList(cut + 1, list.size()).stream().map(VersionRecord::toString).toList(),
                            rest.stream().map(VersionRecord::toString).toList(), "resumed after " + cut);
                }
            }
            assertTrue(records.get("v").size() > 20, "a walk with many versions: " + records.get("v").size());
            for (VersionRecord v : records.get("v")) {
                Map<String, byte[]> content = new java.util.HashMap<>();
                if (!v.version().deleteMarker()) {
                    try (ObjectRead read = s.getObjectVersion("v", v.version().key(), v.version().versionId());
                         InputStream in = read.open(0, read.size())) {
                        content.put(v.version().info().sha256(), in.readAllBytes());
                    }
                }
                contents.putAll(content);
            }
            for (VersionRecord v : records.get("u")) {
                try (ObjectRead read = s.getObject("u", v.version().key()); InputStream in = read.open(0, read.size())) {
                    contents.put(v.version().info().sha256(), in.readAllBytes());
                }
            }
        }
        try (Engine e = open(dir.resolve("target"))) {
            EmbeddedObjectStore t = new EmbeddedObjectStore(e);
            for (BucketInfo b : buckets) {
                t.createBucket(b.name(), b.acl());
                if (b.versioning() != Versioning.UNVERSIONED) {
                    t.setBucketVersioning(b.name(), b.versioning());
                }
            }
            for (int round = 0; round < 2; round++) {
                for (Map.Entry<String, List<VersionRecord>> bucket : records.entrySet()) {
                    List<VersionRecord> shuffled = new ArrayList<>(bucket.getValue());
                    Collections.shuffle(shuffled, new Random(round));
                    for (VersionRecord v : shuffled) {
                        VersionRecord written = bucket.getKey().equals("u")
                                ? new VersionRecord(ObjectVersion.of(v.version().info().withVersionId(null), true), null) : v;
                        t.restoreVersion(bucket.getKey(), written, v.version().deleteMarker() ? null
                                : BytesContent.of(contents.get(v.version().info().sha256())));
                    }
                }
                assertEquals(before, versions(t), "round " + round);
                assertTrue(t.audit().problems().isEmpty(), t.audit().problems().toString());
            }
            VersionRecord some = records.get("v").get(0);
            byte[] wrongPlace = new byte[12];
            assertThrows(IllegalArgumentException.class, () -> t.restoreVersion("v",
                    new VersionRecord(ObjectVersion.marker("k", VersionId.encode(some.order()), 1, false), wrongPlace), null));
        }
    }

    private final Map<String, byte[]> contents = new java.util.HashMap<>();

    /** Three multipart versions of a key, each with its own part sizes, and a multipart object of a plain bucket. */
    @Test
    void partSizesGoWithTheirVersionWhereverItIsPlaced() throws IOException {
        try (Engine e = open(dir.resolve("parts"))) {
            EmbeddedObjectStore t = new EmbeddedObjectStore(e);
            t.createBucket("m", BucketAcl.PRIVATE);
            t.setBucketVersioning("m", Versioning.ENABLED);
            t.createBucket("u", BucketAcl.PRIVATE);
            List<VersionRecord> records = new ArrayList<>();
            List<BytesContent> bodies = new ArrayList<>();
            Random r = new Random(8);
            for (int i = 0; i < 3; i++) {
                byte[] sort = new byte[VersionId.SORT_BYTES];
                sort[0] = (byte) (10 - i); // a smaller sort id is newer: i = 2 is the newest
                byte[] body = new byte[100 + i];
                r.nextBytes(body);
                BytesContent c = BytesContent.of(body);
                ObjectInfo info = new ObjectInfo("k", c.sha256(), body.length, "etag" + i + "-2", ObjectAttributes.EMPTY,
                        1000 + i, 2, Map.of(), VersionId.encode(sort));
                records.add(new VersionRecord(ObjectVersion.of(info, false), sort, new long[] {60, 40 + i}));
                bodies.add(c);
            }
            // Oldest first: each version is current when written, then moves down under the next.
            for (int i = 0; i < 3; i++) {
                t.restoreVersion("m", records.get(i), bodies.get(i));
            }
            assertLayouts(t, records);
            for (int i = 2; i >= 0; i--) {
                t.restoreVersion("m", records.get(i), bodies.get(i));
            }
            assertLayouts(t, records);

            BytesContent plain = BytesContent.of(new byte[] {1, 2, 3, 4, 5});
            ObjectInfo info = new ObjectInfo("p", plain.sha256(), 5, "etag-3", ObjectAttributes.EMPTY, 7, 3, Map.of());
            t.restoreVersion("u", new VersionRecord(ObjectVersion.of(info, true), null, new long[] {2, 2, 1}), plain);
            assertEquals(List.of(2L, 2L, 1L), boxed(t.partSizes("u", "p", t.headObject("u", "p"))));
            assertThrows(IllegalArgumentException.class, () -> new VersionRecord(ObjectVersion.of(info, true), null,
                    new long[] {2, 2}), "two sizes for three parts");
            assertTrue(t.audit().problems().isEmpty(), t.audit().problems().toString());
        }
    }

    private static void assertLayouts(ObjectStore t, List<VersionRecord> records) throws IOException {
        for (VersionRecord v : records) {
            ObjectInfo stored = t.objectVersion("m", "k", v.version().versionId()).info();
            assertEquals(boxed(v.partSizes()), boxed(t.partSizes("m", "k", stored)), v.version().versionId());
        }
        assertEquals(boxed(records.get(2).partSizes()), boxed(t.partSizes("m", "k", t.headObject("m", "k"))),
                "the current version's");
    }

    private static List<Long> boxed(long[] a) {
        return a == null ? null : java.util.Arrays.stream(a).boxed().toList();
    }
}
