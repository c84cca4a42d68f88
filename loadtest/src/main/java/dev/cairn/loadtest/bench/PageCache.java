package dev.cairn.loadtest.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Drops the kernel's page cache (and its dentry and inode caches): {@code sync}, then {@code 3}
 * into {@code /proc/sys/vm/drop_caches}. Needs root; every process on the machine loses its
 * cached pages, so benchmarks do it only when asked.
 *
 * <p>Thread-safety: stateless.
 */
final class PageCache {

    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    private PageCache() {
    }

    /** Whether this process may drop the caches. */
    static boolean canDrop() {
        return Files.isWritable(DROP_CACHES);
    }

    /** Writes dirty pages back, then drops the clean ones. */
    static void drop() throws IOException {
        try {
            Process sync = new ProcessBuilder("sync").inheritIO().start();
            if (sync.waitFor() != 0) {
                throw new IOException("sync exited with " + sync.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for sync", e);
        }
        Files.write(DROP_CACHES, "3\n".getBytes(StandardCharsets.US_ASCII), StandardOpenOption.WRITE);
    }
}
