package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded random walk of every change that can make a key's current version another — writes,
 * delete markers, deletes of one version (an older one becoming current again), object ACL changes
 * of the current and of older versions, versioning changes — each made through a random node of
 * row caches over one shared store. After every step each node reads the key changed (twice, so
 * the second read is answered from its cache) and one other key, and every answer must equal the
 * shared store's own: object row with its version id, content, current delete marker.
 */
final class RowCacheVersionWalk {
    private static final List<String> KEYS = List.of("a", "b", "c");
    private static final List<String> CONTENTS = List.of("one", "two", "three");

    private final ObjectStore truth;
    private final List<RowCachingObjectStore> nodes;

    RowCacheVersionWalk(ObjectStore truth, List<RowCachingObjectStore> nodes) {
        this.truth = truth;
        this.nodes = nodes;
    }

    /** Returns the row hits of all nodes over reads of the walk's versioned bucket. */
    long walk(String bucket, long seed, int steps) throws IOException {
        Random rnd = new Random(seed);
        nodes.get(0).createBucket(bucket, BucketAcl.PRIVATE);
        long hitsBefore = hits();
        for (int step = 0; step < steps; step++) {
            RowCachingObjectStore node = nodes.get(rnd.nextInt(nodes.size()));
            String key = KEYS.get(rnd.nextInt(KEYS.size()));
            String where = "seed " + seed + " step " + step + " key " + key;
            int op = rnd.nextInt(20);
            if (op < 7) {
                BytesContent c = BytesContent.of(CONTENTS.get(rnd.nextInt(CONTENTS.size())));
                BucketAcl acl = rnd.nextInt(4) == 0 ? BucketAcl.PUBLIC_READ : BucketAcl.PRIVATE;
                node.putObject(PutRequest.of(bucket, key, c, c.md5()).withAttributes(ObjectAttributes.EMPTY
                        .withAcl(acl)));
                where += " put";
            } else if (op < 10) {
                node.deleteObjectVersion(bucket, key, null);
                where += " delete";
            } else if (op < 14) {
                List<ObjectVersion> versions = versions(bucket, key);
                if (!versions.isEmpty()) {
                    ObjectVersion victim = versions.get(rnd.nextInt(versions.size()));
                    node.deleteObjectVersion(bucket, key, victim.versionId());
                    where += " delete version " + victim.versionId() + (victim.latest() ? " (current)" : "");
                }
            } else if (op < 16) {
                BucketAcl acl = rnd.nextBoolean() ? BucketAcl.PUBLIC_READ : BucketAcl.PRIVATE;
                if (truth.headObject(bucket, key) != null) {
                    node.setObjectAcl(bucket, key, acl);
                    where += " acl " + acl;
                }
            } else if (op < 18) {
                List<ObjectVersion> versions = versions(bucket, key);
                if (!versions.isEmpty()) {
                    ObjectVersion v = versions.get(rnd.nextInt(versions.size()));
                    BucketAcl acl = rnd.nextBoolean() ? BucketAcl.PUBLIC_READ : BucketAcl.PRIVATE;
                    try {
                        node.setObjectVersionAcl(bucket, key, v.versionId(), acl);
                        where += " acl " + acl + " of version " + v.versionId();
                    } catch (UnsupportedOperationException notCurrent) {
                        where += " (acl of an older version: not supported)";
                    }
                }
            } else {
                Versioning versioning = rnd.nextBoolean() ? Versioning.ENABLED : Versioning.SUSPENDED;
                node.setBucketVersioning(bucket, versioning);
                where += " versioning " + versioning;
            }
            for (RowCachingObjectStore n : nodes) {
                check(n, bucket, key, where);
                check(n, bucket, key, where + " (again)");
                check(n, bucket, KEYS.get(rnd.nextInt(KEYS.size())), where + " (another key)");
            }
        }
        return hits() - hitsBefore;
    }

    private long hits() {
        return nodes.stream().mapToLong(n -> n.cacheStats().rowHits()).sum();
    }

    private List<ObjectVersion> versions(String bucket, String key) throws IOException {
        List<ObjectVersion> out = new ArrayList<>();
        VersionPage page = truth.listObjectVersions(bucket, new VersionQuery(key, null, null, null, 1000));
        for (ObjectVersion v : page.versions()) {
            if (v.key().equals(key)) {
                out.add(v);
            }
        }
        return out;
    }

    private void check(RowCachingObjectStore node, String bucket, String key, String where) throws IOException {
        ObjectInfo expected = truth.headObject(bucket, key);
        String at = where + ", reading " + key + " on node " + nodes.indexOf(node);
        assertEquals(expected, node.headObject(bucket, key), at + ": HEAD");
        try (ObjectRead read = node.getObject(bucket, key)) {
            assertEquals(expected, read == null ? null : read.info(), at + ": GET");
            if (read != null) {
                try (ObjectRead t = truth.getObject(bucket, key)) {
                    assertEquals(VersionWalk.text(t), VersionWalk.text(read), at + ": GET content");
                }
            }
        }
        assertEquals(truth.currentDeleteMarker(bucket, key), node.currentDeleteMarker(bucket, key),
                at + ": current delete marker");
        assertTrue(expected == null || expected.versionId() == null
                || truth.bucket(bucket).versioning() != Versioning.UNVERSIONED, at);
    }
}
