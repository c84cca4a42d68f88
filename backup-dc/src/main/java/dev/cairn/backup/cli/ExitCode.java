package dev.cairn.backup.cli;

/** The job's exit codes, and the one line a failure is reported with. */
public final class ExitCode {
    public static final int OK = 0;
    /** A run failed, or verify found a problem. */
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    /** Another run or prune holds the archive's lock. */
    public static final int LOCKED = 3;
    /** A restore with --skip-damaged left out objects whose content is damaged in the archive. */
    public static final int DAMAGED = 4;

    private ExitCode() {
    }

    /** The exception's message, or its name when it has none. */
    public static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.toString() : m;
    }
}
