package dev.cairn.backup.run;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Which process holds a lease: its host, the pid space it was numbered in (the boot and the pid
 * namespace: containers of one host may share its name, not its pids), its pid and its start time
 * in clock ticks since boot ({@code /proc/<pid>/stat}). A holder of this host and pid space whose
 * process is gone — or whose pid now names a process started at another time — holds nothing,
 * whatever the lease's expiry says.
 */
public record HolderProcess(String host, String pidSpace, long pid, String start) {

    /** This process. */
    public static HolderProcess current() {
        return This.PROCESS;
    }

    /** This process's host, pid space and start, found once: they do not change while it runs. */
    private static final class This {
        static final HolderProcess PROCESS = find();

        private static HolderProcess find() {
            long pid = ProcessHandle.current().pid();
            return new HolderProcess(findHostName(), findPidSpace(), pid, startOf(pid));
        }
    }

    /** True when this record names a process of this host and pid space that no longer runs. */
    public boolean goneFromThisHost() {
        HolderProcess self = current();
        if (host == null || pid <= 0 || !host.equals(self.host) || !Objects.equals(pidSpace, self.pidSpace)) {
            return false;
        }
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            String[] now = stat(pid);
            if (now == null) {
                return false;
            }
            // A zombie (killed, not yet reaped by its parent) holds nothing either.
            return "Z".equals(now[0]) || (start != null && !start.equals(now[19]));
        }
        return true;
    }

    @Override
    public String toString() {
        return "pid " + pid + " on " + host;
    }

    static String hostName() {
        return current().host;
    }

    private static String findHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown-host";
        }
    }

    /** "{@code <boot id> <pid namespace>}", or null where /proc cannot say. */
    private static String findPidSpace() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip() + " "
                    + Files.readSymbolicLink(Path.of("/proc/self/ns/pid"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A process's start in clock ticks since boot, or null where /proc cannot say. */
    static String startOf(long pid) {
        String[] fields = stat(pid);
        return fields == null ? null : fields[19];
    }

    /**
     * The fields of {@code /proc/<pid>/stat} after the command name (which is in parentheses and
     * may hold spaces): [0] the state (field 3), [19] the start time (field 22); null where /proc
     * cannot say.
     */
    private static String[] stat(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return fields.length > 19 ? fields : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
