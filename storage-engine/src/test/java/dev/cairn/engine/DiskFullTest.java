package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.engine.fs.FaultInjectingFileSystem;
import dev.cairn.engine.fs.MemFileSystem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A file system that fills up (the fault-injecting file system's space budget): writes are
 * refused at once with {@link DiskFullException} and nothing half-written, reads and deletes go
 * on, writes resume when space returns without a reopen, and nothing acknowledged is lost.
 */
class DiskFullTest {
    private static final Path DIR = Path.of("/db");
    private static final long RESERVE = 64 << 10;

    private static EngineOptions options(FaultInjectingFileSystem fs) {
        return EngineOptions.builder(DIR).fileSystem(fs).memtableBytes(16 << 10).valueThreshold(100)
                .valueFileBytes(32 << 10).targetFileBytes(8 << 10).level1Bytes(16 << 10)
                .reservedDiskBytes(RESERVE).build();
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[60 + (i * 37) % 600];
        Arrays.fill(v, (byte) i);
        return v;
    }

    @Test
    void writesFailAtOnceReadsAndDeletesGoOnAndWritesResumeWithoutReopening() throws IOException {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        List<Integer> acknowledged = new ArrayList<>();
        int refused = -1;
        try (Engine e = Engine.open(options(fs))) {
            Table t = e.table("t");
            fs.limitSpace(RESERVE + (48 << 10));
            for (int i = 0; i < 10_000 && refused < 0; i++) {
                try {
                    t.put(key(i), value(i));
                    acknowledged.add(i);
                } catch (DiskFullException full) {
                    assertTrue(full.getMessage().contains("reserve"), full.getMessage());
                    refused = i;
                }
            }
            assertTrue(refused > 0, "the disk never filled");
            int refusedKey = refused;
            assertThrows(DiskFullException.class, () -> t.put(key(refusedKey), value(refusedKey)), "still full");
            assertNull(t.get(key(refused)), "nothing of a refused write is visible");
            for (int i : acknowledged) {
                assertArrayEquals(value(i), t.get(key(i)), "reads go on");
            }
            for (int i = 0; i < 5; i++) {
                t.delete(key(acknowledged.get(i)));
            }
            assertNull(t.get(key(acknowledged.get(0))), "deletes go on in the reserve");

            fs.unlimitSpace();
            t.put(key(refused), value(refused));
            acknowledged.add(refused);
            assertArrayEquals(value(refused), t.get(key(refused)), "writes resume with no reopen");
        }
        try (Engine again = Engine.open(options(new FaultInjectingFileSystem(mem.crashClone())))) {
            Table t = again.table("t");
            for (int n = 0; n < acknowledged.size(); n++) {
                int i = acknowledged.get(n);
                if (n < 5) {
                    assertNull(t.get(key(i)), "an acknowledged delete stays deleted");
                } else {
                    assertArrayEquals(value(i), t.get(key(i)), "acknowledged write " + i + " survives");
                }
            }
        }
    }

    @Test
    void aFlushThatFindsTheDiskFullWaitsForSpaceInsteadOfStoppingTheEngine() throws Exception {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        EngineOptions options = options(fs).toBuilder().reservedDiskBytes(0).build();
        try (Engine e = Engine.open(options)) {
            Table t = e.table("t");
            for (int i = 0; i < 40; i++) {
                t.put(key(i), value(i));
            }
            fs.limitSpace(1024);
            CompletableFuture<Void> flush = CompletableFuture.runAsync(() -> {
                try {
                    e.flush();
                } catch (IOException x) {
                    throw new RuntimeException(x);
                }
            });
            Thread.sleep(1500);
            assertTrue(!flush.isDone() || !flush.isCompletedExceptionally(), "the flush did not fail for good");
            fs.unlimitSpace();
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> flush.get(60, TimeUnit.SECONDS));
            t.put(key(1000), value(1000));
            for (int i = 0; i < 40; i++) {
                assertArrayEquals(value(i), t.get(key(i)));
            }
        }
        try (Engine again = Engine.open(options.toBuilder().fileSystem(new FaultInjectingFileSystem(mem.crashClone())).build())) {
            for (int i = 0; i < 40; i++) {
                assertArrayEquals(value(i), again.table("t").get(key(i)));
            }
            assertArrayEquals(value(1000), again.table("t").get(key(1000)));
        } catch (IOException reopen) {
            fail("the directory does not reopen after a full disk: " + reopen);
        }
    }
}
