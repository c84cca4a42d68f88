package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.fs.FaultInjectingFileSystem;
import dev.cairn.engine.fs.MemFileSystem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Power cuts while dead values' space is being given back: the file system is cloned as a crash
 * would leave it at moments between deletes, refused writes and resumed ones, while passes punch
 * in the background. Every clone opens, every object acknowledged live reads back bytes-exact
 * and every acknowledged delete holds; value GC over the punched files then loses nothing either.
 */
class DiskFullReclaimCrashTest {
    private static final Path DIR = Path.of("/db");
    private static final long RESERVE = 256 << 10;

    private record Clone(MemFileSystem fs, Set<Integer> live, Set<Integer> deleted) {
    }

    private static EngineOptions options(FaultInjectingFileSystem fs, SyncPolicy sync) {
        return EngineOptions.builder(DIR).fileSystem(fs).memtableBytes(1 << 20).valueThreshold(1024)
                .valueFileBytes(64 << 20).reservedDiskBytes(RESERVE).syncPolicy(sync).build();
    }

    private static byte[] key(int i) {
        return ("object-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[20_000 + 61 * (i % 7)];
        new Random(i).nextBytes(v);
        return v;
    }

    @Test
    void everyCrashCloneHoldsWhatWasAcknowledged() throws IOException {
        Random random = new Random(30);
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        Set<Integer> live = new TreeSet<>();
        Set<Integer> deleted = new TreeSet<>();
        List<Clone> clones = new ArrayList<>();
        int resumed = 0;
        try (Engine e = Engine.open(options(fs, SyncPolicy.EVERY_WRITE))) {
            Table t = e.table("t");
            fs.limitSpace(RESERVE + (3 << 20));
            int next = 0;
            for (int round = 0; round < 3; round++) {
                for (boolean full = false; !full; next++) {
                    try {
                        t.put(key(next), value(next));
                        live.add(next);
                    } catch (DiskFullException refused) {
                        full = true;
                    }
                }
                List<Integer> victims = new ArrayList<>(live);
                for (int i = round % 3; i < victims.size(); i += 3) {
                    t.delete(key(victims.get(i)));
                    live.remove(victims.get(i));
                    deleted.add(victims.get(i));
                    if (random.nextInt(8) == 0) {
                        clones.add(new Clone(mem.crashClone(random), new TreeSet<>(live), new TreeSet<>(deleted)));
                    }
                }
                for (int attempt = 0; attempt < 1000; attempt++) {
                    try {
                        t.put(key(next), value(next));
                        live.add(next++);
                        resumed++;
                        break;
                    } catch (DiskFullException stillFull) {
                        if (attempt < 10) {
                            clones.add(new Clone(mem.crashClone(random), new TreeSet<>(live), new TreeSet<>(deleted)));
                        }
                        sleep(20);
                    }
                }
            }
        }
        assertEquals(3, resumed, "writes resumed after each round of deletes");
        assertTrue(clones.size() >= 5, "crash clones taken: " + clones.size());
        for (Clone c : clones) {
            try (Engine again = Engine.open(options(new FaultInjectingFileSystem(c.fs()), SyncPolicy.EVERY_WRITE))) {
                Table t = again.table("t");
                check(t, c);
                again.compactAll();
                again.collectValueGarbage(0.01);
                check(t, c);
            }
        }
    }

    private static void check(Table t, Clone c) throws IOException {
        for (int i : c.live()) {
            assertArrayEquals(value(i), t.get(key(i)), "object " + i);
        }
        for (int i : c.deleted()) {
            assertNull(t.get(key(i)), "deleted object " + i);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
