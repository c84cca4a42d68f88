package dev.cairn.backup.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.backup.Seed;
import dev.cairn.backup.StoreFixture;
import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.source.ForwardingBackupSource;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.target.Target;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows scanned while the content phase runs are held, then recorded {@code --checkpoint-rows} at a
 * time, each chunk followed by its split's position: a run killed after the phase resumes where
 * its last chunk ended, not at the start of the split.
 */
class HeldRowsChunksTest {
    private static final int ROWS = 30;
    private static final int CHECKPOINT_ROWS = 7;

    @TempDir
    Path dir;

    @Test
    void heldRowsAreRecordedACheckpointsWorthAtATime() throws Exception {
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(dir.resolve("store"))) {
            ObjectStore store = s.store();
            store.createBucket("b", BucketAcl.PRIVATE);
            for (int i = 0; i < ROWS; i++) {
                Seed.put(store, "b", "k" + (100 + i), Seed.bytes(300 + i, i), Seed.attributes(i));
            }
            Recording target = new Recording(new DirectoryTarget(dir.resolve("archive")));
            BackupRun run = new BackupRun(new ContentAfterRows(new ObjectStoreSource(store, "test store", 10, null)),
                    target, new RunSettings(1, 2, CHECKPOINT_ROWS, Duration.ofMinutes(10), Duration.ofMinutes(1)),
                    new PrintStream(new ByteArrayOutputStream()), new Progress("backup", 0, new PrintStream(new ByteArrayOutputStream()), false));
            BackupRun.Result result = run.execute();

            String split = "bucket-b";
            List<String> expected = new ArrayList<>();
            for (int seq = 0; seq * CHECKPOINT_ROWS < ROWS; seq++) {
                expected.add(ArchiveLayout.rowChunk(result.backupId(), split, seq));
                expected.add(ArchiveLayout.progress(result.backupId(), split));
            }
            assertEquals(expected, target.rowsAndProgress, "5 chunks of at most 7 rows, each followed by its position");
            assertEquals(List.of("k106", "k113", "k120", "k127", "k129"), target.positions, "each chunk's last key");
            assertEquals(ROWS, StoreFixture.rows(target, result.backupId()).size());
        }
    }

    /** A source whose content phase waits until the split's every row was scanned, so that all of them are held. */
    private static final class ContentAfterRows extends ForwardingBackupSource {
        final CountDownLatch scanned = new CountDownLatch(1);

        ContentAfterRows(BackupSource inner) {
            super(inner);
        }

        @Override
        public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
            try {
                inner.scan(split, resumeAfter, sink);
            } finally {
                scanned.countDown();
            }
        }

        @Override
        public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
            try {
                if (!scanned.await(2, TimeUnit.MINUTES)) {
                    throw new IOException("the rows were not scanned while the content phase ran");
                }
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
        }
    }

    /** A target that records the names of row chunks and split positions written, in order. */
    private static final class Recording implements Target {
        final Target inner;
        final List<String> rowsAndProgress = Collections.synchronizedList(new ArrayList<>());
        final List<String> positions = Collections.synchronizedList(new ArrayList<>());

        Recording(Target inner) {
            this.inner = inner;
        }

        private void record(String name) {
            if (name.endsWith(".rows") || name.contains("/progress")) {
                rowsAndProgress.add(name);
            }
        }

        @Override
        public String describe() {
            return inner.describe();
        }

        @Override
        public long size(String name) throws IOException {
            return inner.size(name);
        }

        @Override
        public InputStream open(String name, long offset) throws IOException {
            return inner.open(name, offset);
        }

        @Override
        public Staged stage(String name) throws IOException {
            return inner.stage(name);
        }

        @Override
        public void put(String name, InputStream in, long size) throws IOException {
            record(name);
            inner.put(name, in, size);
        }

        @Override
        public void put(String name, byte[] bytes) throws IOException {
            record(name);
            if (name.contains("/progress/")) {
                positions.add(Json.read(bytes, RunState.SplitProgress.class, name).position());
            }
            inner.put(name, bytes);
        }

        @Override
        public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
            return inner.putIfAbsent(name, bytes);
        }

        @Override
        public void list(String prefix, EntryVisitor visitor) throws IOException {
            inner.list(prefix, visitor);
        }

        @Override
        public void delete(String name) throws IOException {
            inner.delete(name);
        }

        @Override
        public void sync() throws IOException {
            inner.sync();
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }
    }
}
