package dev.cairn.service.admin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Table;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointsTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writesAndCompactionGoOnWhileACheckpointIsHeldAndItKeepsItsOwnState() throws Exception {
        EngineOptions options = EngineOptions.builder(dir.resolve("engine")).memtableBytes(256 << 10)
                .level0CompactionTrigger(2).build();
        try (Engine engine = Engine.open(options);
             Checkpoints checkpoints = new Checkpoints(engine, dir.resolve("checkpoints"), Duration.ofHours(6),
                     Clock.systemUTC())) {
            Table t = engine.table("objects");
            for (int i = 0; i < 2000; i++) {
                t.put(b("k" + i), b("before-" + i + "-" + "x".repeat(200)));
            }
            engine.flush();
            Checkpoints.Checkpoint c = checkpoints.create();
            assertTrue(Files.isDirectory(c.path()));
            assertEquals(List.of(c), checkpoints.list());
            assertEquals(Duration.ofHours(6), Duration.between(c.createdAt(), c.expiresAt()));

            long compactionsBefore = engine.stats().compactions();
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 2000; i++) {
                    t.put(b("k" + i), b("after-" + round + "-" + i + "-" + "y".repeat(200)));
                }
                engine.flush();
            }
            engine.compactAll();
            assertTrue(engine.stats().compactions() > compactionsBefore, "compaction ran while the checkpoint was held");
            // No assertion on write stalls: a loaded machine lets flushes and compactions lag and so
            // stalls writes for a moment. A checkpoint that held compaction back would stall them for
            // good: some ten level-0 files are written past a stop at six, so a put above would fail.
            assertArrayEquals(b("after-3-7-" + "y".repeat(200)), t.get(b("k7")));

            try (Engine frozen = Engine.openReadOnly(EngineOptions.builder(c.path()).build())) {
                Table ft = frozen.table("objects");
                for (int i = 0; i < 2000; i += 97) {
                    assertArrayEquals(b("before-" + i + "-" + "x".repeat(200)), ft.get(b("k" + i), ReadOptions.SCAN));
                }
            }
            assertTrue(checkpoints.release(c.id()));
            assertFalse(Files.exists(c.path()));
            assertFalse(checkpoints.release(c.id()));
            assertEquals(List.of(), checkpoints.list());
        }
    }

    @Test
    void aCheckpointNotReleasedWithinItsLeaseIsReleasedByTheService() throws Exception {
        try (Engine engine = Engine.open(EngineOptions.builder(dir.resolve("engine")).build());
             Checkpoints checkpoints = new Checkpoints(engine, dir.resolve("checkpoints"), Duration.ofSeconds(1),
                     Clock.systemUTC())) {
            engine.table("objects").put(b("k"), b("v"));
            Checkpoints.Checkpoint c = checkpoints.create();
            // A one-second lease and a one-second expiry check; the minute is for a loaded machine.
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (Files.exists(c.path()) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertFalse(Files.exists(c.path()), "expired checkpoint deleted");
            assertEquals(List.of(), checkpoints.list());
        }
    }

    @Test
    void checkpointsLeftByAStoppedServiceAreDeletedOnStart() throws Exception {
        Path left = dir.resolve("checkpoints").resolve("0123456789abcdef");
        Files.createDirectories(left);
        Files.writeString(left.resolve("CURRENT"), "x");
        try (Engine engine = Engine.open(EngineOptions.builder(dir.resolve("engine")).build());
             Checkpoints checkpoints = new Checkpoints(engine, dir.resolve("checkpoints"), Duration.ofHours(1),
                     Clock.systemUTC())) {
            assertFalse(Files.exists(left));
            assertNull(checkpoints.list().isEmpty() ? null : checkpoints.list());
        }
    }
}
