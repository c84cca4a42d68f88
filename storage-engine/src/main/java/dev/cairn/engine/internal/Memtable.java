package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sorted, concurrent in-memory table of internal keys. One thread (the write thread) inserts;
 * any number of threads read at once. Entries newer than a reader's sequence are skipped by the
 * reader, so inserts need no coordination with reads.
 */
final class Memtable {
    /** Per-entry overhead of the skip list, counted so the bound reflects real memory. */
    private static final int ENTRY_OVERHEAD = 64;

    private final ConcurrentSkipListMap<byte[], byte[]> entries = new ConcurrentSkipListMap<>(InternalKeys.COMPARATOR);
    private final AtomicLong bytes = new AtomicLong();
    private final long logNumber;

    Memtable(long logNumber) {
        this.logNumber = logNumber;
    }

    /** The commit log segment that holds this memtable's writes (and only later ones). */
    long logNumber() {
        return logNumber;
    }

    void add(byte[] internalKey, byte[] value) {
        entries.put(internalKey, value);
        bytes.addAndGet(internalKey.length + value.length + ENTRY_OVERHEAD);
    }

    long approximateBytes() {
        return bytes.get();
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The newest entry for the user key of {@code seekKey} at or below its sequence, or null. */
    Map.Entry<byte[], byte[]> find(byte[] seekKey) {
        Map.Entry<byte[], byte[]> e = entries.ceilingEntry(seekKey);
        if (e != null && InternalKeys.sameUserKey(e.getKey(), seekKey)) {
            return e;
        }
        return null;
    }

    Iterator<Map.Entry<byte[], byte[]>> iterator() {
        return entries.entrySet().iterator();
    }

    ConcurrentNavigableMap<byte[], byte[]> map() {
        return entries;
    }
}
