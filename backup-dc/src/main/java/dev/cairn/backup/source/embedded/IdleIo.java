package dev.cairn.backup.source.embedded;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Puts the calling thread in the idle I/O class ({@code ioprio_set(IOPRIO_WHO_PROCESS, 0,
 * IOPRIO_CLASS_IDLE)}: its disk requests are served only when no other process wants the disk,
 * on schedulers that honour classes, BFQ among them), in the idle CPU scheduling class
 * ({@code SCHED_IDLE}) and at nice 19. Nice 19 alone still lets a reading thread keep a core for a
 * scheduler tick after a request's thread wakes up, which showed as a serving p99 a quarter higher
 * during a backup; a {@code SCHED_IDLE} thread is preempted at once. Linux only; where refused or
 * unavailable it changes nothing and warns once.
 */
final class IdleIo {
    private static final int IOPRIO_WHO_PROCESS = 1;
    private static final int IOPRIO_CLASS_IDLE = 3;
    private static final int IOPRIO_CLASS_SHIFT = 13;
    private static final int PRIO_PROCESS = 0;
    private static final int LOWEST_CPU_PRIORITY = 19;
    private static final int SCHED_IDLE = 5;
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    private static final ThreadLocal<Boolean> APPLIED = ThreadLocal.withInitial(() -> false);

    interface Calls extends Library {
        long syscall(long number, Object... args) throws LastErrorException;

        int setpriority(int which, int who, int priority) throws LastErrorException;

        int sched_setscheduler(int pid, int policy, int[] param) throws LastErrorException;

        int sched_getscheduler(int pid) throws LastErrorException;
    }

    private static final Calls LIBC = load();

    private IdleIo() {
    }

    private static Calls load() {
        if (!Platform.isLinux() || syscallNumber() < 0) {
            return null;
        }
        try {
            return Native.load(Platform.C_LIBRARY_NAME, Calls.class);
        } catch (LinkageError | RuntimeException e) {
            return null;
        }
    }

    /** ioprio_set's number on this architecture; -1 where unknown. */
    private static long syscallNumber() {
        if (Platform.isIntel() && Platform.is64Bit()) {
            return 251;
        }
        if (Platform.isARM() && Platform.is64Bit()) {
            return 30;
        }
        return -1;
    }

    /** Applies idle I/O class, SCHED_IDLE and nice 19 to the calling thread, once per thread. True when all took. */
    static boolean applyToCurrentThread() {
        if (APPLIED.get()) {
            return true;
        }
        APPLIED.set(true);
        if (LIBC == null) {
            warn("idle I/O priority needs Linux on x86-64 or aarch64 with libc; reading at normal priority");
            return false;
        }
        boolean ok = true;
        try {
            LIBC.syscall(syscallNumber(), IOPRIO_WHO_PROCESS, 0, IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT);
        } catch (LastErrorException e) {
            warn("ioprio_set(IOPRIO_CLASS_IDLE) was refused (errno " + e.getErrorCode() + "); reading at normal I/O priority");
            ok = false;
        }
        try {
            LIBC.sched_setscheduler(0, SCHED_IDLE, new int[] {0});
        } catch (LastErrorException e) {
            warn("sched_setscheduler(SCHED_IDLE) was refused (errno " + e.getErrorCode() + "); reading at normal CPU class");
            ok = false;
        }
        try {
            LIBC.setpriority(PRIO_PROCESS, 0, LOWEST_CPU_PRIORITY);
        } catch (LastErrorException e) {
            warn("setpriority(19) was refused (errno " + e.getErrorCode() + "); reading at normal CPU priority");
            ok = false;
        }
        return ok;
    }

    /** The calling thread's CPU scheduling policy (5 is SCHED_IDLE), or -1 when it cannot be read. */
    static int currentPolicy() {
        if (LIBC == null) {
            return -1;
        }
        try {
            return LIBC.sched_getscheduler(0);
        } catch (LastErrorException e) {
            return -1;
        }
    }

    /** The calling thread's I/O priority class (ioprio_get), or -1 when it cannot be read. */
    static int currentClass() {
        if (LIBC == null) {
            return -1;
        }
        try {
            long v = LIBC.syscall(syscallNumber() + 1, IOPRIO_WHO_PROCESS, 0);
            return (int) (v >> IOPRIO_CLASS_SHIFT);
        } catch (LastErrorException e) {
            return -1;
        }
    }

    private static void warn(String message) {
        if (WARNED.compareAndSet(false, true)) {
            System.err.println("cairn backup: warning: " + message);
        }
    }
}
