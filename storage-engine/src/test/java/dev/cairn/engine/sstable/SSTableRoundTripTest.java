package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.cairn.engine.Entry;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SSTableRoundTripTest {
    private final FileSystem fs = new LocalFileSystem();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} entries, blockBytes {1}, restartInterval {2}")
    @CsvSource({
        "1, 4096, 16", "2, 4096, 16", "15, 256, 16", "16, 256, 16", "17, 256, 16", "100, 256, 1",
        "1000, 4096, 16", "1000, 256, 3", "5000, 65536, 128", "20000, 4096, 16"})
    void everyEntryComesBackInOrder(int count, int blockBytes, int restartInterval) throws IOException {
        NavigableMap<byte[], byte[]> entries = denseEntries(count);
        SSTableOptions options = SSTableOptions.builder().blockBytes(blockBytes).restartInterval(restartInterval).build();
        Path path = dir.resolve("t.sst");
        TableProperties written = write(fs, path, entries, options);
        assertEquals(fs.size(path), written.fileSize());

        try (SSTableReader reader = SSTableReader.open(fs, path, 7, new BlockCache(1 << 20))) {
            assertEquals(7, reader.fileNumber());
            List<Map.Entry<byte[], byte[]>> scanned = scan(reader, true);
            assertEquals(count, scanned.size());
            int i = 0;
            for (Map.Entry<byte[], byte[]> e : scanned) {
                assertArrayEquals(denseKey(i), e.getKey());
                assertArrayEquals(denseValue(i), e.getValue());
                i++;
            }
            for (int j = 0; j < count; j++) {
                Entry found = reader.seekFirstAtOrAfter(denseKey(j), j % 2 == 0);
                assertArrayEquals(denseKey(j), found.key());
                assertArrayEquals(denseValue(j), found.value());
                assertTrue(reader.mayContain(InternalKeys.filterKey(denseKey(j))));
            }
            TableProperties p = reader.properties();
            assertEquals(written, p, "what finish() returns is what the file records");
            assertEquals(written.hashCode(), p.hashCode());
            assertEquals(count, p.entryCount());
            assertArrayEquals(denseKey(0), p.smallestKey());
            assertArrayEquals(denseKey(count - 1), p.largestKey());
            assertEquals(1000, p.smallestSequence());
            assertEquals(1000 + count - 1, p.largestSequence());
            assertEquals(written.fileSize(), p.fileSize());
            assertEquals(written.creationTimeMillis(), p.creationTimeMillis());
            assertEquals(written.dataBlockCount(), p.dataBlockCount());
            assertEquals(count, p.filterKeyCount());
            long rawKeys = entries.keySet().stream().mapToLong(k -> k.length).sum();
            long rawValues = entries.values().stream().mapToLong(v -> v.length).sum();
            assertEquals(rawKeys, p.rawKeyBytes());
            assertEquals(rawValues, p.rawValueBytes());
            if (rawKeys + rawValues > 2L * blockBytes) {
                assertTrue(p.dataBlockCount() > 1, "expected several blocks, got " + p.dataBlockCount());
            }
            assertTrue(reader.memoryBytes() > 0);
        }
    }

    @Test
    void seeksLandOnTheFirstKeyAtOrAfterTheTarget() throws IOException {
        // Even user keys only, small blocks: targets fall exactly on keys, between them,
        // before the first, after the last and on both sides of every block boundary.
        NavigableMap<byte[], byte[]> entries = new java.util.TreeMap<>(InternalKeys.COMPARATOR);
        for (int i = 0; i < 600; i += 2) {
            entries.put(key(1, String.format("k%05d", i), 50), denseValue(i));
        }
        Path path = dir.resolve("seek.sst");
        write(fs, path, entries, SSTableOptions.builder().blockBytes(256).build());
        try (SSTableReader reader = SSTableReader.open(fs, path, 1, new BlockCache(1 << 20))) {
            assertTrue(reader.properties().dataBlockCount() > 10);
            TableIterator it = reader.iterator(true);
            for (int i = -1; i <= 601; i++) {
                for (long seq : new long[] {InternalKeys.MAX_SEQUENCE, 50, 49}) {
                    byte[] target = key(1, String.format("k%05d", i), seq);
                    Map.Entry<byte[], byte[]> expected = entries.ceilingEntry(target);
                    Entry found = reader.seekFirstAtOrAfter(target, true);
                    it.seek(target);
                    if (expected == null) {
                        assertNull(found, "seek " + i + "/" + seq);
                        assertFalse(it.valid());
                    } else {
                        assertArrayEquals(expected.getKey(), found.key(), "seek " + i + "/" + seq);
                        assertArrayEquals(expected.getValue(), found.value());
                        assertArrayEquals(expected.getKey(), it.key());
                        // The iterator continues across blocks from wherever the seek landed.
                        Map.Entry<byte[], byte[]> after = entries.higherEntry(expected.getKey());
                        it.next();
                        if (after == null) {
                            assertFalse(it.valid());
                        } else {
                            assertArrayEquals(after.getKey(), it.key());
                        }
                    }
                }
            }
            assertNull(reader.seekFirstAtOrAfter(key(2, "", 0), false), "a later table id sorts after all");
            assertArrayEquals(entries.firstKey(), reader.seekFirstAtOrAfter(key(0, "zzz", 1), false).key());
        }
    }

    @Test
    void aTargetBetweenABlocksLastKeyAndItsShortSeparatorFindsTheNextBlock() throws IOException {
        // User keys 0, 4, 8, ... as two bytes: a separator ends in last + 1, leaving room between.
        NavigableMap<byte[], byte[]> entries = new java.util.TreeMap<>(InternalKeys.COMPARATOR);
        for (int i = 0; i < 4000; i += 4) {
            entries.put(InternalKeys.encode(1, new byte[] {(byte) (i >>> 8), (byte) i}, 1, InternalKeys.KIND_VALUE),
                    denseValue(i));
        }
        Path path = dir.resolve("separators.sst");
        write(fs, path, entries, SSTableOptions.builder().blockBytes(256).build());
        try (SSTableReader reader = SSTableReader.open(fs, path, 1, null)) {
            int shortened = 0;
            for (int b = 0; b + 1 < reader.dataBlockCount(); b++) {
                byte[] separator = reader.separator(b);
                if (entries.containsKey(separator)) {
                    continue;
                }
                shortened++;
                byte[] before = entries.lowerKey(separator);
                byte[] after = entries.higherKey(separator);
                byte[] between = InternalKeys.encode(1, InternalKeys.userKey(separator), 5, InternalKeys.KIND_VALUE);
                assertTrue(InternalKeys.COMPARATOR.compare(before, between) < 0);
                assertArrayEquals(after, reader.seekFirstAtOrAfter(between, false).key());
                TableIterator it = reader.iterator(false);
                it.seek(between);
                assertArrayEquals(after, it.key());
            }
            assertTrue(shortened > 10, "separators shortened: " + shortened);
        }
    }

    @Test
    void versionsOfOneUserKeyComeNewestFirstAndCountOnceInTheFilter() throws IOException {
        NavigableMap<byte[], byte[]> entries = new java.util.TreeMap<>(InternalKeys.COMPARATOR);
        entries.put(key(1, "a", 9, InternalKeys.KIND_DELETE), new byte[0]);
        entries.put(key(1, "a", 5), "a5".getBytes());
        entries.put(key(1, "a", 3, InternalKeys.KIND_VALUE_POINTER), "ptr".getBytes());
        entries.put(key(1, "b", 7), "b7".getBytes());
        Path path = dir.resolve("versions.sst");
        TableProperties p = write(fs, path, entries, SSTableOptions.DEFAULTS);
        assertEquals(4, p.entryCount());
        assertEquals(1, p.deletionCount());
        assertEquals(1, p.valuePointerCount());
        assertEquals(2, p.filterKeyCount());
        assertEquals(3, p.smallestSequence());
        assertEquals(9, p.largestSequence());
        try (SSTableReader reader = SSTableReader.open(fs, path, 1, null)) {
            assertEquals(p.deletionCount(), reader.properties().deletionCount());
            assertEquals(p.valuePointerCount(), reader.properties().valuePointerCount());
            // A lookup at snapshot 6 sees the version of sequence 5.
            Entry e = reader.seekFirstAtOrAfter(InternalKeys.seekKey(1, "a".getBytes(), 6), true);
            assertArrayEquals(key(1, "a", 5), e.key());
            Entry latest = reader.seekFirstAtOrAfter(InternalKeys.seekKey(1, "a".getBytes(), 100), true);
            assertEquals(InternalKeys.KIND_DELETE, InternalKeys.kind(latest.key()));
        }
    }

    @Test
    void outOfOrderOrDuplicateKeysAreRefused() throws IOException {
        SSTableWriter writer = new SSTableWriter(fs, dir.resolve("order.sst"), WriteLifetime.SHORT, SSTableOptions.DEFAULTS);
        writer.add(key(1, "b", 5), new byte[1]);
        assertThrows(IllegalArgumentException.class, () -> writer.add(key(1, "b", 5), new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> writer.add(key(1, "a", 5), new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> writer.add(key(1, "b", 6), new byte[1]),
                "a newer sequence of the same key sorts first");
        assertThrows(IllegalArgumentException.class, () -> writer.add(new byte[9], new byte[1]));
        writer.add(key(1, "b", 4), new byte[1]);
        assertEquals(2, writer.finish().entryCount());
    }

    @Test
    void anEmptyTableIsRefusedAndAbandonDeletesTheFile() throws IOException {
        Path path = dir.resolve("empty.sst");
        SSTableWriter writer = new SSTableWriter(fs, path, WriteLifetime.SHORT, SSTableOptions.DEFAULTS);
        IllegalStateException e = assertThrows(IllegalStateException.class, writer::finish);
        assertTrue(e.getMessage().contains("at least one entry"), e.getMessage());
        assertTrue(fs.exists(path));
        writer.abandon();
        assertFalse(fs.exists(path));
        writer.abandon();
        assertThrows(IllegalStateException.class, () -> writer.add(key(1, "a", 1), new byte[0]));
    }

    @Test
    void abandonMidwayDeletesAndFinishedWritersRefuseMore() throws IOException {
        Path path = dir.resolve("abandon.sst");
        SSTableWriter writer = new SSTableWriter(fs, path, WriteLifetime.SHORT, SSTableOptions.DEFAULTS);
        for (int i = 0; i < 1000; i++) {
            writer.add(denseKey(i), denseValue(i));
        }
        writer.abandon();
        assertFalse(fs.exists(path));

        SSTableWriter done = new SSTableWriter(fs, path, WriteLifetime.SHORT, SSTableOptions.DEFAULTS);
        done.add(denseKey(0), denseValue(0));
        done.finish();
        assertThrows(IllegalStateException.class, () -> done.add(denseKey(1), denseValue(1)));
        assertThrows(IllegalStateException.class, done::finish);
        done.abandon();
        assertTrue(fs.exists(path), "abandon after finish leaves the finished table alone");
    }

    @Test
    void aWriterThatFailedAcceptsOnlyAbandon() throws IOException {
        Path path = dir.resolve("failed.sst");
        java.util.concurrent.atomic.AtomicBoolean fail = new java.util.concurrent.atomic.AtomicBoolean();
        SSTableWriter writer = new SSTableWriter(fs, path, WriteLifetime.SHORT, SSTableOptions.DEFAULTS, bytes -> {
            if (fail.get()) {
                throw new java.io.InterruptedIOException("stop");
            }
        });
        for (int i = 0; i < 100; i++) {
            writer.add(denseKey(i), denseValue(i));
        }
        fail.set(true);
        assertThrows(java.io.InterruptedIOException.class, writer::finish);
        fail.set(false);
        assertThrows(IllegalStateException.class, writer::finish);
        assertThrows(IllegalStateException.class, () -> writer.add(denseKey(100), denseValue(100)));
        writer.abandon();
        assertFalse(fs.exists(path));
    }

    @Test
    void estimatedSizeTracksTheFinalSize() throws IOException {
        Path path = dir.resolve("estimate.sst");
        SSTableWriter writer = new SSTableWriter(fs, path, WriteLifetime.SHORT, SSTableOptions.DEFAULTS);
        long previous = 0;
        for (int i = 0; i < 5000; i++) {
            writer.add(denseKey(i), denseValue(i));
            long estimate = writer.estimatedSize();
            assertTrue(estimate >= previous, "estimate must not shrink");
            previous = estimate;
        }
        long estimate = writer.estimatedSize();
        long actual = writer.finish().fileSize();
        assertTrue(Math.abs(estimate - actual) < actual / 10, "estimate " + estimate + " vs actual " + actual);
    }

    @Test
    void theTablesFilterRejectsAbsentKeysAtAboutTheConfiguredRate() throws IOException {
        Path path = dir.resolve("bloom.sst");
        write(fs, path, denseEntries(10_000), SSTableOptions.DEFAULTS);
        try (SSTableReader reader = SSTableReader.open(fs, path, 1, null)) {
            int falsePositives = 0;
            int probes = 50_000;
            for (int i = 0; i < probes; i++) {
                byte[] absent = InternalKeys.filterKey(key(1, String.format("absent-%08d", i), 1));
                if (reader.mayContain(absent)) {
                    falsePositives++;
                }
            }
            // 10 bits per key: about 0.8% in theory.
            assertTrue(falsePositives < probes * 0.02, "false positives " + falsePositives + " of " + probes);
            assertTrue(falsePositives > 0, "with 50,000 probes some false positives are expected");
        }
    }

    @Test
    void aTableWithoutFilterMayContainAnything() throws IOException {
        Path path = dir.resolve("nofilter.sst");
        write(fs, path, denseEntries(100), SSTableOptions.builder().bloomBitsPerKey(0).build());
        try (SSTableReader reader = SSTableReader.open(fs, path, 1, null)) {
            assertTrue(reader.mayContain(InternalKeys.filterKey(key(9, "absent", 1))));
            assertEquals(100, scan(reader, false).size());
        }
    }

    @Test
    void largeValuesSpanTheirOwnBlocks() throws IOException {
        NavigableMap<byte[], byte[]> entries = new java.util.TreeMap<>(InternalKeys.COMPARATOR);
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 50; i++) {
            byte[] value = new byte[random.nextInt(20_000)];
            random.nextBytes(value);
            entries.put(denseKey(i), value);
        }
        Path path = dir.resolve("large.sst");
        write(fs, path, entries, SSTableOptions.DEFAULTS);
        try (SSTableReader reader = SSTableReader.open(fs, path, 1, new BlockCache(1 << 16))) {
            List<byte[]> values = new ArrayList<>();
            for (Map.Entry<byte[], byte[]> e : scan(reader, true)) {
                values.add(e.getValue());
            }
            assertEquals(50, values.size());
            int i = 0;
            for (byte[] expected : entries.values()) {
                assertArrayEquals(expected, values.get(i++));
            }
        }
    }

    @Test
    void iteratorAccessorsRequireAPosition() throws IOException {
        Path path = dir.resolve("pos.sst");
        write(fs, path, denseEntries(3), SSTableOptions.DEFAULTS);
        try (SSTableReader reader = SSTableReader.open(fs, path, 1, null)) {
            TableIterator it = reader.iterator(false);
            assertFalse(it.valid());
            assertThrows(java.util.NoSuchElementException.class, it::key);
            it.seek(key(5, "", 1));
            assertFalse(it.valid());
            assertThrows(java.util.NoSuchElementException.class, it::next);
            it.seekToFirst();
            byte[] k = it.key();
            k[0] ^= 1;
            assertArrayEquals(denseKey(0), it.key(), "key() hands out a copy");
        }
    }

    @Test
    void readsAfterCloseFail() throws IOException {
        Path path = dir.resolve("closed.sst");
        write(fs, path, denseEntries(10), SSTableOptions.DEFAULTS);
        SSTableReader reader = SSTableReader.open(fs, path, 1, null);
        reader.close();
        IOException e = assertThrows(IOException.class, () -> reader.seekFirstAtOrAfter(denseKey(0), false));
        assertTrue(e.getMessage().contains(path.toString()));
    }
}
