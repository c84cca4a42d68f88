package dev.cairn.engine.cache;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.util.Checksums;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The list of live virtual offsets written by a clean close of the {@link SsdCache}, and only
 * then: its presence proves that every invalidation up to the close is reflected in it. Layout,
 * little-endian: magic "CAIRNSLV" (8), version u32 (1), reserved u32 (0), count u64, count × u64
 * ascending virtual offsets, crc32c u32 of all preceding bytes.
 */
final class LiveList {
    static final String NAME = "LIVE";
    private static final String TEMP_NAME = "LIVE.tmp";
    /** DO NOT CHANGE: embedded in on-disk data. */
    private static final byte[] MAGIC = "CAIRNSLV".getBytes(StandardCharsets.US_ASCII);
    /** DO NOT CHANGE: embedded in on-disk data. */
    private static final int VERSION = 1;
    private static final int FIXED_BYTES = 8 + 4 + 4 + 8;

    private LiveList() {
    }

    static void write(FileSystem fs, Path directory, long[] sortedOffsets) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(FIXED_BYTES + 8 * sortedOffsets.length + 4).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(VERSION).putInt(0).putLong(sortedOffsets.length);
        for (long offset : sortedOffsets) {
            b.putLong(offset);
        }
        b.putInt(Checksums.crc32c(b.array(), 0, b.position()));
        b.flip();
        Path temp = directory.resolve(TEMP_NAME);
        try (WritableFile file = fs.create(temp, WriteLifetime.SHORT)) {
            file.append(b);
            file.sync();
        }
        fs.rename(temp, directory.resolve(NAME));
        fs.syncDirectory(directory);
    }

    /** The offsets, or null when the list is missing, torn or corrupt. */
    static long[] read(FileSystem fs, Path directory) throws IOException {
        Path path = directory.resolve(NAME);
        if (!fs.exists(path)) {
            return null;
        }
        byte[] bytes;
        try (ReadableFile file = fs.openRead(path)) {
            long size = file.size();
            if (size < FIXED_BYTES + 4 || size > Integer.MAX_VALUE) {
                return null;
            }
            bytes = file.readFully(0, (int) size);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long count = b.getLong(16);
        if (!Arrays.equals(bytes, 0, 8, MAGIC, 0, 8) || b.getInt(8) != VERSION
                || count < 0 || FIXED_BYTES + 8 * count + 4 != bytes.length
                || b.getInt(bytes.length - 4) != Checksums.crc32c(bytes, 0, bytes.length - 4)) {
            return null;
        }
        long[] offsets = new long[(int) count];
        b.position(FIXED_BYTES);
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = b.getLong();
        }
        for (int i = 1; i < offsets.length; i++) {
            if (offsets[i - 1] >= offsets[i]) {
                return null;
            }
        }
        return offsets;
    }

    static void delete(FileSystem fs, Path directory) throws IOException {
        fs.delete(directory.resolve(NAME));
        fs.delete(directory.resolve(TEMP_NAME));
    }
}
