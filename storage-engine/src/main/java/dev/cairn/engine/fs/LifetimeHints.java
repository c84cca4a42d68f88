package dev.cairn.engine.fs;

import com.sun.jna.LastErrorException;
import com.sun.jna.ptr.LongByReference;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Tells the kernel how long a file's bytes will live — {@code fcntl(F_SET_RW_HINT)}, Linux 4.13
 * and later — so that a device with write streams or placement hints (the multi-streamed SSD paper's,
 * SSD, NVMe directives, UFS) can keep bytes that die together in the same erase blocks.
 *
 * <p>Hints are held per inode, so {@link #apply(Path, WriteLifetime)} opens the file by path with
 * libc's {@code open(O_RDONLY)} and sets the hint through that descriptor: this needs no access to
 * the JDK's private file descriptors (which JDK 17+ keeps closed without {@code --add-opens}) and
 * works on any JDK. Where the platform, kernel or filesystem refuses, the call logs once per
 * kind of refusal and returns false: a hint is advice, never a reason to fail a write.
 *
 * <p>Thread-safe: stateless apart from the once-only log.
 */
final class LifetimeHints {
    /** {@code F_LINUX_SPECIFIC_BASE + 11}. */
    static final int F_GET_RW_HINT = 1035;
    /** {@code F_LINUX_SPECIFIC_BASE + 12}. */
    static final int F_SET_RW_HINT = 1036;
    private static final CLibrary.Calls LIBC = CLibrary.LIBC;

    private LifetimeHints() {
    }

    /** Whether this platform can be asked at all (Linux, libc loaded); the filesystem may still refuse. */
    public static boolean isAvailable() {
        return LIBC != null;
    }

    /** Sets the hint on the file's inode; returns whether the kernel accepted it. */
    public static boolean apply(Path path, WriteLifetime lifetime) {
        if (LIBC == null) {
            return false;
        }
        int fd;
        try {
            fd = LIBC.open(path.toString(), CLibrary.O_RDONLY | CLibrary.O_CLOEXEC);
        } catch (LastErrorException e) {
            CLibrary.logOnce("open-" + e.getErrorCode(), "could not open " + path + " to set its write lifetime hint: errno "
                    + e.getErrorCode());
            return false;
        }
        try {
            return apply(fd, lifetime);
        } finally {
            CLibrary.closeQuietly(fd);
        }
    }

    /** Sets the hint through an open descriptor; returns whether the kernel accepted it. */
    public static boolean apply(int fd, WriteLifetime lifetime) {
        if (LIBC == null) {
            return false;
        }
        try {
            LIBC.fcntl(fd, F_SET_RW_HINT, new LongByReference(lifetime.kernelCode()));
            return true;
        } catch (LastErrorException e) {
            CLibrary.logOnce("set-" + e.getErrorCode(), "the kernel or filesystem refused write lifetime hints (errno "
                    + e.getErrorCode() + "); running without them");
            return false;
        }
    }

    /** The hint on the file's inode, or empty where it cannot be read. */
    public static Optional<WriteLifetime> readHint(Path path) {
        if (LIBC == null) {
            return Optional.empty();
        }
        int fd;
        try {
            fd = LIBC.open(path.toString(), CLibrary.O_RDONLY | CLibrary.O_CLOEXEC);
        } catch (LastErrorException e) {
            return Optional.empty();
        }
        try {
            LongByReference hint = new LongByReference();
            LIBC.fcntl(fd, F_GET_RW_HINT, hint);
            long code = hint.getValue();
            for (WriteLifetime lifetime : WriteLifetime.values()) {
                if (lifetime.kernelCode() == code) {
                    return Optional.of(lifetime);
                }
            }
            return Optional.empty();
        } catch (LastErrorException e) {
            CLibrary.logOnce("get-" + e.getErrorCode(), "could not read the write lifetime hint of " + path + ": errno "
                    + e.getErrorCode());
            return Optional.empty();
        } finally {
            CLibrary.closeQuietly(fd);
        }
    }
}
