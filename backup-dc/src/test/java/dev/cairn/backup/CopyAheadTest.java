package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.embedded.DataDirLayout;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.source.ForwardingBackupSource;
import dev.cairn.backup.source.embedded.CheckpointReader;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The content of a checkpoint copied ahead of its rows, in the order the engine stores it: every
 * small content read once by the storage-order scan and never looked up by its row; empty and
 * multi-chunk content read by their rows; an incremental reads only what the archive lacks; bytes
 * that do not match their hash are left to the row, whose copy reads them again. Each backup
 * restores to the same objects.
 */
class CopyAheadTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    /** A source that passes everything to another and records what content it was asked for. */
    private static class Recording extends ForwardingBackupSource {
        final Set<String> opened = ConcurrentHashMap.newKeySet();
        final List<String> scanned = java.util.Collections.synchronizedList(new ArrayList<>());

        Recording(BackupSource inner) {
            super(inner);
        }

        @Override
        public InputStream openContent(String sha256) throws IOException {
            opened.add(sha256);
            return inner.openContent(sha256);
        }

        @Override
        public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
            inner.scanContent(maxSize, filter, (sha, buffer, offset, length) -> {
                scanned.add(sha);
                sink.accept(sha, buffer, offset, length);
            });
        }
    }

    private Recording lastSource;

    private int cli(BackupSourceOpener opener, String... args) {
        return Main.commandLine(options -> {
            lastSource = new Recording(opener.open());
            return lastSource;
        }).execute(args);
    }

    @FunctionalInterface
    private interface BackupSourceOpener {
        BackupSource open() throws IOException;
    }

    private RunReport backup(BackupSourceOpener opener, Path archive) throws IOException {
        Path report = dir.resolve("report.json");
        assertEquals(0, cli(opener, "run", "--source", "embedded", "--target", "dir:" + archive,
                "--checkpoint-rows", "7", "--copy-threads", "3", "--report", report.toString()));
        return Json.read(Files.readAllBytes(report), RunReport.class, "report");
    }

    private TreeMap<String, String> restore(Path archive, String into) throws IOException {
        assertEquals(0, cli(null, "restore", "--target", "dir:" + archive, "--into", "embedded:" + dir.resolve(into)));
        try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(dir.resolve(into))) {
            return StoreFixture.snapshot(restored.store());
        }
    }

    private static String sha(byte[] b) {
        return Seed.hash("SHA-256", b);
    }

    @Test
    void smallContentIsReadInStorageOrderOnceAndRowsFindItPresent() throws IOException {
        Path storeDir = dir.resolve("store");
        Path archive = dir.resolve("archive");
        int[] sizes = {0, 100, 3_000, 4_096, 5_000, 30_000, 200_000, MIB - 1, MIB, MIB + 1, 2 * MIB + 7};
        Map<String, Long> distinct = new HashMap<>();
        Set<String> notSmall = new TreeSet<>();
        TreeMap<String, String> before;
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(storeDir)) {
            ObjectStore store = s.store();
            store.createBucket("photos", BucketAcl.PRIVATE);
            store.createBucket("thumbs", BucketAcl.PUBLIC_READ);
            for (int i = 0; i < 80; i++) {
                int size = i < sizes.length ? sizes[i] : 200 + (i * 7919) % 60_000;
                byte[] b = Seed.bytes(size, i);
                Seed.put(store, i % 2 == 0 ? "photos" : "thumbs", "k/" + i, b, Seed.attributes(i));
                distinct.put(sha(b), (long) size);
                if (size == 0 || size >= MIB) {
                    notSmall.add(sha(b));
                }
            }
            // The same content under other keys is copied once.
            Seed.put(store, "thumbs", "dup/5", Seed.bytes(sizes[5], 5), Seed.attributes(5));
            Seed.put(store, "photos", "dup/9", Seed.bytes(sizes[9], 9), Seed.attributes(9));
            before = StoreFixture.snapshot(store);
        }

        RunReport first = backup(() -> CheckpointReader.open(storeDir.resolve(DataDirLayout.ENGINE_DIR), true, 0, false, "test store"), archive);
        assertEquals(82, first.objects());
        assertEquals(distinct.size(), first.copiedBlobs(), "every distinct content counted as copied once");
        assertEquals(distinct.values().stream().mapToLong(Long::longValue).sum(), first.copiedBytes());
        Set<String> small = new TreeSet<>(distinct.keySet());
        small.removeAll(notSmall);
        assertEquals(small, new TreeSet<>(lastSource.scanned), "small content read by the storage-order scan");
        assertEquals(small.size(), lastSource.scanned.size(), "each once");
        assertEquals(notSmall, new TreeSet<>(lastSource.opened), "only empty and multi-mebibyte content read by its row");
        assertEquals(before, restore(archive, "restored-1"));

        // Change three objects, add a big one, delete two: the incremental reads only the new content.
        Set<String> newSmall = new TreeSet<>();
        String newBig;
        TreeMap<String, String> after;
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(storeDir)) {
            ObjectStore store = s.store();
            for (int i = 20; i < 23; i++) {
                byte[] b = Seed.bytes(1_000 + i * 100, 500 + i);
                Seed.put(store, i % 2 == 0 ? "photos" : "thumbs", "k/" + i, b, Seed.attributes(i));
                newSmall.add(sha(b));
            }
            byte[] big = Seed.bytes(3 * MIB / 2, 77);
            Seed.put(store, "photos", "big/new", big, Seed.attributes(1));
            newBig = sha(big);
            store.deleteObject("photos", "k/30");
            store.deleteObject("thumbs", "k/31");
            after = StoreFixture.snapshot(store);
        }
        RunReport second = backup(() -> CheckpointReader.open(storeDir.resolve(DataDirLayout.ENGINE_DIR), true, 0, false, "test store"), archive);
        assertEquals(first.backupId(), second.parentId());
        assertEquals(81, second.objects());
        assertEquals(4, second.copiedBlobs());
        assertEquals(newSmall, new TreeSet<>(lastSource.scanned), "an incremental reads only the content the archive lacks");
        assertEquals(Set.of(newBig), lastSource.opened);
        assertEquals(after, restore(archive, "restored-2"));
        assertEquals(0, cli(null, "verify", "--target", "dir:" + archive));
    }

    @Test
    void contentWhoseBytesDoNotMatchItsHashIsLeftToItsRow() throws IOException {
        withThirty((store, contents, archive) -> {
            String victim = sha(contents.get(11));
            BackupSourceOpener opener = () -> new Recording(new ObjectStoreSource(store, "test store", 10, null)) {
                @Override
                public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
                    for (byte[] b : contents) {
                        if (filter.wants(sha(b), b.length)) {
                            byte[] sent = b.clone();
                            if (sha(b).equals(victim)) {
                                sent[7] ^= 1;
                            }
                            sink.accept(sha(b), sent, 0, sent.length);
                        }
                    }
                }
            };
            RunReport report = backup(opener, archive);
            assertEquals(30, report.copiedBlobs());
            assertEquals(Set.of(victim), lastSource.opened, "the mismatching content is read again by its row");
            assertEquals(30, lastSource.scanned.size());
            assertEquals(StoreFixture.snapshot(store), restore(archive, "restored"));
            assertEquals(0, cli(null, "verify", "--target", "dir:" + archive));
            assertTrue(Files.isDirectory(archive));
        });
    }

    @FunctionalInterface
    private interface ThirtyCase {
        void run(ObjectStore store, List<byte[]> contents, Path archive) throws IOException;
    }

    /** Runs a case on a store of 30 small contents under keys k0..k29 of bucket "b", backed up into "archive". */
    private void withThirty(ThirtyCase body) throws IOException {
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(dir.resolve("store"))) {
            ObjectStore store = s.store();
            store.createBucket("b", BucketAcl.PRIVATE);
            List<byte[]> contents = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                byte[] b = Seed.bytes(500 + i * 37, i);
                Seed.put(store, "b", "k" + i, b, Seed.attributes(i));
                contents.add(b);
            }
            body.run(store, contents, dir.resolve("archive"));
        }
    }

    /** A source whose content phase first waits until the rows' scan has delivered rows. */
    private static class RowsFirst extends Recording {
        final java.util.concurrent.CountDownLatch rowsSeen;
        final List<byte[]> contents;

        RowsFirst(BackupSource inner, List<byte[]> contents, int rows) {
            super(inner);
            this.contents = contents;
            this.rowsSeen = new java.util.concurrent.CountDownLatch(rows);
        }

        @Override
        public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
            inner.scan(split, resumeAfter, new RowSink() {
                @Override
                public void accept(String bucket, dev.cairn.store.ObjectInfo row, long[] partSizes, String position)
                        throws IOException {
                    sink.accept(bucket, row, partSizes, position);
                    rowsSeen.countDown();
                }

                @Override
                public void acceptVersion(String bucket, dev.cairn.store.VersionRecord version, String position)
                        throws IOException {
                    sink.acceptVersion(bucket, version, position);
                    rowsSeen.countDown();
                }
            });
        }

        @Override
        public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
            try {
                if (!rowsSeen.await(2, java.util.concurrent.TimeUnit.MINUTES)) {
                    throw new IOException("the rows were not scanned while the content phase ran");
                }
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
            for (byte[] b : contents) {
                if (filter.wants(sha(b), b.length)) {
                    scanned.add(sha(b));
                    sink.accept(sha(b), b, 0, b.length);
                }
            }
        }
    }

    @Test
    void rowsAreScannedWhileTheContentPhaseRunsAndWaitForItsCopies() throws IOException {
        withThirty((store, contents, archive) -> {
            // More rows than a checkpoint holds (7): the split holds them until the content phase ends.
            BackupSourceOpener opener = () -> new RowsFirst(new ObjectStoreSource(store, "test store", 10, null), contents, 20);
            RunReport report = backup(opener, archive);
            assertEquals(30, report.objects());
            assertEquals(30, report.copiedBlobs(), "each content counted as copied once");
            assertEquals(30, lastSource.scanned.size());
            assertEquals(Set.of(), lastSource.opened, "no row read its content: each found it copied ahead");
            assertEquals(StoreFixture.snapshot(store), restore(archive, "restored"));
            assertEquals(0, cli(null, "verify", "--target", "dir:" + archive));
        });
    }

    @Test
    void aContentPhaseThatFailsWhileRowsAreScannedFailsTheRunAndTheNextRunCompletes() throws IOException {
        withThirty((store, contents, archive) -> {
            BackupSourceOpener failing = () -> new RowsFirst(new ObjectStoreSource(store, "test store", 10, null), contents, 20) {
                @Override
                public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
                    int[] n = {0};
                    super.scanContent(maxSize, filter, (sha, buffer, offset, length) -> {
                        if (++n[0] == 12) {
                            throw new IOException("read error injected at the twelfth content");
                        }
                        sink.accept(sha, buffer, offset, length);
                    });
                }
            };
            assertTrue(cli(failing, "run", "--source", "embedded", "--target", "dir:" + archive,
                    "--checkpoint-rows", "7", "--copy-threads", "3") != 0);
            RunReport report = backup(() -> new RowsFirst(new ObjectStoreSource(store, "test store", 10, null), contents, 1), archive);
            assertEquals(30, report.objects());
            assertEquals(StoreFixture.snapshot(store), restore(archive, "restored"));
            assertEquals(0, cli(null, "verify", "--target", "dir:" + archive));
        });
    }

    @Test
    void rowsThatFailStopTheContentPhaseBeforeTheRunReturns() throws IOException {
        withThirty((store, contents, archive) -> {
            java.util.concurrent.atomic.AtomicBoolean contentInterrupted = new java.util.concurrent.atomic.AtomicBoolean();
            BackupSourceOpener rowsFail = () -> new Recording(new ObjectStoreSource(store, "test store", 10, null)) {
                @Override
                public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
                    throw new IOException("row read error injected");
                }

                @Override
                public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
                    try {
                        new java.util.concurrent.CountDownLatch(1).await(2, java.util.concurrent.TimeUnit.MINUTES);
                    } catch (InterruptedException e) {
                        contentInterrupted.set(true);
                        throw new java.io.InterruptedIOException("content phase stopped");
                    }
                    throw new IOException("the content phase was not stopped when the rows failed");
                }
            };
            assertTrue(cli(rowsFail, "run", "--source", "embedded", "--target", "dir:" + archive,
                    "--checkpoint-rows", "7", "--copy-threads", "3") != 0);
            assertTrue(contentInterrupted.get(), "the run stopped its content phase and waited for it");
            RunReport report = backup(() -> new RowsFirst(new ObjectStoreSource(store, "test store", 10, null), contents, 1), archive);
            assertEquals(30, report.objects());
            assertEquals(StoreFixture.snapshot(store), restore(archive, "restored"));
        });
    }
}
