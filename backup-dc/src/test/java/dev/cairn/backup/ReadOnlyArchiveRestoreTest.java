package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.StoreDestination;
import dev.cairn.backup.store.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.target.Target;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A restore only reads the archive: its progress is recorded beside the destination. */
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
