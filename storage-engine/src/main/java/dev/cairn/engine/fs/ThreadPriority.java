package dev.cairn.engine.fs;

import com.sun.jna.LastErrorException;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Idles the calling thread: the idle I/O class ({@code ioprio_set(IOPRIO_WHO_PROCESS, 0,
 * IOPRIO_CLASS_IDLE)}: its disk requests are served only when no other process wants the disk,
 * on schedulers that honour classes, BFQ among them), the idle CPU scheduling class
 * ({@code SCHED_IDLE}) and nice 19. Nice 19 alone still lets a thread keep a core for a scheduler
 * tick after a serving thread wakes up; a {@code SCHED_IDLE} thread is preempted at once. For
 * work that must only use what serving leaves, such as a backup's reading and hashing. Linux on
 * x86-64 or aarch64 only; where refused or unavailable it changes nothing and logs once.
 */
public final class ThreadPriority {
    /** {@link #currentCpuPolicy()} of an idled thread. */
    public static final int SCHED_IDLE = 5;
    /** {@link #currentIoClass()} of an idled thread. */
    public static final int IOPRIO_CLASS_IDLE = 3;
    private static final int IOPRIO_WHO_PROCESS = 1;
    private static final int IOPRIO_CLASS_SHIFT = 13;
    private static final int PRIO_PROCESS = 0;
    private static final int LOWEST_CPU_PRIORITY = 19;
    private static final ThreadLocal<Boolean> IDLED = ThreadLocal.withInitial(() -> false);

    private ThreadPriority() {
    }

    /** Applies the idle I/O class, SCHED_IDLE and nice 19 to the calling thread, once per thread. True when all took. */
    public static boolean idleCurrentThread() {
        if (IDLED.get()) {
            return true;
        }
        IDLED.set(true);
        CLibrary.Calls libc = CLibrary.LIBC;
        long ioprioSet = ioprioSetNumber();
        if (libc == null || ioprioSet < 0) {
            CLibrary.logOnce("idle-unavailable", "idle thread priority needs Linux on x86-64 or aarch64 with libc;"
                    + " running at normal priority");
            return false;
        }
        boolean ok = true;
        try {
            libc.syscall(ioprioSet, IOPRIO_WHO_PROCESS, 0, IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT);
        } catch (LastErrorException e) {
            CLibrary.logOnce("idle-io", "ioprio_set(IOPRIO_CLASS_IDLE) was refused (errno " + e.getErrorCode()
                    + "); running at normal I/O priority");
            ok = false;
        }
        try {
            libc.sched_setscheduler(0, SCHED_IDLE, new int[] {0});
        } catch (LastErrorException e) {
            CLibrary.logOnce("idle-cpu", "sched_setscheduler(SCHED_IDLE) was refused (errno " + e.getErrorCode()
                    + "); running at normal CPU class");
            ok = false;
        }
        try {
            libc.setpriority(PRIO_PROCESS, 0, LOWEST_CPU_PRIORITY);
        } catch (LastErrorException e) {
            CLibrary.logOnce("idle-nice", "setpriority(19) was refused (errno " + e.getErrorCode()
                    + "); running at normal CPU priority");
            ok = false;
        }
        return ok;
    }

    /**
     * Idles every thread the process has now — the JVM's compiler and collector threads too, which
     * {@link #idleCurrentThread} never reaches — and, since a new thread inherits its creator's
     * class, the threads made after. For a process whose every instruction must only use what
     * serving leaves (a backup job on the service's host). Returns how many threads took all
     * three settings; 0 where unavailable (logged once).
     */
    public static int idleWholeProcess() {
        CLibrary.Calls libc = CLibrary.LIBC;
        long ioprioSet = ioprioSetNumber();
        Path tasks = Path.of("/proc/self/task");
        if (libc == null || ioprioSet < 0 || !Files.isDirectory(tasks)) {
            CLibrary.logOnce("idle-unavailable", "idle thread priority needs Linux on x86-64 or aarch64 with libc;"
                    + " running at normal priority");
            return 0;
        }
        int idled = 0;
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                int tid = Integer.parseInt(thread.getFileName().toString());
                try {
                    libc.syscall(ioprioSet, IOPRIO_WHO_PROCESS, tid, IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT);
                    libc.sched_setscheduler(tid, SCHED_IDLE, new int[] {0});
                    libc.setpriority(PRIO_PROCESS, tid, LOWEST_CPU_PRIORITY);
                    idled++;
                } catch (LastErrorException e) {
                    // ESRCH: the thread ended since the listing. Anything else is logged once below.
                    if (e.getErrorCode() != 3) {
                        CLibrary.logOnce("idle-process", "idling thread " + tid + " was refused (errno "
                                + e.getErrorCode() + "); some threads run at normal priority");
                    }
                }
            }
        } catch (IOException e) {
            CLibrary.logOnce("idle-process", "cannot list this process's threads: " + e.getMessage());
        }
        return idled;
    }

    /** Whether the calling thread runs in the idle CPU class, so that threads working for it should too. */
    public static boolean currentThreadIsIdle() {
        return currentCpuPolicy() == SCHED_IDLE;
    }

    /** The calling thread's CPU scheduling policy ({@link #SCHED_IDLE} when idled), or -1 when it cannot be read. */
    public static int currentCpuPolicy() {
        CLibrary.Calls libc = CLibrary.LIBC;
        if (libc == null) {
            return -1;
        }
        try {
            return libc.sched_getscheduler(0);
        } catch (LastErrorException e) {
            return -1;
        }
    }

    /** The calling thread's I/O priority class (ioprio_get; {@link #IOPRIO_CLASS_IDLE} when idled), or -1. */
    public static int currentIoClass() {
        CLibrary.Calls libc = CLibrary.LIBC;
        long ioprioSet = ioprioSetNumber();
        if (libc == null || ioprioSet < 0) {
            return -1;
        }
        try {
            long v = libc.syscall(ioprioSet + 1, IOPRIO_WHO_PROCESS, 0);
            return (int) (v >> IOPRIO_CLASS_SHIFT);
        } catch (LastErrorException e) {
            return -1;
        }
    }

    /** ioprio_set's number on this architecture (ioprio_get's is the next); -1 where unknown. */
    private static long ioprioSetNumber() {
        if (Platform.isIntel() && Platform.is64Bit()) {
            return 251;
        }
        if (Platform.isARM() && Platform.is64Bit()) {
            return 30;
        }
        return -1;
    }
}
