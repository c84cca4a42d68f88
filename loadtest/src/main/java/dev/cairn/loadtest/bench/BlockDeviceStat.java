package dev.cairn.loadtest.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The counters of the block device under a path, from {@code /sys/dev/block/MAJOR:MINOR/stat}:
 * reads completed, sectors read and sectors written (512 bytes each, whatever the device's sector
 * size). They count the whole device, every process on the machine included, so on a shared
 * machine they bound this process's reads and writes from above.
 *
 * @param reads          read requests completed (merged requests count once)
 * @param sectorsRead    512-byte sectors read
 * @param sectorsWritten 512-byte sectors written
 *
 * <p>Thread-safety: immutable.
 */
public record BlockDeviceStat(long reads, long sectorsRead, long sectorsWritten) {

    public long bytesRead() {
        return sectorsRead * 512;
    }

    public long bytesWritten() {
        return sectorsWritten * 512;
    }

    public BlockDeviceStat minus(BlockDeviceStat earlier) {
        return new BlockDeviceStat(reads - earlier.reads, sectorsRead - earlier.sectorsRead,
                sectorsWritten - earlier.sectorsWritten);
    }

    /** Parses the one line of a block device's {@code stat} file. */
    public static BlockDeviceStat parse(String line) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length < 7) {
            throw new IllegalArgumentException("not a block device stat line: '" + line + "'");
        }
        return new BlockDeviceStat(Long.parseLong(fields[0]), Long.parseLong(fields[2]), Long.parseLong(fields[6]));
    }

    /** The stat file of the device holding {@code path}, or empty where there is none (not Linux, no sysfs). */
    public static Optional<Path> statFileOf(Path path) {
        try {
            Object dev = Files.getAttribute(path, "unix:dev");
            if (!(dev instanceof Long number)) {
                return Optional.empty();
            }
            Path stat = Path.of("/sys/dev/block/" + major(number) + ":" + minor(number) + "/stat");
            return Files.isReadable(stat) ? Optional.of(stat) : Optional.empty();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Reads a stat file found by {@link #statFileOf}; empty if it cannot be read. */
    public static Optional<BlockDeviceStat> read(Optional<Path> statFile) {
        if (statFile.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(Files.readString(statFile.get())));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** glibc's {@code gnu_dev_major}. */
    static long major(long dev) {
        return ((dev & 0xfff00L) >>> 8) | ((dev & 0xfffff00000000000L) >>> 32);
    }

    /** glibc's {@code gnu_dev_minor}. */
    static long minor(long dev) {
        return (dev & 0xffL) | ((dev & 0xffffff00000L) >>> 12);
    }
}
