package dev.cairn.engine.fs;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.ptr.LongByReference;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The process's one binding of the C library, loaded once through JNA: advice to the kernel
 * (write lifetimes, space reservation, dropping cached pages: {@link PageCacheAdvice}) and the
 * calling thread's priorities ({@link ThreadPriority}). Advice is never a reason to fail: where
 * the platform or library is missing, {@link #LIBC} is null and each kind of refusal is logged once.
 */
final class CLibrary {
    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_CLOEXEC = 0x80000;

    interface Calls extends Library {
        int open(String path, int flags) throws LastErrorException;

        int close(int fd) throws LastErrorException;

        int fcntl(int fd, int cmd, LongByReference argument) throws LastErrorException;

        int fallocate(int fd, int mode, long offset, long length) throws LastErrorException;

        int fsync(int fd) throws LastErrorException;

        /** Returns an error number rather than setting errno. */
        int posix_fadvise(int fd, long offset, long length, int advice);

        long syscall(long number, Object... args) throws LastErrorException;

        int setpriority(int which, int who, int priority) throws LastErrorException;

        int sched_setscheduler(int pid, int policy, int[] param) throws LastErrorException;

        int sched_getscheduler(int pid) throws LastErrorException;
    }

    private static final System.Logger LOG = System.getLogger(CLibrary.class.getName());
    private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();
    static final Calls LIBC = load();

    private CLibrary() {
    }

    private static Calls load() {
        if (!Platform.isLinux()) {
            logOnce("platform", "kernel I/O advice (write lifetimes, space reservation, page cache, thread priorities)"
                    + " needs Linux; running without it");
            return null;
        }
        try {
            return Native.load(Platform.C_LIBRARY_NAME, Calls.class);
        } catch (LinkageError | RuntimeException e) {
            logOnce("load", "kernel I/O advice unavailable, libc could not be loaded: " + e);
            return null;
        }
    }

    static void closeQuietly(int fd) {
        try {
            LIBC.close(fd);
        } catch (LastErrorException ignored) {
            // Closing a descriptor that wrote nothing cannot lose data.
        }
    }

    static void logOnce(String kind, String message) {
        if (LOGGED.add(kind)) {
            LOG.log(System.Logger.Level.INFO, message);
        }
    }
}
