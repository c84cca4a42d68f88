package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.engine.fs.MemFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * Concurrent writers on the in-memory file system; at a random moment the machine "loses power"
 * (only synced bytes survive, plus a random part of what was not synced). After reopening, every
 * acknowledged write is there and nothing appears that was never written.
 */
class EngineCrashTest {
    private static final int WRITERS = 4;
    private static final int KEYS_PER_WRITER = 40;

    /** Version n of a key: deleted when n % 7 == 0, else a value naming the key and n. */
    static byte[] valueOf(String key, int n, Random sizes) {
        int size = 64 + Math.floorMod((key + n).hashCode(), 5000);
        byte[] v = new byte[size];
        byte[] tag = (key + "#" + n + "#").getBytes();
        for (int i = 0; i < size; i++) {
            v[i] = tag[i % tag.length];
        }
        return v;
    }

    static int versionIn(byte[] value, String key) {
        String s = new String(value, 0, Math.min(value.length, 64));
        String prefix = key + "#";
        if (!s.startsWith(prefix)) {
            return -1;
        }
        int end = s.indexOf('#', prefix.length());
        return end < 0 ? -1 : Integer.parseInt(s.substring(prefix.length(), end));
    }

    @Test
    void acknowledgedWritesSurviveRandomCrashes() throws Exception {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("EngineCrashTest seed=" + seed);
        Random random = new Random(seed);
        MemFileSystem fs = new MemFileSystem();
        Path dir = Path.of("/db");
        AtomicIntegerArray acked = new AtomicIntegerArray(WRITERS * KEYS_PER_WRITER);
        AtomicIntegerArray started = new AtomicIntegerArray(WRITERS * KEYS_PER_WRITER);
        for (int round = 0; round < 12; round++) {
            EngineOptions options = EngineOptions.builder(dir).fileSystem(fs).memtableBytes(32 << 10)
                    .valueThreshold(512).valueFileBytes(64 << 10).targetFileBytes(16 << 10).level1Bytes(32 << 10)
                    .build();
            Engine engine = Engine.open(options);
            verify(engine, acked, started, "seed=" + seed + " round=" + round);
            Table table = engine.table("t");
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                Random local = new Random(random.nextLong());
                threads.add(new Thread(() -> {
                    while (!stop.get()) {
                        int slot = writer * KEYS_PER_WRITER + local.nextInt(KEYS_PER_WRITER);
                        String key = "k" + slot;
                        int n = started.get(slot) + 1;
                        started.set(slot, n);
                        try {
                            if (n % 7 == 0) {
                                table.delete(key.getBytes());
                            } else {
                                table.put(key.getBytes(), valueOf(key, n, local));
                            }
                            acked.set(slot, n);
                        } catch (IOException e) {
                            return;
                        }
                    }
                }));
            }
            threads.forEach(Thread::start);
            Thread.sleep(20 + random.nextInt(150));
            int[] ackedBefore = snapshot(acked);
            MemFileSystem crashed = fs.crashClone(new Random(random.nextLong()));
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            engine.close();
            fs = crashed;
            for (int i = 0; i < ackedBefore.length; i++) {
                // What was acknowledged before the crash is the floor; later acks may be lost.
                acked.set(i, ackedBefore[i]);
            }
        }
        Engine engine = Engine.open(EngineOptions.builder(dir).fileSystem(fs).build());
        verify(engine, acked, started, "seed=" + seed + " final");
        engine.close();
    }

    private static int[] snapshot(AtomicIntegerArray a) {
        int[] out = new int[a.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i);
        }
        return out;
    }

    /** Each key holds a version between its last acknowledged one and its last started one. */
    private static void verify(Engine engine, AtomicIntegerArray acked, AtomicIntegerArray started, String where)
            throws IOException {
        Table table = engine.table("t");
        for (int slot = 0; slot < acked.length(); slot++) {
            String key = "k" + slot;
            byte[] value = table.get(key.getBytes());
            int floor = acked.get(slot);
            int ceiling = started.get(slot);
            if (value == null) {
                boolean deleteInRange = floor == 0;
                for (int n = Math.max(floor, 1); n <= ceiling && !deleteInRange; n++) {
                    deleteInRange = n % 7 == 0;
                }
                assertTrue(deleteInRange, where + ": " + key + " is missing but version " + floor + " was acknowledged");
                started.set(slot, Math.max(ceiling, 0));
                acked.set(slot, floor);
                continue;
            }
            int n = versionIn(value, key);
            if (n < floor || n > ceiling || n % 7 == 0) {
                fail(where + ": " + key + " holds version " + n + ", acknowledged " + floor + ", started " + ceiling);
            }
            if (!java.util.Arrays.equals(value, valueOf(key, n, null))) {
                fail(where + ": " + key + " version " + n + " has wrong bytes");
            }
            // Continue numbering above whatever may exist, so versions stay unique.
            acked.set(slot, n);
        }
    }
}
