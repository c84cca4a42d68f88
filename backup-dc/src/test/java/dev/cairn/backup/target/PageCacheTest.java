package dev.cairn.backup.target;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cairn.engine.fs.PageCacheAdvice;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file the directory target commits leaves the page cache, and so does one the bench drops;
 * their bytes stay whole. Residency is read with {@code mincore} ({@code MappedByteBuffer.isLoaded}).
 */
class PageCacheTest {
    private static final int BYTES = 4 << 20;

    @TempDir
    Path dir;

    private void assumeDropsWork() throws IOException {
        assumeTrue(PageCacheAdvice.available(), "page-cache advice needs Linux");
        assumeTrue(!"tmpfs".equals(Files.getFileStore(dir).type()), "tmpfs keeps its pages: they are the file");
    }

    private static boolean resident(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()).isLoaded();
        }
    }

    private static byte[] bytes() {
        byte[] b = new byte[BYTES];
        new Random(5).nextBytes(b);
        return b;
    }

    @Test
    void dropWritesDirtyPagesThenDropsThem() throws IOException {
        assumeDropsWork();
        Path file = dir.resolve("f");
        byte[] b = bytes();
        Files.write(file, b);
        assumeTrue(resident(file), "a file just written is in the page cache");
        assertTrue(PageCacheAdvice.drop(file, true));
        assertFalse(resident(file), "dropped from the page cache");
        assertArrayEquals(b, Files.readAllBytes(file));
    }

    @Test
    void aCommittedFileOfTheDirectoryTargetLeavesThePageCache() throws Exception {
        assumeDropsWork();
        DirectoryTarget target = new DirectoryTarget(dir.resolve("archive"));
        byte[] b = bytes();
        try (Target.Staged staged = target.stage("packs/p.pack")) {
            staged.write(ByteBuffer.wrap(b));
            staged.commit();
        }
        Path file = dir.resolve("archive/packs/p.pack");
        assertFalse(resident(file), "committed, forced, dropped");
        assertArrayEquals(b, Files.readAllBytes(file));
    }
}
