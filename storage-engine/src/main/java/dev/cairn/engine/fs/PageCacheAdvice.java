package dev.cairn.engine.fs;

import com.sun.jna.LastErrorException;
import java.nio.file.Path;

/**
 * Tells the kernel that a file's cached pages are not wanted ({@code posix_fadvise(...,
 * POSIX_FADV_DONTNEED)}), for files written once and read back rarely (a backup's archive) or a
 * benchmark that must read the device rather than memory. Only clean pages go:
 * {@link #drop(Path, boolean)} with {@code sync} writes the file's dirty pages first. Advice is
 * never a reason to fail: on other platforms, or where refused, it does nothing and logs once.
 * Thread-safe.
 */
public final class PageCacheAdvice {
    private static final int POSIX_FADV_DONTNEED = 4;

    private PageCacheAdvice() {
    }

    /** Whether this platform takes the advice at all. */
    public static boolean available() {
        return CLibrary.LIBC != null;
    }

    /**
     * Drops {@code file}'s pages from the page cache, after writing its dirty ones when
     * {@code sync}; true when the kernel took the advice.
     */
    public static boolean drop(Path file, boolean sync) {
        CLibrary.Calls libc = CLibrary.LIBC;
        if (libc == null) {
            CLibrary.logOnce("fadvise-unavailable", "dropping pages from the page cache needs Linux with libc;"
                    + " pages stay cached");
            return false;
        }
        int fd;
        try {
            fd = libc.open(file.toString(), CLibrary.O_RDONLY | CLibrary.O_CLOEXEC);
        } catch (LastErrorException e) {
            CLibrary.logOnce("fadvise-open", "cannot open " + file + " to drop its cached pages (errno "
                    + e.getErrorCode() + ")");
            return false;
        }
        try {
            if (sync) {
                libc.fsync(fd);
            }
            int error = libc.posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
            if (error != 0) {
                CLibrary.logOnce("fadvise-refused", "posix_fadvise(DONTNEED) refused for " + file + " (error " + error + ")");
                return false;
            }
            return true;
        } catch (LastErrorException e) {
            CLibrary.logOnce("fadvise-sync", "cannot sync " + file + " before dropping its cached pages (errno "
                    + e.getErrorCode() + ")");
            return false;
        } finally {
            CLibrary.closeQuietly(fd);
        }
    }
}
