package dev.cairn.service.console;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The newest runs of a backup archive, as the operations page shows them: read on a thread of
 * its own and kept for {@code refresh}, so that a slow or unreachable archive never holds up a
 * page or its figures. A view asks for a read when the last one is older than {@code refresh}
 * (one read at a time) and answers at once with what was read last, when, and the last read's
 * error. Nothing is read while nobody looks. Thread-safe.
 */
final class BackupHistory implements AutoCloseable {
    /** Runs shown. */
    static final int RUNS = 10;

    /** Where the run reports come from: a directory archive or an S3 one. */
    interface Source {
        /** The archive, for the page: {@code dir:/path} or {@code s3://bucket/prefix at endpoint}. */
        String describe();

        /** The newest {@code n} runs, newest first, each as {@link RunReports#row} makes it. */
        List<Map<String, Object>> newest(int n) throws IOException;
    }

    private record State(List<Map<String, Object>> runs, String readAt, String error, long attemptNanos, boolean attempted) {
    }

    private final Source source;
    private final long refreshNanos;
    private final LongSupplier nanos;
    private final Clock clock;
    private final ExecutorService reader;
    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile State state = new State(List.of(), null, null, 0, false);

    /** {@code source} null: no archive, nothing shown. */
    BackupHistory(Source source, Duration refresh, LongSupplier nanos, Clock clock) {
        this.source = source;
        this.refreshNanos = refresh.toNanos();
        this.nanos = nanos;
        this.clock = clock;
        this.reader = new ThreadPoolExecutor(0, 1, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "cairn-console-backup-history");
            t.setDaemon(true);
            return t;
        });
    }

    boolean configured() {
        return source != null;
    }

    /**
     * What the page shows: {@code archive}, {@code runs} (newest first), {@code readAt} (null:
     * not read yet), {@code error} (of the last read; null when it succeeded) and {@code reading}.
     */
    Map<String, Object> view() {
        State s = state;
        if ((!s.attempted() || nanos.getAsLong() - s.attemptNanos() >= refreshNanos) && reading.compareAndSet(false, true)) {
            try {
                reader.execute(this::read);
            } catch (RejectedExecutionException closed) {
                reading.set(false);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("archive", source.describe());
        out.put("runs", s.runs());
        out.put("readAt", s.readAt());
        out.put("error", s.error());
        out.put("reading", reading.get());
        return out;
    }

    private void read() {
        long started = nanos.getAsLong();
        State before = state;
        try {
            List<Map<String, Object>> runs = List.copyOf(source.newest(RUNS));
            state = new State(runs, clock.instant().toString(), null, started, true);
        } catch (IOException | RuntimeException e) {
            // The runs read before stay on the page, with the error beside them.
            state = new State(before.runs(), before.readAt(), e.getMessage() == null ? e.toString() : e.getMessage(), started, true);
        } finally {
            reading.set(false);
        }
    }

    @Override
    public void close() {
        reader.shutdownNow();
    }
}
