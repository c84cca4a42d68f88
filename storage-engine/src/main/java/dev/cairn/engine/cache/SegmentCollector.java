package dev.cairn.engine.cache;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link SsdCache}'s garbage collector: copies the live entries of sealed segments whose
 * garbage ratio reaches {@link SsdCacheOptions#gcGarbageRatio()} to the active segment, most
 * garbage first, and deletes them.
 *
 * <p>Thread-safety: {@link #schedule} may be called by any thread, never blocks, and coalesces
 * requests into one pending pass; passes (scheduled or {@link #collectNow}) run one at a time
 * under a permit; each copied entry takes the cache's write lock only while it is appended.
 */
final class SegmentCollector {
    private static final System.Logger LOG = System.getLogger(SsdCache.class.getName());

    private final SsdCache cache;
    private final HashIndex index;
    private final ConcurrentSkipListMap<Integer, CacheSegment> segments;
    private final double garbageRatio;
    private final Executor executor;
    private final ExecutorService ownedExecutor;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Semaphore permit = new Semaphore(1);
    final LongAdder copiedBytes = new LongAdder();
    final LongAdder collectedSegments = new LongAdder();

    SegmentCollector(SsdCache cache, SsdCacheOptions options, HashIndex index,
            ConcurrentSkipListMap<Integer, CacheSegment> segments) {
        this.cache = cache;
        this.index = index;
        this.segments = segments;
        this.garbageRatio = options.gcGarbageRatio();
        if (options.gcExecutor() != null) {
            this.executor = options.gcExecutor();
            this.ownedExecutor = null;
        } else {
            this.ownedExecutor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "cairn-ssd-cache-gc");
                t.setDaemon(true);
                return t;
            });
            this.executor = ownedExecutor;
        }
    }

    /** Whether {@code segment} is a candidate: sealed, with enough garbage. */
    boolean due(CacheSegment segment) {
        return segment.sealed() && segment.garbageRatio() >= garbageRatio;
    }

    /** Asks for a pass in the background, unless one is already pending or the cache is closed. */
    void schedule() {
        if (cache.isClosed() || !scheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.execute(() -> {
                scheduled.set(false);
                if (permit.tryAcquire()) {
                    try {
                        collect();
                    } finally {
                        permit.release();
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            scheduled.set(false);
        }
    }

    /** Runs one pass now, after a running one finishes. Returns the number of segments collected. */
    int collectNow() {
        permit.acquireUninterruptibly();
        try {
            return collect();
        } finally {
            permit.release();
        }
    }

    /**
     * Waits for a running pass, stops the collector's own thread, then runs {@code whileStopped}
     * with no pass running. For close.
     */
    void stop(IoAction whileStopped) throws IOException {
        permit.acquireUninterruptibly();
        try {
            shutdownExecutor();
            whileStopped.run();
        } finally {
            permit.release();
        }
    }

    void shutdownExecutor() {
        if (ownedExecutor != null) {
            ownedExecutor.shutdown();
            try {
                ownedExecutor.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** REQUIRES: permit. */
    private int collect() {
        List<CacheSegment> candidates = new ArrayList<>();
        for (CacheSegment s : segments.values()) {
            if (due(s)) {
                candidates.add(s);
            }
        }
        candidates.sort(Comparator.comparingLong(CacheSegment::garbage).reversed());
        int collected = 0;
        for (CacheSegment s : candidates) {
            if (cache.isClosedOrFailed()) {
                break;
            }
            if (segments.get(s.number) == s && compact(s)) {
                collected++;
                collectedSegments.increment();
            }
        }
        return collected;
    }

    /** Copies the live entries of {@code segment} forward and deletes it. */
    private boolean compact(CacheSegment segment) {
        try {
            SegmentScanner.scan(segment.reader, segment.written(), (offset, bytes, at, size) -> {
                long oldOffset = VirtualOffset.of(segment.number, offset);
                long hash = KeyHash.of(CacheEntryFormat.key(bytes, at));
                HashIndex.Location location = index.get(hash);
                if (location == null || location.virtualOffset() != oldOffset) {
                    return;
                }
                if (cache.copyForward(hash, oldOffset, Arrays.copyOfRange(bytes, at, at + size))) {
                    copiedBytes.add(size);
                }
            });
        } catch (IOException e) {
            if (segments.get(segment.number) != segment || cache.isClosedOrFailed()) {
                return false;
            }
            LOG.log(System.Logger.Level.WARNING, "SSD cache segment {0} unreadable during collection, dropped: {1}",
                    segment.path, e);
        }
        cache.dropSegment(segment);
        return true;
    }

    /** An action that may fail with an I/O error. */
    interface IoAction {
        void run() throws IOException;
    }
}
