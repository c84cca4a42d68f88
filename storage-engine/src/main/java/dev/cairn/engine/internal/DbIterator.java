package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.NoSuchElementException;

/**
 * The user-visible view of a merged internal iterator: one table, one key range, the newest
 * version of each key visible at the read sequence, deletions hidden, value pointers resolved.
 * Holds its {@link SuperVersion} until closed.
 */
final class DbIterator implements EntryIterator {
    interface ValueResolver {
        byte[] resolve(byte kind, byte[] value) throws IOException;
    }

    private final InternalIterator merged;
    private final int tableId;
    private final byte[] endFilterKey;
    private final long sequence;
    private final ValueResolver resolver;
    private final Runnable release;
    private Entry next;
    private byte nextKind;
    private boolean closed;

    DbIterator(InternalIterator merged, int tableId, KeyRange range, long sequence, ValueResolver resolver,
               Runnable release) {
        this.merged = merged;
        this.tableId = tableId;
        this.sequence = sequence;
        this.resolver = resolver;
        this.release = release;
        this.endFilterKey = range.end() == null ? null : filterKey(tableId, range.end());
        try {
            byte[] start = range.start() == null ? new byte[0] : range.start();
            merged.seek(InternalKeys.seekKey(tableId, start, InternalKeys.MAX_SEQUENCE));
            advance();
        } catch (IOException e) {
            close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static byte[] filterKey(int tableId, byte[] userKey) {
        byte[] k = new byte[2 + userKey.length];
        k[0] = (byte) (tableId >>> 8);
        k[1] = (byte) tableId;
        System.arraycopy(userKey, 0, k, 2, userKey.length);
        return k;
    }

    private void advance() throws IOException {
        next = null;
        while (merged.valid()) {
            byte[] key = merged.key();
            if (InternalKeys.tableId(key) != tableId) {
                return;
            }
            if (endFilterKey != null && java.util.Arrays.compareUnsigned(key, 0,
                    key.length - InternalKeys.TRAILER_BYTES, endFilterKey, 0, endFilterKey.length) >= 0) {
                return;
            }
            if (InternalKeys.sequence(key) > sequence) {
                merged.next();
                continue;
            }
            byte kind = InternalKeys.kind(key);
            byte[] value = merged.value();
            // Skip older versions of this key.
            byte[] current = key;
            merged.next();
            while (merged.valid() && InternalKeys.sameUserKey(merged.key(), current)) {
                merged.next();
            }
            if (kind != InternalKeys.KIND_DELETE) {
                nextKind = kind;
                next = new Entry(InternalKeys.userKey(current), resolver.resolve(kind, value));
                return;
            }
        }
    }

    @Override
    public boolean hasNext() {
        return next != null;
    }

    /** The stored kind of the entry {@link #next()} returns (a value or a value pointer). REQUIRES: {@link #hasNext()}. */
    byte nextKind() {
        return nextKind;
    }

    @Override
    public Entry next() {
        if (next == null) {
            throw new NoSuchElementException();
        }
        Entry out = next;
        try {
            advance();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            merged.close();
            release.run();
        }
    }
}
