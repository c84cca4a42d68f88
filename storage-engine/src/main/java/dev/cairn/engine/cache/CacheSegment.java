package dev.cairn.engine.cache;

import dev.cairn.engine.fs.ReadableFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One segment file of the {@link SsdCache}: its reader, how many bytes it holds and how many of
 * them are garbage (entries invalidated, replaced, or refused by a guard).
 *
 * <p>Thread-safe: {@code written} is set by the cache's single writer and read by anyone.
 */
final class CacheSegment {
    final int number;
    final Path path;
    final ReadableFile reader;
    private final AtomicLong garbage = new AtomicLong();
    private volatile long written;
    private volatile boolean sealed;

    CacheSegment(int number, Path path, ReadableFile reader, long written, boolean sealed) {
        this.number = number;
        this.path = path;
        this.reader = reader;
        this.written = written;
        this.sealed = sealed;
    }

    static String fileName(int number) {
        return String.format("%06d.seg", number);
    }

    /** The segment number named by {@code fileName}, or -1 if it is not a segment file. */
    static int parseNumber(String fileName) {
        if (!fileName.endsWith(".seg") || fileName.length() < 10) {
            return -1;
        }
        try {
            long n = Long.parseLong(fileName.substring(0, fileName.length() - 4));
            return n > 0 && n <= Integer.MAX_VALUE ? (int) n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    long written() {
        return written;
    }

    void setWritten(long bytes) {
        written = bytes;
    }

    boolean sealed() {
        return sealed;
    }

    void seal() {
        sealed = true;
    }

    long garbage() {
        return garbage.get();
    }

    void addGarbage(long bytes) {
        garbage.addAndGet(bytes);
    }

    /** Share of the segment's entry bytes that are garbage, 0..1. */
    double garbageRatio() {
        long entries = written - SegmentHeader.BYTES;
        return entries <= 0 ? 0 : Math.min(1.0, (double) garbage.get() / entries);
    }

    void close() {
        try {
            reader.close();
        } catch (IOException ignored) {
            // A reader that cannot close leaks a handle at worst; nothing depends on it.
        }
    }
}
