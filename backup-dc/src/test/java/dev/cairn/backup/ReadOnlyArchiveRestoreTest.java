package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.cli.ExitCode;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.StoreDestination;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.target.Target;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore only reads the archive: its progress is recorded beside the destination, and a
 * directory archive is opened without being created or required to be writable.
 */
class ReadOnlyArchiveRestoreTest {
    @TempDir
    Path dir;

    private static Restore.Result restore(Target archive, Path data) throws IOException, InterruptedException {
        String id = Catalog.find(archive, null).id();
        try (EmbeddedStoreDir store = EmbeddedStoreDir.open(data);
             StoreDestination into = new StoreDestination(store.store(), "embedded store " + data, null);
             Progress progress = new Progress("restore", 0, new PrintStream(new ByteArrayOutputStream()), false)) {
            return new Restore(archive, id, into, Set.of(), "", false, 2, new PrintStream(new ByteArrayOutputStream()),
                    data.resolve("restores")).run(progress);
        }
    }

    private static TreeMap<String, Long> files(Path root) throws IOException {
        TreeMap<String, Long> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                out.put(root.relativize(p).toString(), Files.getLastModifiedTime(p).toMillis());
            }
        }
        return out;
    }

    private static void setWritable(Path root, boolean writable) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) {
                boolean dir = Files.isDirectory(p);
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(
                        (writable ? "rw" : "r-") + (dir ? "x" : "-") + "r-" + (dir ? "x" : "-") + "---"));
            }
        }
    }

    @Test
    void aWriteProtectedDirectoryArchiveIsRestoredByTheCommand() throws Exception {
        try (SmallArchive small = SmallArchive.backedUp(dir)) {
            setWritable(small.archive(), false);
            try {
                // root ignores file modes: there the archive is still writable and this says nothing
                assumeFalse(Files.isWritable(small.archive()), "running as a user who ignores file permissions");
                Path data = dir.resolve("data");
                assertEquals(0, small.cli("restore", "--target", small.target(), "--into", "embedded:" + data));
                try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(data)) {
                    assertEquals(small.snapshot, StoreFixture.snapshot(restored.store()));
                }
            } finally {
                setWritable(small.archive(), true);
            }
        }
    }

    @Test
    void aMissingArchiveDirectoryIsNamedAndNotCreated() throws Exception {
        try (SmallArchive small = SmallArchive.backedUp(dir)) {
            Path missing = dir.resolve("no-such-archive");
            assertEquals(ExitCode.FAILED, small.cli("restore", "--target", "dir:" + missing, "--into",
                    "embedded:" + dir.resolve("data")));
            assertFalse(Files.exists(missing), "a restore creates no archive");
        }
    }

    @Test
    void listAndVerifyOnlyReadTheArchive() throws Exception {
        try (SmallArchive small = SmallArchive.backedUp(dir)) {
            Path missing = dir.resolve("no-such-archive");
            assertEquals(ExitCode.FAILED, small.cli("list", "--target", "dir:" + missing));
            assertEquals(ExitCode.FAILED, small.cli("verify", "--target", "dir:" + missing));
            assertFalse(Files.exists(missing), "listing or verifying creates no archive");
        }
    }

    @Test
    void progressAnOlderJobRecordedInTheArchiveIsStillFound() throws Exception {
        try (SmallArchive small = SmallArchive.backedUp(dir)) {
            Path data = dir.resolve("data");
            assertFalse(restore(new DirectoryTarget(small.archive()), data).alreadyDone());
            Path state;
            try (Stream<Path> states = Files.list(data.resolve("restores"))) {
                state = states.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
            }
            // Where older jobs kept it, as they named it.
            Files.createDirectories(small.archive().resolve("restores"));
            Files.move(state, small.archive().resolve("restores").resolve(state.getFileName()));
            assertTrue(restore(new ReadOnlyTarget(new DirectoryTarget(small.archive())), data).alreadyDone());
        }
    }

    @Test
    void anArchiveThatRefusesWritesIsRestoredAndTheProgressStaysBesideTheDestination() throws Exception {
        try (SmallArchive small = SmallArchive.backedUp(dir)) {
            TreeMap<String, Long> archiveBefore = files(small.archive());
            Target readOnly = new ReadOnlyTarget(new DirectoryTarget(small.archive()));
            Path data = dir.resolve("data");

            Restore.Result first = restore(readOnly, data);
            assertFalse(first.alreadyDone());
            assertEquals(SmallArchive.OBJECTS, first.objects());
            try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(data)) {
                assertEquals(small.snapshot, StoreFixture.snapshot(restored.store()));
            }
            try (Stream<Path> states = Files.list(data.resolve("restores"))) {
                assertEquals(1, states.filter(p -> p.toString().endsWith(".json")).count(), "the progress beside the destination");
            }
            // The progress is found again: the same restore knows it is done.
            assertTrue(restore(readOnly, data).alreadyDone());
            assertEquals(archiveBefore, files(small.archive()), "nothing in the archive was written");
        }
    }
}
