package dev.cairn.store.embedded;

import dev.cairn.engine.fs.PageCacheAdvice;
import java.nio.file.Path;

/**
 * The kernel's page cache for files a store's tools write once and read back rarely (a backup's
 * archive) or must read from the device rather than memory (a benchmark's seeded store): their
 * clean pages dropped ({@code posix_fadvise(DONTNEED)}, the engine's C binding). Advice is never
 * a reason to fail: elsewhere, or where refused, nothing changes and the engine logs it once.
 */
public final class PageCache {
    private PageCache() {
    }

    /** Whether this platform takes the advice at all. */
    public static boolean available() {
        return PageCacheAdvice.available();
    }

    /** Drops {@code file}'s pages, after writing its dirty ones when {@code sync}; true when the kernel took it. */
    public static boolean drop(Path file, boolean sync) {
        return PageCacheAdvice.drop(file, sync);
    }
}
