package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.cli.ExitCode;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.run.RunState;
import dev.cairn.backup.source.ForwardingBackupSource;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run interrupted after its content phase copied every content ahead, before any row was
 * recorded, then resumed: the resumed attempt finds the content present and copies nothing, and
 * the backup's report and {@code list} still count every blob the run copied, over both attempts.
 */
class ResumedRunCountsTest {
    @TempDir
    Path dir;

    @Test
    void aResumedRunCountsTheCopiesOfEveryAttempt() throws Exception {
        Path archive = dir.resolve("archive");
        DirectoryTarget target = new DirectoryTarget(archive);
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(dir.resolve("store"))) {
            s.store().createBucket("b", BucketAcl.PRIVATE);
            List<byte[]> contents = new ArrayList<>();
            long bytes = 0;
            for (int i = 0; i < 30; i++) {
                byte[] b = Seed.bytes(2_000 + i * 97, i);
                Seed.put(s.store(), "b", "k" + i, b, Seed.attributes(i));
                contents.add(b);
                bytes += b.length;
            }
            AtomicBoolean failRows = new AtomicBoolean(true);
            var cl = Main.commandLine(o -> new ForwardingBackupSource(new ObjectStoreSource(s.store(), "test store", 10, null)) {
                @Override
                public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
                    for (byte[] b : contents) {
                        String sha = Seed.hash("SHA-256", b);
                        if (filter.wants(sha, b.length)) {
                            sink.accept(sha, b, 0, b.length);
                        }
                    }
                }

                @Override
                public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
                    if (failRows.get()) {
                        awaitCountedCopies(target, contents.size());
                        throw new IOException("the source went away (test)");
                    }
                    inner.scan(split, resumeAfter, sink);
                }
            });
            String[] run = {"run", "--source", "embedded", "--target", "dir:" + archive,
                    "--report", dir.resolve("report.json").toString(), "--checkpoint-seconds", "1"};
            assertEquals(ExitCode.FAILED, cl.execute(run));
            assertTrue(Catalog.backups(target).isEmpty());
            assertEquals(1, Catalog.runs(target).size(), "the run is unfinished");

            String runId = Catalog.runs(target).get(0);
            List<String> attempts = new ArrayList<>();
            for (var e : target.listAll(ArchiveLayout.attempts(runId))) {
                attempts.add(e.name() + " " + new String(target.read(e.name()), StandardCharsets.UTF_8));
            }
            failRows.set(false);
            assertEquals(ExitCode.OK, cl.execute(run));
            RunReport report = Json.read(Files.readAllBytes(dir.resolve("report.json")), RunReport.class, "report");
            assertTrue(report.resumed());
            assertEquals(30, report.copiedBlobs(), "the blobs the first attempt copied count: " + attempts);
            assertEquals(bytes, report.copiedBytes());
            assertEquals(bytes, Catalog.latest(target).trailer().copiedBytes());

            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream saved = System.out;
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            try {
                assertEquals(0, Main.commandLine(o -> null).execute("list", "--target", "dir:" + archive));
            } finally {
                System.setOut(saved);
            }
            String listed = out.toString(StandardCharsets.UTF_8);
            assertTrue(listed.contains(String.format("%,d", bytes) + "  yes"), listed);
        }
    }

    /**
     * Waits until the attempt's record in the archive counts all {@code blobs} copies: their pack
     * is sealed, synced and counted (a seal interrupted before leaves a pack the run never counted),
     * so that the run fails with its copies durable and counted. The record is written at each
     * checkpoint interval when the copies changed; the test's run takes one a second.
     */
    private static void awaitCountedCopies(DirectoryTarget target, int blobs) throws IOException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        try {
            while (countedCopies(target) < blobs) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("the copies were not counted in time");
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException();
        }
    }

    private static long countedCopies(DirectoryTarget target) throws IOException {
        long blobs = 0;
        for (String runId : Catalog.runs(target)) {
            for (var e : target.listAll(ArchiveLayout.attempts(runId))) {
                byte[] json = target.read(e.name());
                if (json != null) {
                    blobs += Json.read(json, RunState.Attempt.class, e.name()).copiedBlobs();
                }
            }
        }
        return blobs;
    }
}
