package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.StorageOrder;
import dev.cairn.engine.util.Checksums;
import dev.cairn.engine.vlog.ValueFileReader;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The value-file half of {@link dev.cairn.engine.Table#scanInStorageOrder}: gathers value pointers,
 * then, per batch, sorts them by file and offset and reads each file in spans of neighbouring
 * values, one positional read per span. A span grows while the next value starts at most
 * {@link #MAX_GAP} bytes after the span's end (the record headers and keys between values of a
 * dense file, or short runs of values not wanted) and the span stays within {@link #SPAN_BYTES}
 * ({@link #SPAN_BYTES_AROUND_PAGE_CACHE} around the page cache);
 * a value longer than that is one span alone. Each value is checked against its pointer's CRC32C
 * before the visitor sees it. A span goes into the visitor's buffer when it supplies one
 * ({@link StorageOrder.Visitor#spanBuffer}). Around the page cache, a batch's spans are read
 * ahead on a thread of the scan's own ({@link SpanReadAhead}), through readers of its own
 * ({@link ValueStore#openAroundPageCache}), one file open at a time, the last closed by
 * {@link #close}.
 *
 * <p>Not thread-safe: one scan, one thread.
 */
final class StorageOrderScan implements AutoCloseable {
    /** Bytes between wanted values read past rather than skipped by a read of their own. */
    static final int MAX_GAP = 64 << 10;
    /** The longest read of several values. */
    static final int SPAN_BYTES = 2 << 20;
    /**
     * The longest read of several values around the page cache, where no read-ahead hides a
     * request's latency: as long as a device read of {@code DirectReadableFile} can be, less room
     * for its alignment.
     */
    static final int SPAN_BYTES_AROUND_PAGE_CACHE = (4 << 20) - (64 << 10);

    /**
     * The system property that makes a scan around the page cache read ahead ({@link SpanReadAhead}),
     * read when a scan starts; default false: each span is read on the scanning thread, one read
     * at a time. Read-ahead did not measure faster on a loaded 2-core machine; it waits for a
     * quiet machine's figures before it becomes the default.
     */
    public static final String READ_AHEAD_PROPERTY = "cairn.engine.storageOrderReadAhead";

    private final ValueStore values;
    private final StorageOrder.Visitor visitor;
    private final int batchEntries;
    /** Around the page cache: reads the next spans while the visitor takes the current one. */
    private final SpanReadAhead ahead;
    /** The batch's indexes in location order, while its spans are read. */
    private int[] order;
    private final boolean aroundPageCache;
    /** Around the page cache without read-ahead: the reader of the file being read, the scan's own. */
    private ValueFileReader ownReader;
    private final List<byte[]> keys = new ArrayList<>();
    private final List<ValuePointer> pointers = new ArrayList<>();
    private final int spanBytes;
    private byte[] buffer;

    StorageOrderScan(ValueStore values, StorageOrder.Visitor visitor, int batchEntries) {
        this(values, visitor, batchEntries, false);
    }

    StorageOrderScan(ValueStore values, StorageOrder.Visitor visitor, int batchEntries, boolean aroundPageCache) {
        if (batchEntries < 1) {
            throw new IllegalArgumentException("a batch holds at least one entry");
        }
        this.values = values;
        this.visitor = visitor;
        this.batchEntries = batchEntries;
        this.spanBytes = aroundPageCache ? SPAN_BYTES_AROUND_PAGE_CACHE : SPAN_BYTES;
        this.buffer = new byte[spanBytes];
        this.aroundPageCache = aroundPageCache;
        this.ahead = aroundPageCache && Boolean.getBoolean(READ_AHEAD_PROPERTY) ? new SpanReadAhead(values, spanBytes) : null;
    }

    /** A run of neighbouring values read at once: the batch's entries {@code from} to {@code to} in location order. */
    record Span(long fileNumber, long start, int length, int from, int to) {
    }

    /** Gathers a wanted value; reads and visits the batch once it is full. */
    void add(byte[] key, ValuePointer pointer) throws IOException {
        keys.add(key);
        pointers.add(pointer);
        if (keys.size() >= batchEntries) {
            readBatch();
        }
    }

    /** Reads and visits what is gathered. */
    void finish() throws IOException {
        readBatch();
    }

    private void readBatch() throws IOException {
        order = locationOrder();
        List<Span> spans = new ArrayList<>();
        int i = 0;
        while (i < order.length) {
            ValuePointer first = pointers.get(order[i]);
            long start = first.offset();
            long end = start + first.length();
            int j = i + 1;
            while (j < order.length) {
                ValuePointer p = pointers.get(order[j]);
                long newEnd = Math.max(end, p.offset() + p.length());
                if (p.fileNumber() != first.fileNumber() || p.offset() - end > MAX_GAP || newEnd - start > spanBytes) {
                    break;
                }
                end = newEnd;
                j++;
            }
            spans.add(new Span(first.fileNumber(), start, (int) (end - start), i, j));
            i = j;
        }
        if (ahead != null) {
            ahead.readAll(spans, this::spanBuffer, this::visitSpan);
        } else {
            for (Span span : spans) {
                byte[] supplied = spanBuffer(span);
                byte[] bytes = supplied != null ? supplied : ownBuffer(span.length());
                reader(span.fileNumber()).readSpan(span.start(), bytes, span.length());
                visitSpan(span, bytes, supplied != null);
            }
        }
        keys.clear();
        pointers.clear();
        this.order = null;
    }

    /**
     * The indexes of the gathered pointers by file, then offset: a sort of primitive keys (file
     * rank and offset in the high bits, the index in the low ones), which costs a fraction of a
     * comparator sort of objects, in time and in what the JIT compiles for a short job.
     */
    private int[] locationOrder() {
        int n = pointers.size();
        long[] files = new long[n];
        for (int k = 0; k < n; k++) {
            files[k] = pointers.get(k).fileNumber();
        }
        long[] distinct = distinctSorted(files);
        int indexBits = 64 - Long.numberOfLeadingZeros(Math.max(1, n - 1));
        int rankBits = 64 - Long.numberOfLeadingZeros(Math.max(1, distinct.length - 1));
        long maxOffset = 0;
        for (ValuePointer p : pointers) {
            maxOffset = Math.max(maxOffset, p.offset());
        }
        int offsetBits = 64 - Long.numberOfLeadingZeros(Math.max(1, maxOffset));
        int[] order = new int[n];
        if (indexBits + rankBits + offsetBits > 63) {
            Integer[] boxed = new Integer[n];
            for (int k = 0; k < n; k++) {
                boxed[k] = k;
            }
            Arrays.sort(boxed, (a, b) -> {
                ValuePointer pa = pointers.get(a);
                ValuePointer pb = pointers.get(b);
                int c = Long.compare(pa.fileNumber(), pb.fileNumber());
                return c != 0 ? c : Long.compare(pa.offset(), pb.offset());
            });
            for (int k = 0; k < n; k++) {
                order[k] = boxed[k];
            }
            return order;
        }
        long[] sortKeys = new long[n];
        for (int k = 0; k < n; k++) {
            long rank = Arrays.binarySearch(distinct, files[k]);
            sortKeys[k] = (rank << (offsetBits + indexBits)) | (pointers.get(k).offset() << indexBits) | k;
        }
        Arrays.sort(sortKeys);
        long indexMask = (1L << indexBits) - 1;
        for (int k = 0; k < n; k++) {
            order[k] = (int) (sortKeys[k] & indexMask);
        }
        return order;
    }

    private static long[] distinctSorted(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (int k = 0; k < sorted.length; k++) {
            if (k == 0 || sorted[k] != sorted[n - 1]) {
                sorted[n++] = sorted[k];
            }
        }
        return Arrays.copyOf(sorted, n);
    }

    /** The visitor's buffer for {@code span}, or null for the scan's own. */
    private byte[] spanBuffer(Span span) throws IOException {
        byte[] supplied = visitor.spanBuffer(span.length());
        if (supplied != null && supplied.length < span.length()) {
            throw new IllegalStateException("a span buffer of " + supplied.length + " bytes for a span of " + span.length());
        }
        return supplied;
    }

    private byte[] ownBuffer(int length) {
        if (buffer.length < length) {
            return new byte[length]; // a single long value; not kept
        }
        return buffer;
    }

    /** Checks and visits the values of {@code span}, read into {@code bytes}. */
    private void visitSpan(Span span, byte[] bytes, boolean supplied) throws IOException {
        for (int k = span.from(); k < span.to(); k++) {
            ValuePointer p = pointers.get(order[k]);
            int at = (int) (p.offset() - span.start());
            int n = p.length();
            if (Checksums.crc32c(bytes, at, n) != p.crc32c()) {
                throw new CorruptionException("value file " + values.path(span.fileNumber())
                        + ": checksum mismatch for the value at offset " + p.offset() + " of length " + n);
            }
            visitor.visit(keys.get(order[k]), bytes, at, n);
        }
        if (supplied) {
            visitor.spanVisited();
        }
    }

    private ValueFileReader reader(long fileNumber) throws IOException {
        if (!aroundPageCache) {
            return values.reader(fileNumber);
        }
        if (ownReader == null || ownReader.fileNumber() != fileNumber) {
            closeOwnReader();
            ownReader = values.openAroundPageCache(fileNumber);
        }
        return ownReader;
    }

    private void closeOwnReader() throws IOException {
        ValueFileReader r = ownReader;
        ownReader = null;
        if (r != null) {
            r.close();
        }
    }

    /** Ends the reads ahead and closes the scan's own readers, if any. */
    @Override
    public void close() throws IOException {
        try {
            if (ahead != null) {
                ahead.close();
            }
        } finally {
            closeOwnReader();
        }
    }
}
