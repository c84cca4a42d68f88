package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultInjectingFileSystemTest {

    private final Path dir = Path.of("/db");
    private MemFileSystem mem;
    private FaultInjectingFileSystem fs;

    @BeforeEach
    void setUp() throws IOException {
        mem = new MemFileSystem();
        mem.createDirectories(dir);
        fs = new FaultInjectingFileSystem(mem);
    }

    private void write(Path path, byte[] content) throws IOException {
        try (WritableFile file = fs.create(path, WriteLifetime.NOT_SET)) {
            file.append(ByteBuffer.wrap(content));
        }
    }

    @Test
    void onceFailsTheFirstMatchingOperationOnly() throws IOException {
        FaultRule rule = fs.inject(FaultRule.on(FsOp.CREATE).once());
        IOException e = assertThrows(IOException.class, () -> fs.create(dir.resolve("a"), WriteLifetime.NOT_SET));
        assertTrue(e.getMessage().startsWith("injected fault: CREATE"), e.getMessage());
        assertFalse(mem.exists(dir.resolve("a")), "a failed operation never reaches the delegate");
        write(dir.resolve("a"), new byte[] {1});
        assertEquals(1, rule.failedCount());
        assertEquals(2, rule.matchedCount());
    }

    @Test
    void alwaysFailsUntilRemoved() throws IOException {
        write(dir.resolve("a"), new byte[] {1});
        FaultRule rule = fs.inject(FaultRule.on(FsOp.RENAME, FsOp.DELETE).always());
        for (int i = 0; i < 3; i++) {
            assertThrows(IOException.class, () -> fs.rename(dir.resolve("a"), dir.resolve("b")));
            assertThrows(IOException.class, () -> fs.delete(dir.resolve("a")));
        }
        assertEquals(6, rule.failedCount());
        fs.remove(rule);
        fs.rename(dir.resolve("a"), dir.resolve("b"));
        assertTrue(mem.exists(dir.resolve("b")));
    }

    @Test
    void afterSucceedingLetsTheFirstOperationsThrough() throws IOException {
        fs.inject(FaultRule.on(FsOp.APPEND).afterSucceeding(3).always());
        try (WritableFile file = fs.create(dir.resolve("log"), WriteLifetime.SHORT)) {
            for (int i = 0; i < 3; i++) {
                file.append(ByteBuffer.wrap(new byte[] {(byte) i}));
            }
            assertThrows(IOException.class, () -> file.append(ByteBuffer.wrap(new byte[] {9})));
            assertThrows(IOException.class, () -> file.append(ByteBuffer.wrap(new byte[] {9})));
            assertEquals(3, file.size());
        }
    }

    @Test
    void pathPredicateSelectsFiles() throws IOException {
        fs.inject(FaultRule.on(FsOp.SYNC).matching(p -> p.toString().endsWith(".log")).always());
        try (WritableFile table = fs.create(dir.resolve("000001.sst"), WriteLifetime.LONG);
                WritableFile log = fs.create(dir.resolve("000002.log"), WriteLifetime.SHORT)) {
            assertDoesNotThrow(table::sync);
            assertThrows(IOException.class, log::sync);
        }
    }

    @Test
    void renameAndLinkMatchEitherPath() throws IOException {
        write(dir.resolve("a"), new byte[] {1});
        fs.inject(FaultRule.on(FsOp.RENAME, FsOp.LINK).matching(p -> p.getFileName().toString().equals("target"))
                .always());
        assertThrows(IOException.class, () -> fs.rename(dir.resolve("a"), dir.resolve("target")));
        assertThrows(IOException.class, () -> fs.link(dir.resolve("a"), dir.resolve("target")));
        fs.link(dir.resolve("a"), dir.resolve("other"));
    }

    @Test
    void readsAndDirectoryOperationsCanFail() throws IOException {
        write(dir.resolve("a"), new byte[] {1, 2, 3});
        fs.inject(FaultRule.on(FsOp.READ, FsOp.SIZE, FsOp.SYNC_DIR, FsOp.LIST, FsOp.EXISTS, FsOp.OPEN_READ)
                .afterSucceeding(1).always());
        try (ReadableFile file = fs.openRead(dir.resolve("a"))) {
            assertThrows(IOException.class, () -> file.readFully(0, 3));
            assertThrows(IOException.class, file::size);
        }
        assertThrows(IOException.class, () -> fs.syncDirectory(dir));
        assertThrows(IOException.class, () -> fs.list(dir));
        assertThrows(IOException.class, () -> fs.exists(dir));
        assertThrows(IOException.class, () -> fs.openRead(dir.resolve("a")));
        fs.clearRules();
        assertEquals(List.of("a"), fs.list(dir));
    }

    @Test
    void tornAppendWritesHalfThenFails() throws IOException {
        fs.inject(FaultRule.on(FsOp.APPEND).tornWrites().once());
        try (WritableFile file = fs.create(dir.resolve("log"), WriteLifetime.SHORT)) {
            assertThrows(IOException.class, () -> file.append(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5})));
            assertEquals(2, file.size());
        }
        assertArrayEquals(new byte[] {1, 2}, FileCorruptor.readAll(mem, dir.resolve("log")));
    }

    @Test
    void probabilityIsReproducibleFromTheSeed() throws IOException {
        long seed = TestSeeds.seed("probabilityIsReproducibleFromTheSeed");
        write(dir.resolve("a"), new byte[] {1});
        List<Boolean> first = existsOutcomes(FaultRule.on(FsOp.EXISTS).withProbability(0.3, seed));
        List<Boolean> second = existsOutcomes(FaultRule.on(FsOp.EXISTS).withProbability(0.3, seed));
        assertEquals(first, second, "seed=" + seed);
        long failures = first.stream().filter(failed -> failed).count();
        assertTrue(failures > 100 && failures < 500, "seed=" + seed + " failures=" + failures + " of 1000");
    }

    private List<Boolean> existsOutcomes(FaultRule rule) {
        fs.clearRules();
        fs.inject(rule);
        List<Boolean> failed = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            try {
                fs.exists(dir.resolve("a"));
                failed.add(false);
            } catch (IOException e) {
                failed.add(true);
            }
        }
        return failed;
    }

    @Test
    void firstMatchingRuleWinsAndOtherRulesDoNotCount() throws IOException {
        FaultRule first = fs.inject(FaultRule.on(FsOp.DELETE).always());
        FaultRule second = fs.inject(FaultRule.on(FsOp.DELETE).always());
        assertThrows(IOException.class, () -> fs.delete(dir.resolve("a")));
        assertEquals(1, first.failedCount());
        assertEquals(0, second.matchedCount());
    }

    @Test
    void rejectsBadRuleParameters() {
        assertThrows(IllegalArgumentException.class, () -> FaultRule.on(FsOp.READ).withProbability(1.5, 1));
        assertThrows(IllegalArgumentException.class, () -> FaultRule.on(FsOp.READ).afterSucceeding(-1));
    }
}
