package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.store.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kill -9 of a backup job mid-run (a child JVM running the real command line), then resume. */
@Tag("integration")
class KillResumeTest {
    @TempDir
    Path dir;

    private Process start(Path storeDir, Path archive, long delayMillis, Path report) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ChildBackupMain.class.getName(),
                storeDir.toString(), Long.toString(delayMillis),
                "run", "--source", "embedded", "--target", "dir:" + archive, "--checkpoint-rows", "50",
                "--copy-threads", "2", "--lease-seconds", "2", "--report", report.toString()));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
    }

    @Test
    void aKilledBackupResumesAndCompletesCorrectly() throws Exception {
        Path storeDir = dir.resolve("store");
        Path archive = dir.resolve("archive");
        TreeMap<String, String> expected;
        try (EmbeddedStoreDir store = EmbeddedStoreDir.open(storeDir)) {
            store.store().createBucket("one", BucketAcl.PRIVATE);
            store.store().createBucket("two", BucketAcl.PUBLIC_READ);
            for (int i = 0; i < 1200; i++) {
                Seed.put(store.store(), i % 2 == 0 ? "one" : "two", "obj/" + i, Seed.bytes(2000 + i * 7, i), Seed.attributes(i));
            }
            expected = StoreFixture.snapshot(store.store());
        }
        DirectoryTarget target = new DirectoryTarget(archive);
        Process child = start(storeDir, archive, 5, dir.resolve("killed.json"));
        try {
            // Kill once at least two checkpoints of some split are durable.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (true) {
                List<String> chunks = new ArrayList<>();
                target.list("runs/", e -> {
                    if (e.name().endsWith(".rows")) {
                        chunks.add(e.name());
                    }
                });
                if (chunks.size() >= 4) {
                    break;
                }
                assertTrue(child.isAlive(), "the child ended before it could be killed: " + Files.readString(dir.resolve("child.log")));
                assertTrue(System.nanoTime() < deadline, "no progress recorded in time");
                Thread.sleep(50);
            }
        } finally {
            child.destroyForcibly(); // SIGKILL
            child.waitFor(30, TimeUnit.SECONDS);
        }
        assertTrue(Catalog.backups(target).isEmpty(), "a killed run is not listed as a complete backup");
        assertEquals(1, Catalog.runs(target).size(), "its state is kept for resuming");
        assertTrue(Files.exists(archive.resolve("locks/writer.lease")), "the killed run left its lock behind");
        Thread.sleep(2_500); // the killed holder's lease expires: no one renews it

        Process resumed = start(storeDir, archive, 0, dir.resolve("resumed.json"));
        assertTrue(resumed.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, resumed.exitValue(), Files.readString(dir.resolve("child.log")));
        RunReport report = Json.read(Files.readAllBytes(dir.resolve("resumed.json")), RunReport.class, "report");
        assertTrue(report.resumed(), "the second run resumed the first");
        assertEquals(1200, report.objects());
        assertTrue(Catalog.runs(target).isEmpty());

        Path restored = dir.resolve("restored");
        assertEquals(0, Main.commandLine(o -> {
            throw new AssertionError("restore reads no source");
        }).execute("restore", "--target", "dir:" + archive, "--into", "embedded:" + restored));
        try (EmbeddedStoreDir store = EmbeddedStoreDir.open(restored)) {
            assertEquals(expected, StoreFixture.snapshot(store.store()));
        }
        assertEquals(0, Main.commandLine(o -> null).execute("verify", "--target", "dir:" + archive));
    }
}
