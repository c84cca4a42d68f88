package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.cli.BackupSources;
import dev.cairn.backup.source.ForwardingBackupSource;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSessions;
import dev.cairn.store.cassandra.CassandraSettings;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live scan of a versioned bucket whose keys change between a split's two passes: a current
 * row written before its bucket was versioned is read as the version {@code null} by the scan of
 * {@code objects}; the key then changes (an Enabled PUT lists that row in {@code versions}, a
 * Suspended PUT replaces it), and the scan of {@code versions} reads the version {@code null}
 * again. The change is made from inside the scan, when the first pass hands over the row, so the
 * second pass sees it whatever the machine's speed. The backup holds each version once, and a
 * restore gives the listing the store has after the change.
 */
@Tag("integration")
class CassandraLiveVersionScanTest {
    private static final String KEYSPACE = "cvlive";

    @TempDir
    Path dir;

    /** A source that changes a key of the store the first time the scan of objects hands over its version null. */
    private static final class ChangingSource extends ForwardingBackupSource {
        private final ObjectStore serving;
        final List<String> emitted = Collections.synchronizedList(new ArrayList<>());
        private final List<String> changed = Collections.synchronizedList(new ArrayList<>());

        ChangingSource(BackupSource inner, ObjectStore serving) {
            super(inner);
            this.serving = serving;
        }

        @Override
        public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
            inner.scan(split, resumeAfter, new RowSink() {
                @Override
                public void accept(String bucket, ObjectInfo row, long[] partSizes, String position) throws IOException {
                    sink.accept(bucket, row, partSizes, position);
                }

                @Override
                public void acceptVersion(String bucket, VersionRecord v, String position) throws IOException {
                    String name = bucket + "/" + v.version().key();
                    emitted.add(name + " " + v.version().versionId() + (v.order() == null ? " unplaced" : " placed"));
                    sink.acceptVersion(bucket, v, position);
                    if (v.order() == null && !changed.contains(name)) {
                        changed.add(name);
                        Seed.put(serving, bucket, v.version().key(), Seed.bytes(700 + changed.size(), 70),
                                VersionedBackupTest.attrs(70 + changed.size()));
                    }
                }
            });
        }
    }

    @Test
    void aKeyChangedBetweenTheTwoPassesIsBackedUpOnceAndRestoresAsTheStoreHasIt() throws Exception {
        CassandraSettings settings = LocalCassandraCluster.settings(KEYSPACE);
        settings.setWriteConsistency(CassandraSettings.WriteConsistency.EACH_QUORUM);
        try (CqlSession session = CassandraSessions.connect(settings)) {
            session.execute("DROP KEYSPACE IF EXISTS " + KEYSPACE);
            CassandraObjectStore.createSchema(session, settings);
            try (CassandraObjectStore store = new CassandraObjectStore(session, false, settings)) {
                store.createBucket("enabled", BucketAcl.PRIVATE);
                store.createBucket("suspended", BucketAcl.PRIVATE);
                for (int i = 0; i < 6; i++) {
                    Seed.put(store, "enabled", "k" + i, Seed.bytes(300 + i, i), VersionedBackupTest.attrs(i));
                    Seed.put(store, "suspended", "k" + i, Seed.bytes(400 + i, 10 + i), VersionedBackupTest.attrs(10 + i));
                }
                store.setBucketVersioning("enabled", Versioning.ENABLED);
                store.setBucketVersioning("suspended", Versioning.SUSPENDED);
                store.awaitSettled();

                Path report = dir.resolve("report.json");
                ChangingSource[] source = new ChangingSource[1];
                int exit = Main.commandLine(o -> {
                    source[0] = new ChangingSource(BackupSources.open(o), store);
                    return source[0];
                }).execute("run", "--source", "cassandra", "--contact-points", LocalCassandraCluster.BACKUP_CONTACT_POINT,
                        "--datacenter", "backup", "--keyspace", KEYSPACE, "--splits", "4", "--page-size", "2",
                        "--checkpoint-rows", "2", "--target", "dir:" + dir.resolve("archive"), "--report", report.toString());
                assertEquals(0, exit);
                store.awaitSettled();
                List<String> after = VersionedBackupTest.versions(store);

                List<String> emitted = source[0].emitted;
                for (int i = 0; i < 6; i++) {
                    assertTrue(emitted.contains("enabled/k" + i + " null unplaced"), emitted.toString());
                    assertTrue(emitted.contains("enabled/k" + i + " null placed"),
                            "the scan of versions reads the version null again once its key changed: " + emitted);
                }

                RunReport r = Json.read(Files.readAllBytes(report), RunReport.class, "report");
                assertEquals("complete", r.status());
                List<String> rows = StoreFixture.rows(new DirectoryTarget(dir.resolve("archive")), r.backupId()).stream()
                        .map(row -> row.bucket() + "/" + row.key() + " " + row.version().version().versionId() + " "
                                + (row.order() == null ? "unplaced" : Hex.encode(row.order())))
                        .toList();
                long expectedRows = after.stream().filter(l -> !l.startsWith("bucket ")).count();
                Path embedded = dir.resolve("embedded");
                int restoreExit = Main.commandLine(o -> {
                    throw new AssertionError("restore reads no source");
                }).execute("restore", "--target", "dir:" + dir.resolve("archive"), "--into", "embedded:" + embedded);
                List<String> restoredVersions;
                List<String> problems;
                try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(embedded)) {
                    restoredVersions = VersionedBackupTest.versions(restored.store());
                    problems = restored.store().audit().problems().stream().map(Object::toString).toList();
                }
                int verifyExit = Main.commandLine(o -> null).execute("verify", "--target", "dir:" + dir.resolve("archive"));
                assertAll(
                        () -> assertEquals(expectedRows, rows.size(), "one row per version: " + rows),
                        () -> assertEquals(rows.size(), r.objects(), "the report counts the rows"),
                        () -> assertEquals(0, restoreExit, "restore"),
                        () -> assertEquals(after, restoredVersions, "the restore, version by version"),
                        () -> assertEquals(List.of(), problems, "audit of the restored store"),
                        () -> assertEquals(0, verifyExit, "verify"));
            }
        }
    }
}
