package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.run.RunState;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.Hex;
import dev.cairn.store.Versioning;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSessions;
import dev.cairn.store.cassandra.CassandraSettings;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the backup command (a child JVM, the real command and Cassandra source) while a
 * split is inside its {@code versions} pass — its progress records a position in table
 * {@code versions} — then the command again: it resumes the run, and the backup holds every
 * version of every key exactly once (none lost, none twice), restores to the same listing and
 * verifies. The killed child hands each row of the {@code versions} pass over a little late
 * ({@link SlowVersionsBackup}), so the pass lasts long enough to be killed in on any machine.
 */
@Tag("integration")
class CassandraKillVersionsTest {
    private static final String KEYSPACE = "cvkill";

    @TempDir
    Path dir;

    private Process start(Path archive, long delayMs, Path report) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dcairn.test.versions-delay-ms=" + delayMs,
                "-cp", System.getProperty("java.class.path"), SlowVersionsBackup.class.getName(),
                "run", "--source", "cassandra", "--contact-points", LocalCassandraCluster.BACKUP_CONTACT_POINT,
                "--datacenter", "backup", "--keyspace", KEYSPACE, "--splits", "6", "--splits-in-flight", "2",
                "--page-size", "5", "--checkpoint-rows", "4", "--checkpoint-seconds", "1", "--lease-seconds", "2",
                "--target", "dir:" + archive, "--report", report.toString()));
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("child.log").toFile())).start();
    }

    /** Whether some split's recorded progress lies in table versions, the split not done. */
    private static boolean insideVersionsPass(Path archive) throws IOException {
        Path runs = archive.resolve("runs");
        if (!Files.isDirectory(runs)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(runs)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (!p.getParent().getFileName().toString().equals("progress") || !p.toString().endsWith(".json")) {
                    continue;
                }
                byte[] bytes;
                try {
                    bytes = Files.readAllBytes(p);
                } catch (NoSuchFileException replaced) {
                    continue;
                }
                RunState.SplitProgress progress;
                try {
                    progress = Json.read(bytes, RunState.SplitProgress.class, p.toString());
                } catch (IOException partial) {
                    continue; // being replaced
                }
                if (!progress.done() && progress.position() != null && progress.position().startsWith("v")) {
                    return true;
                }
            }
        } catch (UncheckedIOException walkedIntoARename) {
            // A temporary file renamed while the walk read it: the caller looks again.
            if (!(walkedIntoARename.getCause() instanceof NoSuchFileException)) {
                throw walkedIntoARename;
            }
        }
        return false;
    }

    private static void seed(CassandraObjectStore store) throws Exception {
        store.createBucket("va", BucketAcl.PRIVATE);
        store.createBucket("vs", BucketAcl.PRIVATE);
        store.createBucket("plain", BucketAcl.PRIVATE);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int k = 0; k < 12; k++) {
                int key = k;
                done.add(pool.submit(() -> {
                    Seed.put(store, "vs", "early/" + key, Seed.bytes(200 + key, key), VersionedBackupTest.attrs(key));
                    Seed.put(store, "plain", "p/" + key, Seed.bytes(300 + key, 100 + key), VersionedBackupTest.attrs(key));
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
            store.setBucketVersioning("va", Versioning.ENABLED);
            store.setBucketVersioning("vs", Versioning.SUSPENDED);
            done.clear();
            for (int k = 0; k < 40; k++) {
                int key = k;
                done.add(pool.submit(() -> {
                    for (int v = 0; v < 4; v++) {
                        Seed.put(store, "va", "k/" + key, Seed.bytes(1000 + key * 10 + v, key * 10 + v),
                                VersionedBackupTest.attrs(v));
                    }
                    if (key % 7 == 3) {
                        store.deleteObjectVersion("va", "k/" + key, null);
                    }
                    if (key < 12 && key % 2 == 0) {
                        Seed.put(store, "vs", "early/" + key, Seed.bytes(400 + key, 200 + key), VersionedBackupTest.attrs(key));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(300, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        store.awaitSettled();
    }

    @Test
    void aBackupKilledInsideTheVersionsPassResumesAndHoldsEveryVersionOnce() throws Exception {
        CassandraSettings settings = LocalCassandraCluster.settings(KEYSPACE);
        settings.setWriteConsistency(CassandraSettings.WriteConsistency.EACH_QUORUM);
        List<String> before;
        try (CqlSession session = CassandraSessions.connect(settings)) {
            session.execute("DROP KEYSPACE IF EXISTS " + KEYSPACE);
            CassandraObjectStore.createSchema(session, settings);
            try (CassandraObjectStore store = new CassandraObjectStore(session, false, settings)) {
                seed(store);
                before = VersionedBackupTest.versions(store);
            }
        }
        Path archive = dir.resolve("archive");
        DirectoryTarget target = new DirectoryTarget(archive);

        Process killed = start(archive, 15, dir.resolve("killed.json"));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            while (!insideVersionsPass(archive)) {
                assertTrue(killed.isAlive(), "the job ended before it could be killed: " + Files.readString(dir.resolve("child.log")));
                assertTrue(System.nanoTime() < deadline, "no position in table versions recorded in time");
                Thread.sleep(20);
            }
        } finally {
            killed.destroyForcibly();
            assertTrue(killed.waitFor(60, TimeUnit.SECONDS), "the killed job is gone");
        }
        assertTrue(Catalog.backups(target).isEmpty(), "a killed run is not listed as a complete backup");
        assertEquals(1, Catalog.runs(target).size(), "its state is kept for resuming");
        Thread.sleep(2_500); // the killed holder's 2 s lease expires: no one renews it

        Process resumed = start(archive, 0, dir.resolve("resumed.json"));
        assertTrue(resumed.waitFor(300, TimeUnit.SECONDS), "the resumed run ended in time");
        assertEquals(0, resumed.exitValue(), Files.readString(dir.resolve("child.log")));
        RunReport report = Json.read(Files.readAllBytes(dir.resolve("resumed.json")), RunReport.class, "report");
        assertTrue(report.resumed(), "the second run resumed the first: " + Files.readString(dir.resolve("child.log")));
        assertTrue(Catalog.runs(target).isEmpty());

        List<BackupRow> rows = StoreFixture.rows(target, report.backupId());
        List<String> names = rows.stream().map(r -> r.bucket() + "/" + r.key() + " "
                + (r.isVersion() ? r.version().version().versionId() + " " + (r.order() == null ? "-" : Hex.encode(r.order())) : "")).toList();
        assertEquals(names.size(), new HashSet<>(names).size(), "no row twice: " + names);
        assertEquals(before.stream().filter(l -> !l.startsWith("bucket ")).count(), rows.size(), "one row per version");
        assertEquals(rows.size(), report.objects());

        Path embedded = dir.resolve("embedded");
        assertEquals(0, Main.commandLine(o -> {
            throw new AssertionError("restore reads no source");
        }).execute("restore", "--target", "dir:" + archive, "--into", "embedded:" + embedded));
        try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(embedded)) {
            assertEquals(before, VersionedBackupTest.versions(restored.store()), "every version restored, in its place");
            assertEquals(List.of(), restored.store().audit().problems());
        }
        assertEquals(0, Main.commandLine(o -> null).execute("verify", "--target", "dir:" + archive));
    }
}
