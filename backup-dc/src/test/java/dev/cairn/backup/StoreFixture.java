package dev.cairn.backup;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.ManifestReader;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.Target;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ListPage;
import dev.cairn.store.ListQuery;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Opening embedded stores as sources, and comparing stores and manifests. */
public final class StoreFixture {
    private StoreFixture() {
    }

    /** The source a test's child JVM and in-process runs both use: an embedded store directory. */
    public static ObjectStoreSource source(Path storeDir) throws IOException {
        EmbeddedStoreDir dir = EmbeddedStoreDir.open(storeDir);
        return new ObjectStoreSource(dir.store(), "embedded store " + storeDir, 200, dir);
    }

    /** Every object of a store: "bucket/key" to sha256 + attributes, read back through getObject. */
    public static TreeMap<String, String> snapshot(ObjectStore store) throws IOException {
        TreeMap<String, String> out = new TreeMap<>();
        for (BucketInfo b : store.listBuckets()) {
            String after = null;
            ListPage page;
            do {
                page = store.listObjects(b.name(), new ListQuery("", null, after, 500));
                for (ObjectInfo o : page.objects()) {
                    try (ObjectRead r = store.getObject(b.name(), o.key()); InputStream in = r.open(0, r.size())) {
                        String sha = Seed.hash("SHA-256", in.readAllBytes());
                        out.put(b.name() + "/" + o.key(), sha + " " + o.size() + " " + o.etag() + " " + o.attributes());
                    }
                }
                after = page.lastReturned();
            } while (page.truncated());
        }
        return out;
    }

    public static List<BackupRow> rows(Target target, String backupId) throws IOException {
        String name = ArchiveLayout.manifest(backupId);
        List<BackupRow> rows = new ArrayList<>();
        try (InputStream in = target.open(name)) {
            ManifestReader r = new ManifestReader(name, in);
            for (BackupRow row = r.next(); row != null; row = r.next()) {
                rows.add(row);
            }
        }
        return rows;
    }

    public static void assertSameObjects(ObjectStore expected, ObjectStore actual) throws IOException {
        assertEquals(snapshot(expected), snapshot(actual));
    }
}
