package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.fs.FaultInjectingFileSystem;
import dev.cairn.engine.fs.FaultRule;
import dev.cairn.engine.fs.FileCorruptor;
import dev.cairn.engine.fs.FsOp;
import dev.cairn.engine.fs.MemFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** I/O errors and flipped bits: errors reach the caller, nothing wrong is returned, reopen is clean. */
class EngineFaultTest {
    private static final Path DIR = Path.of("/db");

    private static EngineOptions options(FaultInjectingFileSystem fs) {
        return EngineOptions.builder(DIR).fileSystem(fs).memtableBytes(16 << 10).valueThreshold(100)
                .valueFileBytes(32 << 10).targetFileBytes(8 << 10).level1Bytes(16 << 10).build();
    }

    private static byte[] value(int i) {
        byte[] v = new byte[50 + (i * 37) % 400];
        java.util.Arrays.fill(v, (byte) i);
        return v;
    }

    @ParameterizedTest
    @EnumSource(value = FsOp.class, names = {"APPEND", "SYNC"})
    void aWriteThatCannotBeMadeDurableIsNeverAcknowledged(FsOp op) throws IOException {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        try (Engine e = Engine.open(options(fs))) {
            Table t = e.table("t");
            for (int i = 0; i < 50; i++) {
                t.put(("k" + i).getBytes(), value(i));
            }
            fs.inject(FaultRule.on(op).matching(p -> p.toString().endsWith(".log")).always());
            assertThrows(IOException.class, () -> t.put("doomed".getBytes(), value(1)));
            fs.clearRules();
            IOException later = assertThrows(IOException.class, () -> t.put("after".getBytes(), value(2)));
            assertTrue(later.getMessage().contains("reopen"), later.getMessage());
            assertArrayEquals(value(7), t.get("k7".getBytes()), "reads go on after a write failure");
        }
        MemFileSystem crashed = mem.crashClone();
        try (Engine e = Engine.open(options(new FaultInjectingFileSystem(crashed)))) {
            Table t = e.table("t");
            for (int i = 0; i < 50; i++) {
                assertArrayEquals(value(i), t.get(("k" + i).getBytes()));
            }
            assertNull(t.get("after".getBytes()));
        }
    }

    @Test
    void failingFlushesSurfaceAndRecoverAfterReopen() throws IOException {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        Engine e = Engine.open(options(fs));
        Table t = e.table("t");
        for (int i = 0; i < 20; i++) {
            t.put(("k" + i).getBytes(), value(i));
        }
        fs.inject(FaultRule.on(FsOp.CREATE).matching(p -> p.toString().endsWith(".sst")).always());
        assertThrows(IOException.class, e::flush);
        fs.clearRules();
        e.close();
        try (Engine again = Engine.open(options(new FaultInjectingFileSystem(mem.crashClone())))) {
            for (int i = 0; i < 20; i++) {
                assertArrayEquals(value(i), again.table("t").get(("k" + i).getBytes()));
            }
        }
    }

    @Test
    void renameFailureWhileWritingTheManifestLeavesTheOldState() throws IOException {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        Engine e = Engine.open(options(fs));
        e.table("t").put("k".getBytes(), value(3));
        fs.inject(FaultRule.on(FsOp.RENAME).always());
        assertThrows(IOException.class, () -> e.table("second"));
        fs.clearRules();
        e.close();
        try (Engine again = Engine.open(options(new FaultInjectingFileSystem(mem.crashClone())))) {
            assertArrayEquals(value(3), again.table("t").get("k".getBytes()));
        }
    }

    @Test
    void readErrorsReachTheCaller() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        try (Engine e = Engine.open(options(fs))) {
            Table t = e.table("t");
            t.put("big".getBytes(), value(9));
            fs.inject(FaultRule.on(FsOp.READ, FsOp.OPEN_READ).matching(p -> p.toString().endsWith(".vlog")).always());
            assertThrows(IOException.class, () -> t.get("big".getBytes()));
            fs.clearRules();
            assertArrayEquals(value(9), t.get("big".getBytes()));
        }
    }

    @Test
    void flippedBitsInEveryFileKindAreDetectedAndNamed() throws IOException {
        for (String suffix : List.of(".sst", ".vlog", "MANIFEST-")) {
            MemFileSystem mem = new MemFileSystem();
            FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
            try (Engine e = Engine.open(options(fs))) {
                Table t = e.table("t");
                for (int i = 0; i < 300; i++) {
                    t.put(("k" + i).getBytes(), value(i));
                }
                e.flush();
            }
            String victim = mem.list(DIR).stream().filter(n -> n.endsWith(suffix) || n.startsWith(suffix)).sorted()
                    .findFirst().orElseThrow(() -> new AssertionError("no " + suffix + " file"));
            long size = mem.size(DIR.resolve(victim));
            // Flip a bit in the middle of the content (past any header).
            FileCorruptor.flipBit(mem, DIR.resolve(victim), Math.max(20, size / 2), 3);
            IOException error = assertThrows(IOException.class, () -> {
                try (Engine e = Engine.open(options(new FaultInjectingFileSystem(mem)))) {
                    Table t = e.table("t");
                    for (int i = 0; i < 300; i++) {
                        byte[] got = t.get(("k" + i).getBytes());
                        if (got != null && !java.util.Arrays.equals(got, value(i))) {
                            throw new AssertionError("wrong bytes returned for k" + i);
                        }
                    }
                    try (EntryIterator it = t.scan(KeyRange.all())) {
                        while (it.hasNext()) {
                            it.next();
                        }
                    } catch (java.io.UncheckedIOException u) {
                        throw u.getCause();
                    }
                }
            }, "a flipped bit in " + victim + " went unnoticed");
            String message = String.valueOf(error.getMessage()) + " " + error.getCause();
            assertTrue(message.contains(victim), "the error names the file " + victim + ": " + message);
        }
    }

    @Test
    void statsReflectWork() throws IOException {
        try (Engine e = Engine.open(options(new FaultInjectingFileSystem(new MemFileSystem())))) {
            Table t = e.table("t");
            for (int i = 0; i < 500; i++) {
                t.put(("k" + i).getBytes(), value(i));
            }
            e.flush();
            EngineStats s = e.stats();
            assertTrue(s.flushes() > 0);
            assertTrue(s.valueFiles() > 0);
            assertTrue(s.userBytesWritten() > 500 * 50);
            assertEquals(7, s.filesPerLevel().size());
        }
    }
}
