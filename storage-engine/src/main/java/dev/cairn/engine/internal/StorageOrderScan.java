package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.StorageOrder;
import dev.cairn.engine.util.Checksums;
import dev.cairn.engine.vlog.ValueFileReader;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The value-file half of {@link dev.cairn.engine.Table#scanInStorageOrder}: gathers value pointers,
 * then, per batch, sorts them by file and offset and reads each file in spans of neighbouring
 * values, one positional read per span. A span grows while the next value starts at most
 * {@link #MAX_GAP} bytes after the span's end (the record headers and keys between values of a
 * dense file, or short runs of values not wanted) and the span stays within {@link #SPAN_BYTES};
 * a value longer than that is one span alone. Each value is checked against its pointer's CRC32C
 * before the visitor sees it.
 *
 * <p>Not thread-safe: one scan, one thread.
 */
final class StorageOrderScan {
    /** Bytes between wanted values read past rather than skipped by a read of their own. */
    static final int MAX_GAP = 64 << 10;
    /** The longest read of several values. */
    static final int SPAN_BYTES = 2 << 20;

    private record Pending(byte[] key, ValuePointer pointer) {
    }

    private static final Comparator<Pending> BY_LOCATION = Comparator
            .comparingLong((Pending p) -> p.pointer.fileNumber())
            .thenComparingLong(p -> p.pointer.offset());

    private final ValueStore values;
    private final StorageOrder.Visitor visitor;
    private final int batchEntries;
    private final List<Pending> pending = new ArrayList<>();
    private byte[] buffer = new byte[SPAN_BYTES];

    StorageOrderScan(ValueStore values, StorageOrder.Visitor visitor, int batchEntries) {
        if (batchEntries < 1) {
            throw new IllegalArgumentException("a batch holds at least one entry");
        }
        this.values = values;
        this.visitor = visitor;
        this.batchEntries = batchEntries;
    }

    /** Gathers a wanted value; reads and visits the batch once it is full. */
    void add(byte[] key, ValuePointer pointer) throws IOException {
        pending.add(new Pending(key, pointer));
        if (pending.size() >= batchEntries) {
            readBatch();
        }
    }

    /** Reads and visits what is gathered. */
    void finish() throws IOException {
        readBatch();
    }

    private void readBatch() throws IOException {
        pending.sort(BY_LOCATION);
        int i = 0;
        while (i < pending.size()) {
            ValuePointer first = pending.get(i).pointer;
            long start = first.offset();
            long end = start + first.length();
            int j = i + 1;
            while (j < pending.size()) {
                ValuePointer p = pending.get(j).pointer;
                long newEnd = Math.max(end, p.offset() + p.length());
                if (p.fileNumber() != first.fileNumber() || p.offset() - end > MAX_GAP || newEnd - start > SPAN_BYTES) {
                    break;
                }
                end = newEnd;
                j++;
            }
            readSpan(first.fileNumber(), start, (int) (end - start), i, j);
            i = j;
        }
        pending.clear();
    }

    private void readSpan(long fileNumber, long start, int length, int from, int to) throws IOException {
        if (buffer.length < length) {
            buffer = new byte[length];
        }
        ValueFileReader reader = values.reader(fileNumber);
        reader.readSpan(start, buffer, length);
        for (int k = from; k < to; k++) {
            Pending p = pending.get(k);
            int at = (int) (p.pointer.offset() - start);
            int n = p.pointer.length();
            if (Checksums.crc32c(buffer, at, n) != p.pointer.crc32c()) {
                throw new CorruptionException("value file " + reader.path() + ": checksum mismatch for the value at offset "
                        + p.pointer.offset() + " of length " + n);
            }
            visitor.visit(p.key, buffer, at, n);
        }
        if (buffer.length > SPAN_BYTES) {
            buffer = new byte[SPAN_BYTES]; // a single long value; do not keep its buffer
        }
    }
}
