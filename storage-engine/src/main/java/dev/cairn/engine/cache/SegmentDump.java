package dev.cairn.engine.cache;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Prints an SSD cache segment (docs/format/ssd-cache-segment.md) for people: the header, one
 * line per intact entry, and where and why the scan stopped. Thread-safe: stateless.
 */
public final class SegmentDump {
    private static final int KEY_PREVIEW_BYTES = 48;

    private SegmentDump() {
    }

    /** Dumps the segment file at {@code path}; its number is taken from its name. */
    public static void dump(FileSystem fs, Path path, PrintStream out) throws IOException {
        int number = CacheSegment.parseNumber(path.getFileName().toString());
        try (ReadableFile file = fs.openRead(path)) {
            long size = file.size();
            out.printf("segment %s: %d bytes%n", path, size);
            byte[] header = size >= SegmentHeader.BYTES ? file.readFully(0, SegmentHeader.BYTES) : new byte[0];
            if (!SegmentHeader.isValid(header, number)) {
                out.println("  header: invalid (a segment with this header is deleted on open)");
                return;
            }
            ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
            out.printf("  header: version %d, segment %d, target %d bytes%n", h.getInt(8), h.getInt(12), h.getLong(16));
            long[] counts = new long[2];
            long end = SegmentScanner.scan(file, size, (offset, bytes, at, entrySize) -> {
                counts[0]++;
                counts[1] += entrySize;
                out.printf("  @%d  %d bytes  key %s  value %d bytes%n", offset, entrySize,
                        preview(CacheEntryFormat.key(bytes, at)), CacheEntryFormat.valueLength(bytes, at));
            });
            out.printf("  %d intact entries, %d bytes%n", counts[0], counts[1]);
            if (end < size) {
                out.printf("  scan stopped at offset %d: %d bytes torn or corrupt%n", end, size - end);
            }
        }
    }

    private static String preview(byte[] key) {
        StringBuilder s = new StringBuilder("\"");
        for (int i = 0; i < Math.min(key.length, KEY_PREVIEW_BYTES); i++) {
            int b = key[i] & 0xFF;
            if (b >= 0x20 && b < 0x7F && b != '"' && b != '\\') {
                s.append((char) b);
            } else {
                s.append(String.format("\\x%02x", b));
            }
        }
        return s.append(key.length > KEY_PREVIEW_BYTES ? "\"…" : "\"").toString();
    }
}
