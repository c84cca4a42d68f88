package dev.cairn.loadtest.run;

import dev.cairn.loadtest.dataset.Dataset;
import dev.cairn.loadtest.generator.KeyChooser;
import dev.cairn.loadtest.targets.Target;
import dev.cairn.loadtest.targets.TargetException;
import dev.cairn.loadtest.targets.TraversalSource;
import dev.cairn.loadtest.workload.Operation;
import dev.cairn.loadtest.workload.Workload;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one workload against one target: worker threads issue operations (closed loop, or open
 * loop at a target rate with latency counted from each operation's due time, so a stalled
 * target cannot hide its stall: no coordinated omission), the calling thread samples every
 * interval (throughput, latency, errors, progress line) and starts the traversal when due.
 * Worker {@code i} draws from {@code SplittableRandom(seed + i)}, so the sequence of
 * operations and keys of each thread is reproducible from the seed.
 *
 * <p>Thread-safety: one run per instance.
 */
public final class Runner {

    /** Versions of updates are drawn below this; 0 is the load version. */
    private static final int VERSIONS = 1 << 20;
    /** Copies, deletes and multipart uploads go to this many keys apart from the dataset's, so they meet each other. */
    private static final int SCRATCH_KEYS = 256;
    private static final String SCRATCH_PREFIX = "scratch/";

    private final RunConfig config;
    private final Target target;
    private final Dataset dataset;
    private final KeySpace keys;
    private final KeyChooser chooser;
    private final Workload workload;
    private final TraversalSource traversalSource;
    private final PrintWriter progress;
    private final boolean verify;
    private final Map<Operation, OperationStats> stats = new EnumMap<>(Operation.class);
    private final AtomicLong issued = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final ConcurrentLinkedQueue<Long> inserted = new ConcurrentLinkedQueue<>();
    private volatile boolean stopped;
    private long startNanos;
    private long deadlineNanos;
    private double periodNanos;

    /**
     * @param loadedKeys the dataset's keys from the registry
     * @param traversalSource what the traversal walks, or null for none
     * @param progress where the progress line goes (stderr), or null for none
     * @param verifyReads whether every read's content is checked (only sound when nothing has
     *     overwritten the load's content)
     */
    public Runner(RunConfig config, Target target, Dataset dataset, String[] loadedKeys,
                  TraversalSource traversalSource, PrintWriter progress, boolean verifyReads) {
        this.config = config;
        this.target = target;
        this.dataset = dataset;
        this.keys = new KeySpace(loadedKeys, dataset);
        this.workload = config.workload();
        this.chooser = workload.distribution().chooser(config.hotSet(), config.hotOperations());
        this.traversalSource = config.traversal() ? traversalSource : null;
        this.progress = progress;
        this.verify = verifyReads && workload.readsVerifiable();
        if (loadedKeys.length == 0) {
            throw new IllegalArgumentException("the dataset has no keys");
        }
        if (workload.proportion(Operation.SCAN) > 0 && !target.canScan()) {
            throw new IllegalArgumentException("workload '" + workload.name() + "' scans, and " + target.describe()
                    + " cannot list keys; use an S3 target");
        }
        for (Operation op : workload.proportions().keySet()) {
            if (op.usesScratchKey() && !target.canCopyDeleteAndMultipart()) {
                throw new IllegalArgumentException("workload '" + workload.name() + "' has " + op.label()
                        + " requests, and " + target.describe() + " takes none; use an S3 target");
            }
        }
        if (config.traversal() && traversalSource == null) {
            throw new IllegalArgumentException("a traversal needs a source (an S3 endpoint or a directory)");
        }
        for (Operation op : workload.proportions().keySet()) {
            stats.put(op, new OperationStats());
        }
    }

