package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.run.RunState;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.store.BucketAcl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What killed runs leave in a directory archive: temporary files (a pack being filled, a blob or
 * row chunk being written) and the folders of runs. Prune counts the temporaries in its bytes and
 * lists them (also in a dry run), removes them once older than the lease — a younger one may be a
 * writer's still at work — and removes the folders of runs that finished or were abandoned.
 */
class PruneLeftoversTest {
    @TempDir
    Path dir;

    private record Outcome(int exit, String out) {
    }

    private Outcome cli(EmbeddedStoreDir store, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        PrintStream both = new PrintStream(out, true, StandardCharsets.UTF_8);
        System.setOut(both);
        System.setErr(both);
        try {
            int exit = Main.commandLine(o -> new ObjectStoreSource(store.store(), "test store", 10, null)).execute(args);
            return new Outcome(exit, out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
    }

    private static Path leftover(Path file, int bytes, boolean old) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[bytes]);
        if (old) {
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(3600)));
        }
        return file;
    }

    @Test
    void pruneCountsListsAndRemovesWhatKilledRunsLeft() throws IOException {
        Path archive = dir.resolve("archive");
        try (EmbeddedStoreDir store = EmbeddedStoreDir.open(dir.resolve("source"))) {
            store.store().createBucket("photos", BucketAcl.PRIVATE);
            for (int i = 0; i < 30; i++) {
                Seed.put(store.store(), "photos", "k" + i, Seed.bytes(500 + i, i), Seed.attributes(i));
            }
            String target = "dir:" + archive;
            assertEquals(0, cli(store, "run", "--source", "embedded", "--target", target).exit);
            var dirTarget = new dev.cairn.backup.target.DirectoryTarget(archive);
            String finished = Catalog.latest(dirTarget).id();

            Path pack = leftover(archive.resolve("packs/0123456789abcdef0123456789abcdef.pack.tmp-5eed-1"), 300_000, true);
            Path blob = leftover(archive.resolve("blobs/ab/cd/abcd.tmp-5eed-2"), 200_000, true);
            Path chunk = leftover(archive.resolve("runs/20260101T000000Z-dead/rows/bucket-photos/00000000.rows.tmp-5eed-3"),
                    1_000, true);
            Path young = leftover(archive.resolve("packs/fedcba9876543210fedcba9876543210.pack.tmp-5eed-4"), 7_000, false);
            // A finished run whose clean-up was interrupted, and an abandoned run's empty folders.
            dirTarget.put(ArchiveLayout.runState(finished), Json.write(new RunState(finished, null, 0, "test store",
                    List.of(), "test store")));
            Files.createDirectories(archive.resolve("runs/20251231T000000Z-gone/progress"));
            long oldBytes = 300_000 + 200_000 + 1_000;

            Outcome dry = cli(store, "prune", "--target", target, "--keep-last", "1", "--dry-run");
            assertEquals(0, dry.exit, dry.out);
            for (Path p : List.of(pack, blob, chunk)) {
                assertTrue(dry.out.contains("would remove " + archive.relativize(p)), dry.out);
                assertTrue(Files.exists(p), "a dry run deletes nothing");
            }
            assertTrue(dry.out.contains("3 temporary files of killed writers (" + String.format("%,d", oldBytes) + " bytes)"),
                    dry.out);
            assertTrue(dry.out.contains("would remove runs/" + finished + "/"), dry.out);
            assertFalse(dry.out.contains(archive.relativize(young).toString()), "a young temporary may be a live writer's");

            Outcome pruned = cli(store, "prune", "--target", target, "--keep-last", "1");
            assertEquals(0, pruned.exit, pruned.out);
            assertTrue(pruned.out.contains("3 temporary files of killed writers (" + String.format("%,d", oldBytes)
                    + " bytes)"), pruned.out);
            for (Path p : List.of(pack, blob, chunk)) {
                assertFalse(Files.exists(p), p + " removed");
            }
            assertTrue(Files.exists(young), "a young temporary is left alone");
            try (var runs = Files.list(archive.resolve("runs"))) {
                assertEquals(List.of(), runs.toList(), "no run folder is left");
            }
            assertTrue(Catalog.runs(dirTarget).isEmpty());
            assertEquals(List.of(finished), Catalog.backups(dirTarget).stream().map(Catalog.Backup::id).toList());
            assertEquals(0, cli(store, "verify", "--target", target).exit);
        }
    }
}
