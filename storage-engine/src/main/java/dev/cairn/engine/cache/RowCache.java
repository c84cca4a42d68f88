package dev.cairn.engine.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.cairn.engine.ReadOptions;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The two-tier row cache of the hybrid SSD/HDD key-value store paper (docs/references.md): whole, up-to-date rows in memory (Caffeine, bounded by
 * bytes, W-TinyLFU), then on the fast tier ({@link SsdCache}). Reads flow memory → SSD → miss;
 * an SSD hit is promoted to memory. Entries evicted from memory cascade to the SSD tier through
 * a bounded queue drained in the background: no caller waits for it, and a full queue drops.
 *
 * <p>Coherence. The engine must, for every write, make the write visible to its own reads
 * (memtable) and then call {@link #put} (the new row) or {@link #invalidate} before
 * acknowledging it; calls for one key must arrive in commit order. Given that, a read never
 * returns a value older than the latest acknowledged write. Keys hash to stripes that record the
 * last write generation and the writes in progress.
 * <ol>
 *   <li>A write: (a) under its stripe's lock, marks itself in progress, takes a generation and
 *       cancels the key's registered cascade if it carries an older value; (b) removes the key
 *       from the SSD tier; (c) updates memory; (d) records a fresh generation as the stripe's last
 *       write and ends.
 *   <li>An install into memory — a {@link #fill} after a miss, or the promotion of an SSD hit —
 *       carries the stamp {@link #lookup} took before reading, and happens only if no write to
 *       the stripe is in progress and none ended after the stamp; it is checked inside the memory
 *       map's lock for the key, which (c) also takes. So it either precedes (c), which replaces
 *       it, or sees the write; a stale SSD value can only be read before (b), hence with a stamp
 *       older than (d).
 *   <li>An eviction from memory registers its cascade inside the memory map's lock for the key
 *       and under the stripe's lock, unless a write to the stripe is in progress and the entry
 *       predates it. A registration either precedes (a), which cancels it, or sees the write in
 *       progress: the write cannot have ended, since (c) waits for the memory map's lock.
 *   <li>The SSD tier publishes a cascade only if it is not cancelled, checked under the index
 *       lock that (b) takes; one published before the cancellation is removed by (b).
 * </ol>
 * A write cancels only cascades of older entries, so its own value, which W-TinyLFU often evicts
 * at once, still cascades. The randomised test in RowCacheTest checks all of this against an
 * oracle.
 *
 * <p>Scan reads ({@code scan = true}) look in both tiers without leaving a trace: no frequency
 * counted, no promotion, no statistics, and their stamp refuses any fill.
 *
 * <p>Thread-safe. Byte arrays passed in or returned are shared and must not be modified.
 */
public final class RowCache implements Closeable {

    /**
     * The outcome of a lookup: the value (null on a miss) and the stamp to pass to
     * {@link #fill} with the value read from the engine after a miss.
     */
    public record Lookup(byte[] value, long stamp) {
        public boolean hit() {
            return value != null;
        }
    }

    private static final long NO_FILL = -1;
    private static final int WRITE_STRIPES = 1 << 14;

    private record Versioned(byte[] value, long generation, boolean fromSsd) {
    }

    private static final class Cascade {
        final ByteKey key;
        final byte[] value;
        final long generation;
        volatile boolean cancelled;

        Cascade(ByteKey key, byte[] value, long generation) {
            this.key = key;
            this.value = value;
            this.generation = generation;
        }
    }

    private final Cache<ByteKey, Versioned> memory;
    private final SsdCache ssd;
    private final AtomicLong generation = new AtomicLong();
    private final AtomicLongArray lastWrite = new AtomicLongArray(WRITE_STRIPES);
    private final AtomicIntegerArray writing = new AtomicIntegerArray(WRITE_STRIPES);
    private final Object[] stripeLocks = new Object[256];
    private final ConcurrentHashMap<ByteKey, Cascade> inFlight = new ConcurrentHashMap<>();
    private final ArrayBlockingQueue<Cascade> queue;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicInteger pending = new AtomicInteger();
    private final Executor cascadeExecutor;
    private final ExecutorService ownedExecutor;
    private volatile boolean closed;

    private final LongAdder memoryHits = new LongAdder();
    private final LongAdder memoryMisses = new LongAdder();
    private final LongAdder memoryEvictions = new LongAdder();
    private final LongAdder ssdHits = new LongAdder();
    private final LongAdder ssdMisses = new LongAdder();
    private final LongAdder cascaded = new LongAdder();
    private final LongAdder cascadeDropped = new LongAdder();

    private RowCache(RowCacheOptions options, SsdCache ssd) {
        this.ssd = ssd;
        for (int i = 0; i < stripeLocks.length; i++) {
            stripeLocks[i] = new Object();
        }
        this.queue = new ArrayBlockingQueue<>(options.cascadeQueueEntries());
        if (options.cascadeExecutor() != null || ssd == null) {
            this.cascadeExecutor = options.cascadeExecutor();
            this.ownedExecutor = null;
        } else {
            this.ownedExecutor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "cairn-row-cache-cascade");
                t.setDaemon(true);
                return t;
            });
            this.cascadeExecutor = ownedExecutor;
        }
        this.memory = Caffeine.newBuilder()
                .maximumWeight(options.memoryBytes())
                .weigher((ByteKey k, Versioned v) -> (int) Math.min(Integer.MAX_VALUE,
                        (long) k.bytes.length + v.value().length + RowCacheOptions.MEMORY_ENTRY_OVERHEAD_BYTES))
                .executor(Runnable::run)
                .evictionListener(this::onEviction)
                .build();
    }

    /** A cache with the memory tier only. */
    public static RowCache memoryOnly(RowCacheOptions options) {
        return new RowCache(options, null);
    }

    /** A cache with both tiers; the row cache owns {@code ssd} and closes it. */
    public static RowCache tiered(RowCacheOptions options, SsdCache ssd) {
        return new RowCache(options, java.util.Objects.requireNonNull(ssd, "ssd"));
    }

    /** The value for {@code key}, or null; counted, and promoted from SSD on an SSD hit. */
    public byte[] get(byte[] key) {
        return lookup(key, false).value();
    }

    /**
     * Looks {@code key} up as {@code options} say: a read at a snapshot bypasses the cache (which
     * holds only the latest rows) and may not fill it; a read that must not fill caches
     * ({@link ReadOptions#SCAN}) is a scan.
     */
    public Lookup lookup(byte[] key, ReadOptions options) {
        if (options.snapshot() != null) {
            return new Lookup(null, NO_FILL);
        }
        return lookup(key, !options.fillCache());
    }

    /** Looks {@code key} up in memory, then on SSD. See the class comment for {@code scan}. */
    public Lookup lookup(byte[] key, boolean scan) {
        ByteKey k = new ByteKey(key);
        if (scan) {
            Versioned v = memory.policy().getIfPresentQuietly(k);
            if (v != null) {
                return new Lookup(v.value(), NO_FILL);
            }
            return new Lookup(ssd == null ? null : ssd.peek(key), NO_FILL);
        }
        long stamp = generation.get();
        if (ssd != null) {
            ssd.recordAccess(k.hash);
        }
        Versioned v = memory.getIfPresent(k);
        if (v != null) {
            memoryHits.increment();
            return new Lookup(v.value(), stamp);
        }
        memoryMisses.increment();
        if (ssd != null) {
            byte[] value = ssd.get(key);
            if (value != null) {
                ssdHits.increment();
                install(k, value, stamp, true);
                return new Lookup(value, stamp);
            }
        }
        ssdMisses.increment();
        return new Lookup(null, stamp);
    }

    /**
     * Installs {@code value}, read from the engine after {@code lookup} missed, unless a write to
     * the key may have happened since that lookup. Returns whether it was installed.
     */
    public boolean fill(byte[] key, byte[] value, long stamp) {
        if (stamp < 0 || closed) {
            return false;
        }
        return install(new ByteKey(key), value, stamp, false);
    }

    private boolean install(ByteKey k, byte[] value, long stamp, boolean fromSsd) {
        boolean[] installed = {false};
        memory.asMap().compute(k, (key, old) -> {
            int stripe = stripe(k);
            if (writing.get(stripe) > 0 || lastWrite.get(stripe) > stamp) {
                return old;
            }
            installed[0] = true;
            return new Versioned(value, stamp, fromSsd);
        });
        return installed[0];
    }

    /** A write of {@code value} under {@code key}: it becomes the cached row. */
    public void put(byte[] key, byte[] value) {
        ByteKey k = new ByteKey(key);
        long g = beginWrite(k);
        try {
            memory.put(k, new Versioned(value, g, false));
        } finally {
            endWrite(k);
        }
    }

    /** A write (or delete) of {@code key}: both tiers forget it. */
    public void invalidate(byte[] key) {
        ByteKey k = new ByteKey(key);
        long g = beginWrite(k);
        try {
            memory.invalidate(k);
        } finally {
            endWrite(k);
        }
    }

    /**
     * Starts a write: marks it in progress in the key's stripe, takes its generation, cancels the
     * key's cascade of any older value and removes the key from the SSD tier. The memory tier is
     * updated after this, so an older value evicted from memory from now on is not cascaded (see
     * {@link #onEviction}), while the new value, if evicted at once, still is.
     */
    private long beginWrite(ByteKey k) {
        int stripe = stripe(k);
        long g;
        synchronized (stripeLock(stripe)) {
            writing.incrementAndGet(stripe);
            g = generation.incrementAndGet();
            lastWrite.accumulateAndGet(stripe, g, Math::max);
            Cascade c = inFlight.get(k);
            if (c != null && c.generation < g) {
                c.cancelled = true;
            }
        }
        if (ssd != null) {
            ssd.invalidate(k.bytes);
        }
        return g;
    }

    /**
     * Ends a write with a fresh generation, after the SSD tier was invalidated: a promotion that
     * read the SSD tier before the invalidation holds an older stamp, and one that tries to
     * install while the write is in progress sees it in progress.
     */
    private void endWrite(ByteKey k) {
        int stripe = stripe(k);
        lastWrite.accumulateAndGet(stripe, generation.incrementAndGet(), Math::max);
        writing.decrementAndGet(stripe);
    }

    /**
     * Orders a write's start (in-progress mark, cancel of the key's cascade) against the
     * registration of an eviction's cascade: one of the two always sees the other. Never held
     * while taking the memory map's locks (the eviction listener takes it inside one).
     */
    private Object stripeLock(int stripe) {
        return stripeLocks[stripe & (stripeLocks.length - 1)];
    }

    private static int stripe(ByteKey k) {
        return (int) k.hash & (WRITE_STRIPES - 1);
    }

    /** Runs inside the memory map's atomic removal of the entry. Must not block. */
    private void onEviction(ByteKey k, Versioned v, RemovalCause cause) {
        if (k == null || v == null || !cause.wasEvicted()) {
            return;
        }
        memoryEvictions.increment();
        if (ssd == null || closed || (v.fromSsd() && ssd.contains(k.bytes))) {
            return;
        }
        int stripe = stripe(k);
        Cascade c = new Cascade(k, v.value(), v.generation());
        synchronized (stripeLock(stripe)) {
            if (writing.get(stripe) > 0 && v.generation() < lastWrite.get(stripe)) {
                // Possibly superseded by a write in progress that may already be past its cancel step.
                cascadeDropped.increment();
                return;
            }
            Cascade previous = inFlight.put(k, c);
            if (previous != null) {
                previous.cancelled = true;
            }
        }
        pending.incrementAndGet();
        if (!queue.offer(c)) {
            pending.decrementAndGet();
            inFlight.remove(k, c);
            cascadeDropped.increment();
            return;
        }
        scheduleDrain();
    }

    private void scheduleDrain() {
        if (!draining.compareAndSet(false, true)) {
            return;
        }
        try {
            cascadeExecutor.execute(this::drain);
        } catch (RejectedExecutionException e) {
            draining.set(false);
        }
    }

    private void drain() {
        try {
            Cascade c;
            while ((c = queue.poll()) != null) {
                Cascade cascade = c;
                try {
                    if (!closed && !cascade.cancelled
                            && ssd.putIf(cascade.key.bytes, cascade.value, () -> !cascade.cancelled)) {
                        cascaded.increment();
                    }
                } finally {
                    inFlight.remove(cascade.key, cascade);
                    pending.decrementAndGet();
                }
            }
        } finally {
            draining.set(false);
        }
        if (!queue.isEmpty()) {
            scheduleDrain();
        }
    }

    /** Waits until every queued cascade has been written or refused; false on timeout. */
    public boolean awaitCascades(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pending.get() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /** Where {@code key} is cached and the state of its write stripe, for diagnostics. */
    String describe(byte[] key) {
        ByteKey k = new ByteKey(key);
        Versioned v = memory.policy().getIfPresentQuietly(k);
        byte[] onSsd = ssd == null ? null : ssd.peek(key);
        Cascade c = inFlight.get(k);
        return "memory=" + (v == null ? "none" : v.value().length + "B@" + v.generation() + (v.fromSsd() ? "(from ssd)" : ""))
                + " ssd=" + (onSsd == null ? "none" : onSsd.length + "B")
                + " cascade=" + (c == null ? "none" : c.value.length + "B@" + c.generation + (c.cancelled ? "(cancelled)" : ""))
                + " generation=" + generation.get() + " lastWrite=" + lastWrite.get(stripe(k))
                + " writing=" + writing.get(stripe(k));
    }

    public RowCacheStats stats() {
        long bytes = memory.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
        return new RowCacheStats(memoryHits.sum(), memoryMisses.sum(), memoryEvictions.sum(), bytes,
                memory.estimatedSize(), ssdHits.sum(), ssdMisses.sum(), cascaded.sum(), cascadeDropped.sum(),
                ssd == null ? null : ssd.stats());
    }

    /** Stops cascading, drops the memory tier and closes the SSD tier (which records its live entries). */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (ownedExecutor != null) {
            ownedExecutor.shutdown();
            try {
                ownedExecutor.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        memory.invalidateAll();
        if (ssd != null) {
            ssd.close();
        }
    }
}
