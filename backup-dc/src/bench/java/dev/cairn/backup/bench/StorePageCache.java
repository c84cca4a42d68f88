package dev.cairn.backup.bench;

import dev.cairn.store.embedded.PageCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bench's control of the page cache: a store it has just seeded sits in the page cache, and
 * a backup of it would read memory rather than the device that the bench compares it with. Each
 * of the store's files is synced and its pages dropped ({@link PageCache}); no root needed, and
 * nothing else the machine caches is touched, unlike {@code /proc/sys/vm/drop_caches}.
 */
final class StorePageCache {
    private StorePageCache() {
    }

    /** Drops the pages of every file under {@code dir}; true when the kernel took the advice for each. */
    static boolean drop(Path dir) throws IOException {
        if (!PageCache.available()) {
            return false;
        }
        boolean all = true;
        try (var walk = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                all &= PageCache.drop(f, true);
            }
        }
        return all;
    }

    /** The page cache's size ({@code Cached:} of /proc/meminfo), in bytes; -1 where not known. */
    static long cachedBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("Cached:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }
}
