package dev.cairn.loadtest.run;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The live progress line: operations per second in the last interval, errors, elapsed time and
 * the time left to the first bound. On a terminal it rewrites one line; otherwise it prints a
 * line every ten seconds.
 *
 * <p>Thread-safety: used by the run's sampling thread only.
 */
final class Progress {

    private final PrintWriter out;
    private final RunConfig config;
    private final boolean terminal = onTerminal();
    private long lastPrinted = Long.MIN_VALUE;

    Progress(PrintWriter out, RunConfig config) {
        this.out = out;
        this.config = config;
    }

    void show(long elapsedNanos, long ops, long errors, double rate, TraversalRun traversal) {
        if (out == null) {
            return;
        }
        if (!terminal && elapsedNanos - lastPrinted < 10_000_000_000L) {
            return;
        }
        lastPrinted = elapsedNanos;
        double elapsed = elapsedNanos / 1e9;
        double byTime = config.duration().toMillis() / 1000.0 - elapsed;
        double byCount = rate > 0 ? (config.maxOps() - ops) / rate : Double.POSITIVE_INFINITY;
        double eta = Math.max(0, Math.min(byTime, byCount));
        String line = String.format(Locale.ROOT, "%7.1fs  %,10.0f ops/s  %,12d ops  %,8d errors  ETA %5.0fs%s",
                elapsed, rate, ops, errors, eta,
                traversal == null ? "" : traversal.started()
                        ? String.format(Locale.ROOT, "  traversal %,d objects%s", traversal.objects(),
                                traversal.endedNanos() != 0 ? " (done)" : "")
                        : "  traversal pending");
        out.print(terminal ? "\r" + line : line + "\n");
        out.flush();
    }

    /** Whether standard output is a terminal (Console.isTerminal from JDK 22; before, a console exists only then). */
    private static boolean onTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    void finish(long elapsedNanos, long ops, long errors) {
        if (out == null) {
            return;
        }
        if (terminal) {
            out.print("\r");
        }
        out.printf(Locale.ROOT, "done in %.1fs: %,d operations, %,d errors%n", elapsedNanos / 1e9, ops, errors);
        out.flush();
    }
}
