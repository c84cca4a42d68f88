package dev.cairn.engine.cache;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A cache of whole rows on the fast tier: the SSD row cache of the hybrid SSD/HDD key-value store paper (docs/references.md).
 *
 * <p>Design. The cache is one logical append-only file cut into segment files
 * ({@code NNNNNN.seg}, docs/format/ssd-cache-segment.md). A memory-resident {@link HashIndex} maps
 * a 64-bit hash of each key to a 64-bit virtual offset (segment number in the high 32 bits,
 * offset in the low 32) and the entry's size, so a hit costs one index probe and exactly one
 * positional read — none when the entry still sits in the write buffer. Only the newest
 * ({@link ActiveSegment}) takes writes, through a write buffer that readers copy from directly; every
 * flush publishes a fresh buffer, so a reader never sees bytes change under it. Entries carry a
 * CRC32C and their full key: a failed check is a miss (and the entry leaves the index), a hash
 * collision is a miss; wrong bytes are never returned.
 *
 * <p>Invalidation only removes the key from the index and counts the entry's bytes as garbage in
 * its segment. Garbage collection ({@link SegmentCollector}, in the background) copies the live
 * entries of sealed segments whose garbage ratio reaches {@link SsdCacheOptions#gcGarbageRatio()}
 * to the active segment and deletes them. When the cache is full the oldest segment is dropped
 * whole (FIFO).
 *
 * <p>Restart: see {@link SsdRecovery} and {@link SegmentRecovery}. Invalidations are not logged,
 * so after a crash the segments cannot prove which entries are still current and are dropped; a
 * clean {@link #close()} writes the list of live offsets that the next open rebuilds from,
 * verifying every entry.
 *
 * <p>Thread-safety: every public method may be called by any thread. Reads ({@link #get},
 * {@link #contains}) never block each other nor wait for writes: they take one index stripe's
 * monitor briefly and copy from the published write buffer, which is never changed once a newer
 * one is published. {@link #invalidate} touches the index alone and never does I/O. Writes
 * ({@link #put}, garbage collection's copies, rolling to a new segment, close) are serialised by
 * one write lock, which guards the active segment and its buffer; garbage collection runs one
 * pass at a time. If a write to a segment fails, the cache disables itself (every get misses) and
 * logs once.
 */
public final class SsdCache implements Closeable {
    private static final System.Logger LOG = System.getLogger(SsdCache.class.getName());
    private static final BooleanSupplier ALWAYS = () -> true;

    private final SsdCacheOptions options;
    private final FileSystem fs;
    private final Path directory;
    private final HashIndex index = new HashIndex();
    private final ConcurrentSkipListMap<Integer, CacheSegment> segments = new ConcurrentSkipListMap<>();
    private final Doorkeeper doorkeeper;
    private final long maxSegments;
    private final SegmentCollector collector;

    private final ReentrantLock writeLock = new ReentrantLock();
    // Guarded by writeLock.
    private volatile ActiveSegment active;
    private int nextSegment = 1;

    private volatile boolean closed;
    private volatile boolean failed;

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder admissionRejected = new LongAdder();
    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder corruptions = new LongAdder();

    private SsdCache(SsdCacheOptions options) {
        this.options = options;
        this.fs = options.fileSystem();
        this.directory = options.directory();
        this.doorkeeper = options.admission() == SsdAdmission.SECOND_ACCESS
                ? new Doorkeeper(options.doorkeeperWindow()) : null;
        this.maxSegments = options.capacityBytes() / options.segmentBytes();
        this.collector = new SegmentCollector(this, options, index, segments);
    }

    /** Opens the cache in {@link SsdCacheOptions#directory()}, recovering as the options say. */
    public static SsdCache open(SsdCacheOptions options) throws IOException {
        SsdCache cache = new SsdCache(options);
        try {
            cache.fs.createDirectories(cache.directory);
            cache.nextSegment = SegmentRecovery.recover(options, cache.index, cache.segments);
            cache.writeLock.lock();
            try {
                cache.startSegment();
            } finally {
                cache.writeLock.unlock();
            }
        } catch (IOException | RuntimeException e) {
            cache.collector.shutdownExecutor();
            cache.segments.values().forEach(CacheSegment::close);
            throw e;
        }
        return cache;
    }

    // ---------------------------------------------------------------- reads

    /** The value cached under {@code key}, or null. Costs at most one device read. */
    public byte[] get(byte[] key) {
        byte[] value = read(key);
        (value == null ? misses : hits).increment();
        return value;
    }

    /** As {@link #get}, without counting: for scans, which must leave no trace. */
    byte[] peek(byte[] key) {
        return read(key);
    }

    /** Whether the index holds an entry for {@code key} (or for a key with the same hash). */
    public boolean contains(byte[] key) {
        return !closed && !failed && index.get(KeyHash.of(key)) != null;
    }

    /** Counts a request for {@code key}, for {@link SsdAdmission#SECOND_ACCESS} admission. */
    public void recordAccess(byte[] key) {
        if (doorkeeper != null) {
            doorkeeper.record(KeyHash.of(key));
        }
    }

    void recordAccess(long keyHash) {
        if (doorkeeper != null) {
            doorkeeper.record(keyHash);
        }
    }

    private byte[] read(byte[] key) {
        if (closed || failed) {
            return null;
        }
        long hash = KeyHash.of(key);
        HashIndex.Location location = index.get(hash);
        if (location == null) {
            return null;
        }
        long virtualOffset = location.virtualOffset();
        int segmentNumber = VirtualOffset.segment(virtualOffset);
        long offset = VirtualOffset.offset(virtualOffset);
        int size = location.size();
        ActiveSegment.BufferView buffered = active.view();
        int at = buffered.indexOf(segmentNumber, offset, size);
        if (at >= 0) {
            byte[] bytes = buffered.bytes();
            return CacheEntryFormat.keyEquals(bytes, at, key) ? CacheEntryFormat.value(bytes, at) : null;
        }
        CacheSegment segment = segments.get(segmentNumber);
        if (segment == null) {
            return null;
        }
        byte[] entry = new byte[size];
        try {
            segment.reader.readFully(offset, ByteBuffer.wrap(entry));
        } catch (IOException e) {
            if (!closed && segments.get(segmentNumber) == segment) {
                discardCorrupt(hash, location, segment, "unreadable: " + e);
            }
            return null;
        }
        if (!CacheEntryFormat.verify(entry, 0, size)) {
            discardCorrupt(hash, location, segment, "checksum mismatch");
            return null;
        }
        return CacheEntryFormat.keyEquals(entry, 0, key) ? CacheEntryFormat.value(entry, 0) : null;
    }

    private void discardCorrupt(long hash, HashIndex.Location location, CacheSegment segment, String why) {
        corruptions.increment();
        if (index.removeIf(hash, location.virtualOffset())) {
            segment.addGarbage(location.size());
        }
        LOG.log(System.Logger.Level.WARNING, "SSD cache entry dropped ({0}): file {1} offset {2}",
                why, segment.path, VirtualOffset.offset(location.virtualOffset()));
    }

    // ---------------------------------------------------------------- writes

    /**
     * Offers {@code value} for {@code key}; returns whether it was written. Refused by the
     * admission policy, when larger than a segment, or when the cache is closed or disabled.
     */
    public boolean put(byte[] key, byte[] value) {
        return putIf(key, value, ALWAYS);
    }

    /**
     * As {@link #put}, but the entry enters the index only if {@code guard} holds at the moment it
     * is published; the guard runs under the lock that {@link #invalidate} takes for the same key,
     * so a value cannot be published after an invalidation that the guard observes.
     */
    boolean putIf(byte[] key, byte[] value, BooleanSupplier guard) {
        if (closed || failed) {
            return false;
        }
        long hash = KeyHash.of(key);
        if (doorkeeper != null && !doorkeeper.admits(hash)) {
            admissionRejected.increment();
            return false;
        }
        byte[] entry = CacheEntryFormat.encode(key, value);
        if (entry.length > options.segmentBytes() - SegmentHeader.BYTES) {
            admissionRejected.increment();
            return false;
        }
        writeLock.lock();
        try {
            if (closed || failed) {
                return false;
            }
            long virtualOffset = append(entry);
            HashIndex.Location previous = index.putIf(hash, virtualOffset, entry.length, guard);
            if (previous == HashIndex.REJECTED) {
                active.segment().addGarbage(entry.length);
                return false;
            }
            if (previous != null) {
                addGarbage(previous);
            }
            return true;
        } catch (IOException e) {
            fail(e);
            return false;
        } finally {
            writeLock.unlock();
        }
    }

    /** Removes {@code key}; its bytes become garbage. Never does I/O. */
    public void invalidate(byte[] key) {
        HashIndex.Location previous = index.remove(KeyHash.of(key));
        if (previous != null) {
            addGarbage(previous);
        }
    }

    private void addGarbage(HashIndex.Location location) {
        CacheSegment segment = segments.get(VirtualOffset.segment(location.virtualOffset()));
        if (segment != null) {
            segment.addGarbage(location.size());
            if (collector.due(segment)) {
                collector.schedule();
            }
        }
    }

    /** Appends an entry to the active segment, rolling first if it does not fit. REQUIRES: writeLock. */
    private long append(byte[] entry) throws IOException {
        while (active.end() + entry.length > options.segmentBytes()) {
            roll();
        }
        long at = active.append(entry);
        bytesWritten.add(entry.length);
        return VirtualOffset.of(active.segment().number, at);
    }

    /** Seals the active segment, makes room, and starts the next. REQUIRES: writeLock. */
    private void roll() throws IOException {
        active.seal();
        while (segments.size() >= maxSegments) {
            Map.Entry<Integer, CacheSegment> oldest = segments.firstEntry();
            if (oldest == null || oldest.getValue() == active.segment()) {
                break;
            }
            evictions.add(dropSegment(oldest.getValue()));
        }
        startSegment();
        collector.schedule();
    }

    /** REQUIRES: writeLock. */
    private void startSegment() throws IOException {
        int number = nextSegment++;
        Path path = directory.resolve(CacheSegment.fileName(number));
        WritableFile file = fs.create(path, WriteLifetime.SHORT);
        ReadableFile reader;
        try {
            file.reserve(options.segmentBytes());
            reader = fs.openRead(path);
        } catch (IOException e) {
            file.close();
            throw e;
        }
        CacheSegment segment = new CacheSegment(number, path, reader, 0, false);
        segments.put(number, segment);
        active = new ActiveSegment(segment, file, options.writeBufferBytes(),
                SegmentHeader.encode(number, options.segmentBytes()));
    }

    /**
     * Appends a live entry that garbage collection moves and points the index at the copy if it
     * still points at {@code oldOffset}; returns whether it did. Takes the write lock.
     */
    boolean copyForward(long hash, long oldOffset, byte[] entry) throws IOException {
        writeLock.lock();
        try {
            if (closed || failed) {
                throw new IOException("cache closed during garbage collection");
            }
            long newOffset;
            try {
                newOffset = append(entry);
            } catch (IOException e) {
                fail(e);
                throw e;
            }
            if (index.replaceIf(hash, oldOffset, newOffset, entry.length)) {
                return true;
            }
            active.segment().addGarbage(entry.length);
            return false;
        } finally {
            writeLock.unlock();
        }
    }

    /** Removes a segment and its index entries; returns how many entries it still held. */
    long dropSegment(CacheSegment segment) {
        if (!segments.remove(segment.number, segment)) {
            return 0;
        }
        long removed = index.removeSegment(segment.number);
        segment.close();
        try {
            fs.delete(segment.path);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete SSD cache segment {0}: {1}", segment.path, e);
        }
        return removed;
    }

    boolean isClosed() {
        return closed;
    }

    boolean isClosedOrFailed() {
        return closed || failed;
    }

    private void fail(IOException e) {
        if (!failed) {
            failed = true;
            LOG.log(System.Logger.Level.ERROR, "SSD cache disabled after a write failed in " + directory, e);
        }
    }

    /**
     * Runs one garbage-collection pass now, waiting for a running one to finish first: collects
     * every sealed segment whose garbage ratio reaches the threshold, most garbage first.
     * Returns the number of segments collected.
     */
    public int collectGarbage() {
        return collector.collectNow();
    }

    // ---------------------------------------------------------------- lifecycle

    public SsdCacheStats stats() {
        long bytes = 0;
        long garbage = 0;
        for (CacheSegment s : segments.values()) {
            bytes += s.written();
            garbage += s.garbage();
        }
        return new SsdCacheStats(hits.sum(), misses.sum(), index.size(), bytes, garbage, evictions.sum(),
                admissionRejected.sum(), bytesWritten.sum(), collector.copiedBytes.sum(),
                collector.collectedSegments.sum(),
                corruptions.sum(), segments.size(), index.memoryBytes());
    }

    /**
     * Flushes and syncs the active segment, then records the live entries so that the next
     * {@link SsdRecovery#REBUILD} open can keep them. Idempotent.
     */
    @Override
    public void close() throws IOException {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (!failed) {
                try {
                    active.flushAndSync();
                } catch (IOException e) {
                    fail(e);
                }
            }
            active.closeFile();
        } finally {
            writeLock.unlock();
        }
        try {
            collector.stop(() -> {
                if (!failed) {
                    LiveList.write(fs, directory, liveOffsets());
                }
            });
        } finally {
            segments.values().forEach(CacheSegment::close);
        }
    }

    private long[] liveOffsets() {
        long[] live = new long[(int) index.size()];
        int[] n = {0};
        index.forEachOffset(offset -> {
            if (n[0] < live.length) {
                live[n[0]++] = offset;
            }
        });
        long[] sorted = Arrays.copyOf(live, n[0]);
        Arrays.sort(sorted);
        return sorted;
    }
}
