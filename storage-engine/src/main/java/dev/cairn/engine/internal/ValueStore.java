package dev.cairn.engine.internal;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.vlog.ValueFileReader;
import dev.cairn.engine.vlog.ValueFileWriter;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The engine's value files: one active file taking appends from the write thread, sealed files
 * read by any thread, and the garbage known in each.
 *
 * <p>Thread-safety: {@link #append}, {@link #flush}, {@link #sync} and {@link #rotate} are called
 * by the write thread only; {@link #read} by any thread; garbage and file-set changes are
 * published under this object's monitor.
 */
final class ValueStore implements AutoCloseable {
    private final FileSystem fs;
    private final Path dir;
    private final long fileBytesLimit;
    private final LongSupplier fileNumbers;
    private final ConcurrentHashMap<Long, ValueFileReader> readers = new ConcurrentHashMap<>();
    /** Live files: number to [size, garbage]. The active file's size is its writer's. */
    private final TreeMap<Long, long[]> files = new TreeMap<>();
    private ValueFileWriter active;
    private long activeNumber = -1;
    private boolean dirty;

    ValueStore(FileSystem fs, Path dir, long fileBytesLimit, LongSupplier fileNumbers) {
        this.fs = fs;
        this.dir = dir;
        this.fileBytesLimit = fileBytesLimit;
        this.fileNumbers = fileNumbers;
    }

    /** Registers a sealed file found at open with its garbage from the manifest. */
    synchronized void addSealed(long number, long garbage) throws IOException {
        files.put(number, new long[] {fs.size(FileNames.value(dir, number)), garbage});
    }

    /**
     * Whether the next append needs a new active file, which the caller must first record in the
     * manifest (so that a crash never leaves an unknown file holding acknowledged values).
     */
    boolean needsNewFile() {
        return active == null || active.size() >= fileBytesLimit;
    }

    /** Number the next active file will take; the caller records it in the manifest, then calls {@link #rotate}. */
    long reserveNumber() {
        return fileNumbers.getAsLong();
    }

    /** Seals the active file (synced) and starts {@code number}. Write thread only. */
    void rotate(long number) throws IOException {
        sealActive();
        active = ValueFileWriter.create(fs, dir, number, WriteLifetime.LONG);
        activeNumber = number;
        synchronized (this) {
            files.put(number, new long[] {0, 0});
        }
    }

    private void sealActive() throws IOException {
        if (active != null) {
            active.sync();
            long size = active.size();
            active.close();
            synchronized (this) {
                long[] meta = files.get(activeNumber);
                if (meta != null) {
                    meta[0] = size;
                }
            }
            active = null;
            activeNumber = -1;
        }
    }

    /** Appends a value; readable after {@link #flush}. Write thread only. */
    ValuePointer append(byte[] key, byte[] value) throws IOException {
        dirty = true;
        return active.append(key, value);
    }

    void flush() throws IOException {
        if (active != null && dirty) {
            active.flush();
        }
    }

    /** Makes appended values durable; a no-op when nothing was appended since the last sync. */
    void sync() throws IOException {
        if (active != null && dirty) {
            active.sync();
            dirty = false;
        }
    }

    boolean hasUnsynced() {
        return active != null && dirty;
    }

    long activeNumber() {
        return activeNumber;
    }

    byte[] read(ValuePointer pointer) throws IOException {
        return reader(pointer.fileNumber()).read(pointer);
    }

    /**
     * A reader of value file {@code number} of its own, around the page cache, for one
     * traversal; the caller closes it, and keeps the file from going meanwhile (a pinned version).
     */
    ValueFileReader openAroundPageCache(long number) throws IOException {
        return ValueFileReader.openAroundPageCache(fs, FileNames.value(dir, number), number);
    }

    /** Where value file {@code number} lies, for messages. */
    Path path(long number) {
        return FileNames.value(dir, number);
    }

    /** The reader of value file {@code number}, opened on first use and kept until the file goes. */
    ValueFileReader reader(long number) throws IOException {
        ValueFileReader reader = readers.get(number);
        if (reader == null) {
            try {
                reader = readers.computeIfAbsent(number, n -> {
                    try {
                        return ValueFileReader.open(fs, FileNames.value(dir, n), n);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause();
            }
        }
        return reader;
    }

    /** Adds garbage found by a flush or compaction (files already removed are ignored). */
    synchronized void addGarbage(Map<Long, Long> garbageByFile) {
        for (Map.Entry<Long, Long> e : garbageByFile.entrySet()) {
            long[] meta = files.get(e.getKey());
            if (meta != null) {
                meta[1] += e.getValue();
            }
        }
    }

    /** Live file numbers with their garbage, as the manifest records them. */
    synchronized Map<Long, Long> garbageByFile() {
        Map<Long, Long> out = new TreeMap<>();
        for (Map.Entry<Long, long[]> e : files.entrySet()) {
            out.put(e.getKey(), e.getValue()[1]);
        }
        return out;
    }

    /** Sealed files whose garbage ratio is at least {@code ratio}, most garbage first. */
    synchronized List<Long> gcCandidates(double ratio) {
        List<long[]> found = new ArrayList<>();
        for (Map.Entry<Long, long[]> e : files.entrySet()) {
            long number = e.getKey();
            long[] meta = e.getValue();
            if (number == activeNumber || meta[0] <= 0) {
                continue;
            }
            if ((double) meta[1] / meta[0] >= ratio) {
                found.add(new long[] {number, meta[1]});
            }
        }
        found.sort((a, b) -> Long.compare(b[1], a[1]));
        List<Long> out = new ArrayList<>();
        for (long[] f : found) {
            out.add(f[0]);
        }
        return out;
    }

    /** Whether value file {@code number} is still one of the engine's (value GC has not dropped it). */
    synchronized boolean contains(long number) {
        return files.containsKey(number);
    }

    /**
     * Where the next value will be appended, as (file number, offset): every value appended so
     * far lies before it. With no active file, {@code nextFileNumber} (no higher than the number
     * the next file will take) at offset 0. Write thread only.
     */
    long[] appendPosition(long nextFileNumber) {
        return active != null ? new long[] {activeNumber, active.size()} : new long[] {nextFileNumber, 0};
    }

    /** Forgets a file (its values were relocated); the caller deletes it once no reader needs it. */
    synchronized void remove(long number) {
        files.remove(number);
    }

    /** Closes the reader of a deleted file and deletes it. */
    void deleteFile(long number) throws IOException {
        ValueFileReader reader = readers.remove(number);
        if (reader != null) {
            reader.close();
        }
        fs.delete(FileNames.value(dir, number));
    }

    synchronized int fileCount() {
        return files.size();
    }

    synchronized long totalBytes() {
        long total = 0;
        for (Map.Entry<Long, long[]> e : files.entrySet()) {
            total += e.getKey() == activeNumber && active != null ? active.size() : e.getValue()[0];
        }
        return total;
    }

    synchronized long garbageBytes() {
        long total = 0;
        for (long[] meta : files.values()) {
            total += meta[1];
        }
        return total;
    }

    /** Seals the active file so checkpoints can link every value file as immutable. Write thread only. */
    void sealForCheckpoint() throws IOException {
        sealActive();
    }

    @Override
    public void close() throws IOException {
        sealActive();
        for (ValueFileReader r : readers.values()) {
            r.close();
        }
        readers.clear();
    }
}
