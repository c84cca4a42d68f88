package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.engine.fs.FaultInjectingFileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import dev.cairn.engine.fs.MemFileSystem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk fills, a third of the objects are deleted, and writes come back without a reopen:
 * the dead values' space is given back in place (holes punched over them) although their one
 * value file is too large to rewrite within the reserve, and nothing live is lost, then or after
 * a crash.
 */
class DiskFullReclaimTest {
    private static final Path DIR = Path.of("/db");
    private static final long RESERVE = 256 << 10;
    private static final int VALUE_BYTES = 30 << 10;
    private static final long RESUME_WITHIN_NANOS = 60_000_000_000L;

    @TempDir
    Path temp;

    private static EngineOptions options(FaultInjectingFileSystem fs) {
        return options(DIR, fs);
    }

    private static EngineOptions options(Path dir, FaultInjectingFileSystem fs) {
        // One value file takes everything (as a new service's 256 MiB file does on a small disk),
        // and the memtable never fills: only what the engine does on its own frees space.
        return EngineOptions.builder(dir).fileSystem(fs).memtableBytes(1 << 20).valueThreshold(1024)
                .valueFileBytes(64 << 20).reservedDiskBytes(RESERVE).build();
    }

    private static byte[] key(int i) {
        return ("object-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[VALUE_BYTES - 97 * (i % 5)];
        new Random(i).nextBytes(v);
        return v;
    }

    @Test
    void writesResumeAfterAThirdIsDeletedAndNothingLiveIsLost() throws IOException {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        List<Integer> live = new ArrayList<>();
        List<Integer> deleted = new ArrayList<>();
        int next = 0;
        try (Engine e = Engine.open(options(fs))) {
            Table t = e.table("t");
            fs.limitSpace(RESERVE + (4 << 20));
            for (boolean full = false; !full && next < 10_000; next++) {
                try {
                    t.put(key(next), value(next));
                    live.add(next);
                } catch (DiskFullException refused) {
                    full = true;
                }
            }
            assertTrue(live.size() > 60, "the disk filled after " + live.size() + " writes");
            long freeWhenFull = fs.usableSpace(DIR);
            for (int i = 0; i < live.size(); i += 3) {
                t.delete(key(live.get(i)));
                deleted.add(live.get(i));
            }
            live.removeAll(deleted);
            long deletesDone = System.nanoTime();

            int resumed = next++;
            putWithinAMinute(t, resumed, deletesDone, fs);
            live.add(resumed);
            long resumeMillis = (System.nanoTime() - deletesDone) / 1_000_000;
            long freeAfter = fs.usableSpace(DIR);
            System.out.printf("disk full with %d objects, %d deleted: writes resumed after %d ms; free %d -> %d bytes"
                    + " (reserve %d)%n", live.size() + deleted.size() - 1, deleted.size(), resumeMillis,
                    freeWhenFull, freeAfter, RESERVE);
            for (int i = 0; i < deleted.size() / 2; i++) {
                putWithinAMinute(t, next, System.nanoTime(), fs);
                live.add(next++);
            }
            assertLiveIntact(t, live, deleted);
        }
        try (Engine again = Engine.open(options(new FaultInjectingFileSystem(mem.crashClone())))) {
            assertLiveIntact(again.table("t"), live, deleted);
            again.compactAll();
            again.collectValueGarbage(0.01);
            assertLiveIntact(again.table("t"), live, deleted);
        }
    }

    @Test
    void anOpenSnapshotKeepsTheValuesItCanReadUntilItIsReleased() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        try (Engine e = Engine.open(options(fs))) {
            Table t = e.table("t");
            fs.limitSpace(RESERVE + (2 << 20));
            List<Integer> stored = new ArrayList<>();
            try {
                for (int i = 0; i < 10_000; i++) {
                    t.put(key(i), value(i));
                    stored.add(i);
                }
            } catch (DiskFullException refused) {
                // full
            }
            Snapshot before = e.snapshot();
            for (int i = 0; i < stored.size(); i += 3) {
                t.delete(key(stored.get(i)));
            }
            for (int attempt = 0; attempt < 20; attempt++) {
                try {
                    t.put(key(100_000), value(100_000));
                    fail("values the snapshot can read were given back");
                } catch (DiskFullException stillFull) {
                    sleepBriefly();
                }
            }
            for (int i : stored) {
                assertArrayEquals(value(i), t.get(key(i), ReadOptions.at(before)), "object " + i + " at the snapshot");
            }
            before.close();
            long released = System.nanoTime();
            while (true) {
                try {
                    t.put(key(100_000), value(100_000));
                    break;
                } catch (DiskFullException stillFull) {
                    if (System.nanoTime() - released > RESUME_WITHIN_NANOS) {
                        fail("writes still refused a minute after the snapshot was released");
                    }
                    sleepBriefly();
                }
            }
        }
    }

    /** On the real file system: checkpoints hard-link value files, which must then keep every byte. */
    @Test
    void aCheckpointTakenWhileFullKeepsEveryValueItHolds() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new LocalFileSystem());
        List<Integer> stored = new ArrayList<>();
        Path checkpoint = temp.resolve("checkpoint");
        try (Engine e = Engine.open(options(temp.resolve("db"), fs))) {
            Table t = e.table("t");
            fs.limitSpace(RESERVE + (2 << 20));
            try {
                for (int i = 0; i < 10_000; i++) {
                    t.put(key(i), value(i));
                    stored.add(i);
                }
            } catch (DiskFullException refused) {
                // full
            }
            fs.unlimitSpace();
            e.checkpoint(checkpoint);
            fs.limitSpace(RESERVE / 2);
            for (int i = 0; i < stored.size(); i += 3) {
                t.delete(key(stored.get(i)));
            }
            // Each refused write asks for a pass; the checkpoint holds the dead values' space.
            for (int attempt = 0; attempt < 20; attempt++) {
                try {
                    t.put(key(100_000), value(100_000));
                } catch (DiskFullException stillFull) {
                    sleepBriefly();
                }
            }
        }
        try (Engine copy = Engine.openReadOnly(EngineOptions.builder(checkpoint).build())) {
            for (int i : stored) {
                assertArrayEquals(value(i), copy.table("t").get(key(i)), "the checkpoint's object " + i);
            }
        }
    }

    /** Puts object {@code i}, trying again while refused (each refusal asks for reclamation), for a minute from {@code since}. */
    private static void putWithinAMinute(Table t, int i, long since, FaultInjectingFileSystem fs) throws IOException {
        while (true) {
            try {
                t.put(key(i), value(i));
                return;
            } catch (DiskFullException stillFull) {
                if (System.nanoTime() - since > RESUME_WITHIN_NANOS) {
                    fail("writes still refused a minute after a third was deleted; free " + fs.usableSpace(DIR)
                            + " bytes, reserve " + RESERVE);
                }
                sleepBriefly();
            }
        }
    }

    private static void assertLiveIntact(Table t, List<Integer> live, List<Integer> deleted) throws IOException {
        for (int i : live) {
            assertArrayEquals(value(i), t.get(key(i)), "object " + i + " reads back");
        }
        for (int i : deleted) {
            assertNull(t.get(key(i)), "object " + i + " stays deleted");
        }
        assertEquals(live.size(), count(t));
    }

    private static int count(Table t) throws IOException {
        int n = 0;
        try (EntryIterator it = t.scan(KeyRange.all())) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
