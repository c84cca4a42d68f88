package dev.cairn.store.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.PutRequest;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionPage;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code restoreVersions} (a key's versions under one lease per 16) writes what
 * {@code restoreVersion} writes version by version: the same listing, ids, times and current
 * version, a clean audit, also into a key that holds a current row written before versioning
 * and when written again.
 */
@Tag("integration")
class CassandraRestoreVersionsTest {
    private static final String KEYSPACE = "restoreversions";
    private static CassandraObjectStore store;

    @BeforeAll
    static void open() {
        store = TestKeyspace.of(KEYSPACE).store();
    }

    @AfterAll
    static void close() {
        store.close();
    }

    private static byte[] sortAt(long micros, int random) {
        return ByteBuffer.allocate(VersionId.SORT_BYTES).putLong(Long.MAX_VALUE - micros).putInt(random).array();
    }

    /** 21 versions of one key, newest first: markers every fifth, the version null (no id) tenth. */
    private static List<VersionRecord> records(String key, List<ContentSource> contents) {
        List<VersionRecord> out = new ArrayList<>();
        long micros = System.currentTimeMillis() * 1000 - 7_200_000_000L;
        for (int v = 0; v < 21; v++) {
            long at = micros - v * 1_000_000L;
            byte[] sort = sortAt(at, 0x1000 + v);
            boolean isNull = v == 10;
            String id = isNull ? VersionId.NULL : VersionId.encode(sort);
            if (v % 5 == 1) {
                out.add(new VersionRecord(ObjectVersion.marker(key, id, at / 1000, false), sort));
                contents.add(null);
                continue;
            }
            BytesContent c = BytesContent.of(("version " + v + " of " + key).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            ObjectInfo info = new ObjectInfo(key, c.sha256(), c.size(), c.md5(), ObjectAttributes.EMPTY, at / 1000, 0,
                    Map.of(), isNull ? null : id);
            out.add(new VersionRecord(ObjectVersion.of(info, v == 0), sort));
            contents.add(c);
        }
        return out;
    }

    private static List<String> listing(String bucket) throws IOException {
        List<String> out = new ArrayList<>();
        VersionPage page = store.listObjectVersions(bucket, new VersionQuery("", null, null, null, 1000));
        for (ObjectVersion v : page.versions()) {
            out.add(v.key() + " " + v.versionId() + " latest=" + v.latest() + " marker=" + v.deleteMarker() + " t="
                    + v.lastModified() + (v.deleteMarker() ? "" : " " + v.info().sha256()));
        }
        return out;
    }

    private static List<String> problems() throws Exception {
        store.awaitSettled();
        return store.audit().problems().stream().map(Object::toString).toList();
    }

    /** A versioned bucket; with {@code early}, its key k already holds a current row written before versioning. */
    private static String bucket(String stem, boolean early) throws IOException {
        String b = stem + "-" + Long.toHexString(System.nanoTime());
        store.createBucket(b, BucketAcl.PRIVATE);
        if (early) {
            BytesContent c = BytesContent.of("written before versioning".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            store.putObject(PutRequest.of(b, "k", c, c.md5()));
        }
        store.setBucketVersioning(b, Versioning.ENABLED);
        return b;
    }

    @Test
    void aKeysVersionsTogetherGiveWhatTheyGiveOneByOne() throws Exception {
        List<ContentSource> contents = new ArrayList<>();
        List<VersionRecord> records = records("k", contents);
        for (boolean early : new boolean[] {false, true}) {
            String oneByOne = bucket("one", early);
            for (int i = 0; i < records.size(); i++) {
                store.restoreVersion(oneByOne, records.get(i), contents.get(i));
            }
            String together = bucket("together", early);
            store.restoreVersions(together, records, contents);
            List<String> expected = listing(oneByOne);
            assertEquals(21, expected.size(), expected.toString());
            assertEquals(expected, listing(together), "early=" + early);
            assertEquals(List.of(), problems());

            store.restoreVersions(together, records, contents);
            assertEquals(expected, listing(together), "written again, early=" + early);
            assertEquals(List.of(), problems());
            store.sweep(Duration.ZERO);
            assertEquals(List.of(), problems());
            assertEquals(expected, listing(together), "a sweep keeps every version's content");
        }
    }
}
