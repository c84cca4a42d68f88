package dev.cairn.backup.target;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tells the kernel that a file's cached pages are not wanted ({@code posix_fadvise(...,
 * POSIX_FADV_DONTNEED)}): a backup writes its archive once and reads it back only to restore or
 * verify, so its pages would only push out what the machine's services keep hot. Only clean
 * pages go: {@link #drop(Path, boolean)} with {@code sync} writes the file's dirty pages first.
 * Advice is never a reason to fail: on other platforms, or where refused, it does nothing and
 * warns once. Thread-safe.
 */
public final class PageCache {
    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int POSIX_FADV_DONTNEED = 4;
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    interface Calls extends Library {
        int open(String path, int flags) throws LastErrorException;

        int close(int fd) throws LastErrorException;

        int fsync(int fd) throws LastErrorException;

        /** Returns an error number rather than setting errno. */
        int posix_fadvise(int fd, long offset, long length, int advice);
    }

    private static final Calls LIBC = load();

    private PageCache() {
    }

    private static Calls load() {
        if (!Platform.isLinux() || !Platform.is64Bit()) {
            return null;
        }
        try {
            return Native.load(Platform.C_LIBRARY_NAME, Calls.class);
        } catch (LinkageError | RuntimeException e) {
            return null;
        }
    }

    /** Whether this platform takes the advice at all. */
    public static boolean available() {
        return LIBC != null;
    }

    /**
     * Drops {@code file}'s pages from the page cache, after writing its dirty ones when
     * {@code sync}; true when the kernel took the advice.
     */
    public static boolean drop(Path file, boolean sync) {
        if (LIBC == null) {
            warn("dropping pages from the page cache needs Linux with libc; the archive's pages stay cached");
            return false;
        }
        int fd;
        try {
            fd = LIBC.open(file.toString(), O_RDONLY | O_CLOEXEC);
        } catch (LastErrorException e) {
            warn("cannot open " + file + " to drop its cached pages (errno " + e.getErrorCode() + ")");
            return false;
        }
        try {
            if (sync) {
                LIBC.fsync(fd);
            }
            int error = LIBC.posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
            if (error != 0) {
                warn("posix_fadvise(DONTNEED) refused for " + file + " (error " + error + ")");
                return false;
            }
            return true;
        } catch (LastErrorException e) {
            warn("cannot sync " + file + " before dropping its cached pages (errno " + e.getErrorCode() + ")");
            return false;
        } finally {
            try {
                LIBC.close(fd);
            } catch (LastErrorException ignored) {
                // a descriptor opened only to give advice
            }
        }
    }

    private static void warn(String message) {
        if (WARNED.compareAndSet(false, true)) {
            System.err.println("cairn backup: warning: " + message);
        }
    }
}
