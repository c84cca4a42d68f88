package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine with its default options on a real 400 MB file system (a tmpfs, which punches
 * holes as ext4 and XFS do): fill it with 30 KB values until writes are refused, delete a third,
 * and writes come back within a minute with every remaining value intact. Needs the right to
 * mount (root); skipped where the mount is refused. Prints the time to resume and the file
 * system's use at each step.
 */
@Tag("integration")
class SmallDiskReclaimTest {
    private static final int VALUE_BYTES = 30 * 1024;
    private static final long RESUME_WITHIN_NANOS = TimeUnit.MINUTES.toNanos(1);

    @TempDir
    Path temp;

    private static byte[] key(int i) {
        return ("object-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[VALUE_BYTES];
        new Random(i).nextBytes(v);
        return v;
    }

    @Test
    void writesResumeOnAFull400MbFileSystemAfterAThirdIsDeleted() throws Exception {
        Path mount = Files.createDirectory(temp.resolve("disk"));
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=400m", "tmpfs", mount.toString()) == 0,
                "cannot mount a tmpfs here (needs root)");
        try {
            fillDeleteAndResume(mount.resolve("engine"));
        } finally {
            run("umount", mount.toString());
        }
    }

    private static void fillDeleteAndResume(Path dir) throws IOException {
        FileStore store = Files.getFileStore(dir.getParent());
        List<Integer> live = new ArrayList<>();
        List<Integer> deleted = new ArrayList<>();
        try (Engine e = Engine.open(EngineOptions.builder(dir).build())) {
            Table t = e.table("objects");
            int next = 0;
            for (boolean full = false; !full; next++) {
                try {
                    t.put(key(next), value(next));
                    live.add(next);
                } catch (DiskFullException refused) {
                    full = true;
                }
            }
            String whenFull = used(store);
            for (int i = 0; i < live.size(); i += 3) {
                t.delete(key(live.get(i)));
                deleted.add(live.get(i));
            }
            live.removeAll(deleted);
            long deletesDone = System.nanoTime();
            String afterDeletes = used(store);
            int resumed = next++;
            while (true) {
                try {
                    t.put(key(resumed), value(resumed));
                    live.add(resumed);
                    break;
                } catch (DiskFullException stillFull) {
                    if (System.nanoTime() - deletesDone > RESUME_WITHIN_NANOS) {
                        fail("writes still refused a minute after a third was deleted; " + used(store));
                    }
                    sleep(100);
                }
            }
            long resumeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deletesDone);
            String atResume = used(store);
            int refilled = refill(t, live, resumed + 1);
            System.out.printf("400 MB tmpfs, default engine options: %d puts of 30 KiB until refused (%s); "
                    + "%d deleted (%s); writes resumed %d ms after the last delete (%s); %d more puts fit before"
                    + " the space given back ran out (%s)%n", live.size() + deleted.size() - refilled - 1, whenFull,
                    deleted.size(), afterDeletes, resumeMillis, atResume, refilled, used(store));
            assertTrue(refilled > deleted.size() / 2, "the deleted objects' space was given back: " + refilled);
            for (int i : live) {
                assertArrayEquals(value(i), t.get(key(i)), "object " + i);
            }
        }
        try (Engine again = Engine.open(EngineOptions.builder(dir).build())) {
            Table t = again.table("objects");
            for (int i : live) {
                assertArrayEquals(value(i), t.get(key(i)), "object " + i + " after a reopen");
            }
            for (int i : deleted) {
                assertNull(t.get(key(i)));
            }
            assertTrue(live.size() > 1000, "filled with " + live.size());
        }
    }

    /**
     * Puts new objects until writes stay refused for two seconds (or a minute has passed), each
     * refusal asking for the next pass; returns how many went in.
     */
    private static int refill(Table t, List<Integer> live, int from) throws IOException {
        long deadline = System.nanoTime() + RESUME_WITHIN_NANOS;
        long refusedSince = 0;
        int next = from;
        while (System.nanoTime() < deadline) {
            try {
                t.put(key(next), value(next));
                live.add(next++);
                refusedSince = 0;
            } catch (DiskFullException refused) {
                long now = System.nanoTime();
                if (refusedSince == 0) {
                    refusedSince = now;
                } else if (now - refusedSince > TimeUnit.SECONDS.toNanos(2)) {
                    break;
                }
                sleep(50);
            }
        }
        return next - from;
    }

    private static String used(FileStore store) throws IOException {
        long total = store.getTotalSpace();
        long used = total - store.getUsableSpace();
        return String.format("%d MB used, %d %%", used / 1_000_000, Math.round(100.0 * used / total));
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor();
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
