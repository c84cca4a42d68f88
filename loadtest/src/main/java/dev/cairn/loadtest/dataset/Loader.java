package dev.cairn.loadtest.dataset;

import dev.cairn.loadtest.targets.Target;
import dev.cairn.loadtest.targets.TargetException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes a dataset: every object to an S3 target and/or as files under a directory (the same
 * bytes, for a web server baseline), and every key to the key registry. Threads take batches
 * of consecutive indices; a batch's keys are registered once its objects are written. The
 * dataset's description goes to the registry first, with count 0, and its count when every
 * object was written.
 *
 * <p>Thread-safety: one load per instance.
 */
public final class Loader {

    /** What a load did. */
    public record Summary(long objects, long bytes, long distinctContents, double seconds, Map<String, Long> errors) {
        public String describe() {
            return String.format(Locale.ROOT, "loaded %,d objects (%,d distinct contents), %,.1f MB in %.1f s: %,.0f objects/s, %,.1f MB/s%s",
                    objects, distinctContents, bytes / 1e6, seconds, objects / seconds, bytes / 1e6 / seconds,
                    errors.isEmpty() ? "" : "; FAILED writes: " + errors);
        }
    }

    private static final int BATCH = 1_000;

    private final Dataset dataset;
    private final Target target;
    private final Path directory;
    private final KeyRegistry registry;
    private final int threads;
    private final PrintWriter progress;
    private final AtomicLong next = new AtomicLong();
    private final LongAdder written = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder distinct = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();

    public Loader(Dataset dataset, Target target, Path directory, KeyRegistry registry, int threads, PrintWriter progress) {
        if (target == null && directory == null) {
            throw new IllegalArgumentException("load needs somewhere to write: an S3 endpoint, a directory, or both");
        }
        if (dataset.spec().count() < 1) {
            throw new IllegalArgumentException("a load needs at least one object");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.dataset = dataset;
        this.target = target;
        this.directory = directory;
        this.registry = registry;
        this.threads = threads;
        this.progress = progress;
    }

    public Summary load() throws InterruptedException {
        String name = dataset.spec().name();
        registry.clear(name);
        registry.describe(dataset.spec().withCount(0));
        long start = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        List<RuntimeException> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    work();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }, "load-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
        long lastPrint = start;
        for (Thread t : workers) {
            while (t.isAlive()) {
                t.join(1_000);
                long now = System.nanoTime();
                if (progress != null && now - lastPrint >= 5_000_000_000L) {
                    lastPrint = now;
                    progress.printf(Locale.ROOT, "%7.1fs  %,d of %,d objects%n", (now - start) / 1e9, written.sum(),
                            dataset.spec().count());
                }
            }
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        Map<String, Long> errorCounts = new TreeMap<>();
        errors.forEach((k, v) -> errorCounts.put(k, v.sum()));
        if (errorCounts.isEmpty()) {
            registry.describe(dataset.spec());
        }
        return new Summary(written.sum(), bytes.sum(), distinct.sum(), (System.nanoTime() - start) / 1e9, errorCounts);
    }

    private void work() {
        long count = dataset.spec().count();
        for (long first; (first = next.getAndAdd(BATCH)) < count; ) {
            long end = Math.min(count, first + BATCH);
            List<String> keys = new ArrayList<>((int) (end - first));
            for (long i = first; i < end; i++) {
                String key = dataset.key(i);
                keys.add(key);
                byte[] value = dataset.value(i, 0);
                if (write(key, value)) {
                    written.increment();
                    bytes.add(value.length);
                    if (dataset.contentIndex(i) == i) {
                        distinct.increment();
                    }
                }
            }
            registry.register(dataset.spec().name(), first, keys);
        }
    }

    private boolean write(String key, byte[] value) {
        boolean ok = true;
        if (target != null) {
            try {
                target.put(key, value);
            } catch (TargetException e) {
                failed(e.kind(), e.getMessage());
                ok = false;
            }
        }
        if (directory != null) {
            try {
                Path file = directory.resolve(key);
                Files.createDirectories(file.getParent());
                Files.write(file, value);
            } catch (IOException e) {
                failed("file", key + ": " + e);
                ok = false;
            }
        }
        return ok;
    }

    /** Counts a failed write; the first of each kind is described on the progress stream, as it happens. */
    private void failed(String kind, String message) {
        boolean first = errors.putIfAbsent(kind, new LongAdder()) == null;
        errors.get(kind).increment();
        if (first && progress != null) {
            progress.printf(Locale.ROOT, "first failed write of kind %s: %s%n", kind, message);
            progress.flush();
        }
    }
}
