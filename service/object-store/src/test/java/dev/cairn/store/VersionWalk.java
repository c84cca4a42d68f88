package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A seeded random walk of writes, deletes, deletes of one version and versioning changes against
 * a model of a bucket's versions, checking after every step the versions listed (paged), the
 * content of every version, the current object, and what the store's own audit says. Shared by
 * the stores' versioning tests.
 */
public final class VersionWalk {
    /** What a store adds to the walk: a step of its own (a flush), and its audit's problems. */
    public interface Hooks {
        void extraStep() throws IOException;

        /** The audit's problems (empty when none); called after every {@code auditEvery} steps and at the end. */
        List<String> problems() throws IOException;
    }

    private record Model(String id, boolean marker, String content) {
    }

    private final ObjectStore store;
    private final Hooks hooks;
    private final int checkEvery;
    private final int auditEvery;

    /** Checks the store against the model every {@code checkEvery} steps, with its audit every {@code auditEvery}. */
    public VersionWalk(ObjectStore store, Hooks hooks, int checkEvery, int auditEvery) {
        this.store = store;
        this.hooks = hooks;
        this.checkEvery = checkEvery;
        this.auditEvery = auditEvery;
    }

    public static ObjectInfo put(ObjectStore store, String bucket, String key, String content) throws IOException {
        BytesContent c = BytesContent.of(content);
        return store.putObject(PutRequest.of(bucket, key, c, c.md5()));
    }

    public static String text(ObjectRead r) throws IOException {
        try (r; InputStream in = r.open(0, r.size())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    public void walk(String bucket, long seed, int steps) throws IOException {
        Random rnd = new Random(seed);
        store.createBucket(bucket, BucketAcl.PRIVATE);
        List<String> keys = List.of("a", "a/b", "a/c", "b", "b/x/y", "c");
        List<String> contents = List.of("one", "two", "three", "");
        TreeMap<String, List<Model>> model = new TreeMap<>();
        Versioning versioning = Versioning.UNVERSIONED;
        for (int step = 0; step < steps; step++) {
            String key = keys.get(rnd.nextInt(keys.size()));
            List<Model> versions = model.computeIfAbsent(key, k -> new ArrayList<>());
            int op = rnd.nextInt(20);
            String where = "seed " + seed + " step " + step + " key " + key;
            if (op < 8) {
                String content = contents.get(rnd.nextInt(contents.size()));
                ObjectInfo o = put(store, bucket, key, content);
                if (versioning == Versioning.ENABLED) {
                    assertNotNull(VersionId.decode(o.versionId()), where);
                } else {
                    versions.removeIf(m -> m.id.equals(VersionId.NULL));
                    assertEquals(versioning == Versioning.UNVERSIONED ? null : VersionId.NULL, o.versionId(), where);
                }
                versions.add(0, new Model(o.versionId() == null ? VersionId.NULL : o.versionId(), false, content));
            } else if (op < 12) {
                ObjectVersion done = store.deleteObjectVersion(bucket, key, null);
                if (versioning == Versioning.UNVERSIONED) {
                    versions.clear();
                } else {
                    assertTrue(done.deleteMarker(), where);
                    if (versioning == Versioning.SUSPENDED) {
                        versions.removeIf(m -> m.id.equals(VersionId.NULL));
                    }
                    versions.add(0, new Model(done.versionId(), true, null));
                }
            } else if (op < 17) {
                if (versions.isEmpty()) {
                    assertNull(store.deleteObjectVersion(bucket, key, VersionId.encode(VersionId.sortAt(5))), where);
                    continue;
                }
                Model victim = versions.get(rnd.nextInt(versions.size()));
                ObjectVersion done = store.deleteObjectVersion(bucket, key, victim.id);
                assertNotNull(done, where);
                assertEquals(victim.marker, done.deleteMarker(), where);
                versions.remove(victim);
            } else if (op < 19) {
                versioning = rnd.nextBoolean() ? Versioning.ENABLED : Versioning.SUSPENDED;
                store.setBucketVersioning(bucket, versioning);
            } else {
                hooks.extraStep();
            }
            int pageSize = 1 + rnd.nextInt(4);
            if ((step + 1) % checkEvery == 0 || step == steps - 1) {
                check(bucket, model, where, pageSize, (step + 1) % auditEvery == 0);
            }
        }
        for (Map.Entry<String, List<Model>> e : model.entrySet()) {
            for (Model m : e.getValue()) {
                store.deleteObjectVersion(bucket, e.getKey(), m.id);
            }
        }
        store.deleteBucket(bucket);
        List<String> problems = hooks.problems();
        assertTrue(problems.isEmpty(), problems.toString());
    }

    private void check(String bucket, TreeMap<String, List<Model>> model, String where, int pageSize, boolean audit)
            throws IOException {
        List<String> expected = new ArrayList<>();
        for (Map.Entry<String, List<Model>> e : model.entrySet()) {
            boolean latest = true;
            for (Model m : e.getValue()) {
                expected.add(e.getKey() + " " + m.id + (m.marker ? " marker" : " " + m.content) + (latest ? " latest" : ""));
                latest = false;
            }
            List<Model> versions = e.getValue();
            ObjectInfo head = store.headObject(bucket, e.getKey());
            if (versions.isEmpty() || versions.get(0).marker) {
                assertNull(head, where);
                ObjectVersion marker = store.currentDeleteMarker(bucket, e.getKey());
                assertEquals(versions.isEmpty() ? null : versions.get(0).id, marker == null ? null : marker.versionId(), where);
            } else {
                assertEquals(versions.get(0).content, text(store.getObject(bucket, e.getKey())), where);
            }
            for (Model m : versions) {
                ObjectVersion v = store.objectVersion(bucket, e.getKey(), m.id);
                assertNotNull(v, where + " version " + m.id);
                assertEquals(m.marker, v.deleteMarker(), where);
                if (!m.marker) {
                    assertEquals(m.content, text(store.getObjectVersion(bucket, e.getKey(), m.id)), where);
                } else {
                    assertNull(store.getObjectVersion(bucket, e.getKey(), m.id), where);
                }
            }
        }
        List<String> listed = new ArrayList<>();
        String keyMarker = null;
        String versionMarker = null;
        for (int pages = 0; ; pages++) {
            assertTrue(pages < 1000, where);
            VersionPage page = store.listObjectVersions(bucket, new VersionQuery("", null, keyMarker, versionMarker, pageSize));
            for (ObjectVersion v : page.versions()) {
                String content = v.deleteMarker() ? " marker" : " " + text(store.getObjectVersion(bucket, v.key(), v.versionId()));
                listed.add(v.key() + " " + v.versionId() + content + (v.latest() ? " latest" : ""));
            }
            if (!page.truncated()) {
                break;
            }
            keyMarker = page.nextKeyMarker();
            versionMarker = page.nextVersionIdMarker();
        }
        assertEquals(expected, listed, where);
        if (audit) {
            List<String> problems = hooks.problems();
            assertTrue(problems.isEmpty(), where + ": " + problems);
        }
    }
}