    /**
     * Runs to a bound; returns the result. One untimed GET (and one listing of the traversal
     * source) first initialises the clients (an SDK spends seconds on its first request), so the
     * first interval measures the target.
     */
    public RunResult run() throws InterruptedException {
        try {
            target.get(keys.key(0));
        } catch (TargetException | RuntimeException e) {
            // A failing target shows in the timed operations, counted by kind.
        }
        if (traversalSource != null) {
            try {
                traversalSource.list(name -> false);
            } catch (TargetException | RuntimeException e) {
                // A failing traversal source shows in the traversal's error counts.
            }
        }
        if (!config.warmup().isZero()) {
            warmUp();
        }
        Instant startedAt = Instant.now();
        Timeline timeline = new Timeline(stats.keySet());
        TraversalRun traversal = traversalSource == null ? null : new TraversalRun(traversalSource, config.traversalThreads());
        startNanos = System.nanoTime();
        deadlineNanos = startNanos + config.duration().toNanos();
        periodNanos = config.openLoop() ? 1e9 / config.targetRate() : 0;
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < config.threads(); i++) {
            SplittableRandom random = new SplittableRandom(config.seed() + i);
            Thread t = new Thread(() -> work(random, stats, config.maxOps()), "loadtest-" + i);
            t.setDaemon(true);
            workers.add(t);
        }
        workers.forEach(Thread::start);
        long traversalAt = startNanos + config.traversalDelay().toNanos();
        long intervalNanos = config.interval().toNanos();
        long lastSample = startNanos;
        Progress line = new Progress(progress, config);
        try {
            while (anyAlive(workers)) {
                long now = System.nanoTime();
                long next = lastSample + intervalNanos;
                if (traversal != null && !traversal.started() && traversalAt < next) {
                    next = Math.max(now, traversalAt);
                }
                if (next > now) {
                    join(workers, next - now);
                }
                now = System.nanoTime();
                if (traversal != null && !traversal.started() && now >= traversalAt && now < deadlineNanos) {
                    traversal.start();
                }
                if (now - lastSample >= intervalNanos || !anyAlive(workers)) {
                    timeline.sample(stats, lastSample - startNanos, now - startNanos, traversal, startNanos);
                    lastSample = now;
                    line.show(now - startNanos, completed.get(), errorCount(), timeline.lastRate(), traversal);
                }
            }
        } finally {
            stopped = true;
            for (Thread t : workers) {
                t.join();
            }
            if (traversal != null) {
                traversal.stopAndJoin();
            }
        }
        long end = System.nanoTime();
        if (end - lastSample > 0 && timeline.lastEnd() < end - startNanos) {
            timeline.sample(stats, lastSample - startNanos, end - startNanos, traversal, startNanos);
        }
        line.finish(end - startNanos, completed.get(), errorCount());
        String stopReason = issued.get() >= config.maxOps() ? "count" : "time";
        return new RunResult(config, target.describe(), dataset.spec(), startedAt, (end - startNanos) / 1e9,
                stopReason, completed.get(), stats, timeline, traversal, traversalSource, startNanos, verify,
                List.copyOf(inserted), keys.count());
    }

    /**
     * The same workload for the warm-up's duration, at the same rate, into statistics that are
     * thrown away, bounded by time alone: a fresh client JVM spends its first seconds compiling and connecting, which an
     * open loop would otherwise report as the target's tail. Inserted keys stay inserted.
     */
    private void warmUp() throws InterruptedException {
        Map<Operation, OperationStats> discarded = new EnumMap<>(Operation.class);
        for (Operation op : stats.keySet()) {
            discarded.put(op, new OperationStats());
        }
        startNanos = System.nanoTime();
        deadlineNanos = startNanos + config.warmup().toNanos();
        periodNanos = config.openLoop() ? 1e9 / config.targetRate() : 0;
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < config.threads(); i++) {
            SplittableRandom random = new SplittableRandom(config.seed() - 1 - i);
            Thread t = new Thread(() -> work(random, discarded, Long.MAX_VALUE), "loadtest-warmup-" + i);
            t.setDaemon(true);
            workers.add(t);
        }
        workers.forEach(Thread::start);
        for (Thread t : workers) {
            t.join();
        }
        issued.set(0);
        completed.set(0);
    }

    private void work(SplittableRandom random, Map<Operation, OperationStats> into, long maxOps) {
        while (!stopped) {
            long seq = issued.getAndIncrement();
            if (seq >= maxOps) {
                return;
            }
            long due;
            if (config.openLoop()) {
                due = startNanos + (long) (seq * periodNanos);
                if (due >= deadlineNanos) {
                    return;
                }
                for (long wait; (wait = due - System.nanoTime()) > 0 && !stopped; ) {
                    LockSupport.parkNanos(wait);
                }
            } else {
                due = 0;
                if (System.nanoTime() >= deadlineNanos) {
                    return;
                }
            }
            execute(workload.next(random), random, due, into);
            completed.incrementAndGet();
        }
    }

    private void execute(Operation op, SplittableRandom random, long due, Map<Operation, OperationStats> into) {
        OperationStats s = into.get(op);
        long index = op == Operation.INSERT ? keys.claimInsert() : chooseExisting(random);
        String key = keys.key(index);
        String scratchKey = op.usesScratchKey() ? SCRATCH_PREFIX + random.nextInt(SCRATCH_KEYS) : null;
        byte[] value = switch (op) {
            case UPDATE, READ_MODIFY_WRITE, MULTIPART -> dataset.value(index, 1 + random.nextInt(VERSIONS - 1));
            case INSERT -> dataset.value(index, 0);
            default -> null;
        };
        int scanLength = op == Operation.SCAN ? 1 + random.nextInt(workload.maxScanLength()) : 0;
        long start = System.nanoTime();
        boolean insertSucceeded = false;
        try {
            switch (op) {
                case READ -> {
                    byte[] got = target.get(key);
                    if (verify && !dataset.isLoadValue(got, index)) {
                        throw new TargetException("wrong-content", "GET " + key + " returned other bytes ("
                                + got.length + " bytes)");
                    }
                }
                case UPDATE, INSERT -> target.put(key, value);
                case SCAN -> target.scan(key, scanLength);
                case READ_MODIFY_WRITE -> {
                    target.get(key);
                    target.put(key, value);
                }
                case COPY -> target.copy(key, scratchKey);
                case DELETE -> target.delete(scratchKey);
                case MULTIPART -> target.multipartPut(scratchKey, value);
            }
            s.record(System.nanoTime() - (due != 0 ? due : start));
            if (op == Operation.INSERT) {
                inserted.add(index);
                insertSucceeded = true;
            }
        } catch (TargetException e) {
            s.error(e.kind());
        } catch (RuntimeException e) {
            s.error("client-" + e.getClass().getSimpleName());
        } finally {
            if (op == Operation.INSERT) {
                keys.finishInsert(index, insertSucceeded);
            }
        }
    }

    /** A key that exists: drawn again when the draw lands on a failed insert, a loaded key after a few tries. */
    private long chooseExisting(SplittableRandom random) {
        for (int attempt = 0; attempt < 8; attempt++) {
            long index = chooser.next(random, keys.count());
            if (!keys.failed(index)) {
                return index;
            }
        }
        return random.nextInt(keys.loadedCount());
    }

    private long errorCount() {
        long n = 0;
        for (OperationStats s : stats.values()) {
            n += s.errorCount();
        }
        return n;
    }

    private static boolean anyAlive(List<Thread> threads) {
        for (Thread t : threads) {
            if (t.isAlive()) {
                return true;
            }
        }
        return false;
    }

    private static void join(List<Thread> threads, long nanos) throws InterruptedException {
        long until = System.nanoTime() + nanos;
        for (Thread t : threads) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                return;
            }
            TimeUnit.NANOSECONDS.timedJoin(t, left);
        }
    }
}
