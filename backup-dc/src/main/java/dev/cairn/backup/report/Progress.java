package dev.cairn.backup.report;

import dev.cairn.backup.time.JobClock;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of a run or restore, printed by a daemon thread: on a terminal one line rewritten in
 * place every second, otherwise a plain line every {@link #PLAIN_INTERVAL_MILLIS}.
 */
public final class Progress implements AutoCloseable {
    static final long TTY_INTERVAL_MILLIS = 1_000;
    static final long PLAIN_INTERVAL_MILLIS = 10_000;

    public final AtomicLong objects = new AtomicLong();
    public final AtomicLong bytes = new AtomicLong();
    public final AtomicLong copiedBytes = new AtomicLong();
    public final AtomicLong copiedBlobs = new AtomicLong();
    private final String verb;
    private final long estimatedObjects;
    private final JobClock clock;
    private final long startNanos;
    private final PrintStream out;
    private final boolean tty;
    private final Thread printer;
    private volatile boolean closed;

    /**
     * @param estimatedObjects the expected object count for the ETA, or 0 when unknown
     */
    public Progress(String verb, long estimatedObjects, PrintStream out, boolean tty) {
        this(verb, estimatedObjects, out, tty, JobClock.SYSTEM);
    }

    /** @param clock what the elapsed time and the rate are reckoned by */
    public Progress(String verb, long estimatedObjects, PrintStream out, boolean tty, JobClock clock) {
        this.clock = clock;
        this.startNanos = clock.nanos();
        this.verb = verb;
        this.estimatedObjects = estimatedObjects;
        this.out = out;
        this.tty = tty;
        printer = new Thread(this::loop, "progress");
        printer.setDaemon(true);
        printer.start();
    }

    /** A progress printer to stderr, in place when stderr is a terminal. */
    public static Progress onStderr(String verb, long estimatedObjects) {
        return onStderr(verb, estimatedObjects, JobClock.SYSTEM);
    }

    /** As {@link #onStderr(String, long)}, reckoning time by {@code clock}. */
    public static Progress onStderr(String verb, long estimatedObjects, JobClock clock) {
        return new Progress(verb, estimatedObjects, System.err, System.console() != null, clock);
    }

    private void loop() {
        long interval = tty ? TTY_INTERVAL_MILLIS : PLAIN_INTERVAL_MILLIS;
        while (!closed) {
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
            if (!closed) {
                print(false);
            }
        }
    }

    public double seconds() {
        return (clock.nanos() - startNanos) / 1e9;
    }

    public String line() {
        double s = Math.max(seconds(), 1e-3);
        long n = objects.get();
        double mbs = bytes.get() / s / 1e6;
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "%s: %,d objects, %s read, %s copied, %.1f MB/s, %.0f s", verb, n, human(bytes.get()),
                human(copiedBytes.get()), mbs, s));
        if (estimatedObjects > 0 && n > 0) {
            double pct = Math.min(100.0, 100.0 * n / estimatedObjects);
            double eta = Math.max(0, (estimatedObjects - n) * s / n);
            b.append(String.format(Locale.ROOT, ", %.0f%% of ~%,d, ETA %.0f s", pct, estimatedObjects, eta));
        }
        return b.toString();
    }

    private synchronized void print(boolean last) {
        if (tty) {
            out.print("\r\033[K" + line() + (last ? "\n" : ""));
        } else {
            out.println(line());
        }
        out.flush();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            printer.interrupt();
            print(true);
        }
    }

    public static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String units = "KMGTPE";
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length() - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %siB", v, units.charAt(u));
    }
}
