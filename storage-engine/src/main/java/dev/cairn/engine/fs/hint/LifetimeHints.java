package dev.cairn.engine.fs.hint;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.ptr.LongByReference;
import dev.cairn.engine.fs.WriteLifetime;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells the kernel how long a file's bytes will live — {@code fcntl(F_SET_RW_HINT)}, Linux 4.13
 * and later — so that a device with write streams or placement hints (seed 003's multi-streamed
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
public final class LifetimeHints {
    /** {@code F_LINUX_SPECIFIC_BASE + 11}. */
    static final int F_GET_RW_HINT = 1035;
    /** {@code F_LINUX_SPECIFIC_BASE + 12}. */
    static final int F_SET_RW_HINT = 1036;
    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;

    private static final System.Logger LOG = System.getLogger(LifetimeHints.class.getName());
    private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();
    private static final LibC LIBC = load();

    /** The few libc calls used, declared for JNA. */
    interface LibC extends Library {
        int open(String path, int flags) throws LastErrorException;

        int close(int fd) throws LastErrorException;

        int fcntl(int fd, int cmd, LongByReference argument) throws LastErrorException;
    }

    private LifetimeHints() {
    }

    private static LibC load() {
        if (!Platform.isLinux()) {
            logOnce("platform", "write lifetime hints need Linux; running without them");
            return null;
        }
        try {
            return Native.load(Platform.C_LIBRARY_NAME, LibC.class);
        } catch (LinkageError | RuntimeException e) {
            logOnce("load", "write lifetime hints unavailable, libc could not be loaded: " + e);
            return null;
        }
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
            fd = LIBC.open(path.toString(), O_RDONLY | O_CLOEXEC);
        } catch (LastErrorException e) {
            logOnce("open-" + e.getErrorCode(), "could not open " + path + " to set its write lifetime hint: errno "
                    + e.getErrorCode());
            return false;
        }
        try {
            return apply(fd, lifetime);
        } finally {
            closeQuietly(fd);
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
            logOnce("set-" + e.getErrorCode(), "the kernel or filesystem refused write lifetime hints (errno "
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
            fd = LIBC.open(path.toString(), O_RDONLY | O_CLOEXEC);
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
            logOnce("get-" + e.getErrorCode(), "could not read the write lifetime hint of " + path + ": errno "
                    + e.getErrorCode());
            return Optional.empty();
        } finally {
            closeQuietly(fd);
        }
    }

    private static void closeQuietly(int fd) {
        try {
            LIBC.close(fd);
        } catch (LastErrorException ignored) {
            // Closing a read-only descriptor cannot lose data.
        }
    }

    private static void logOnce(String kind, String message) {
        if (LOGGED.add(kind)) {
            LOG.log(System.Logger.Level.INFO, message);
        }
    }
}
