package dev.cairn.engine.fs;

/**
 * The speed of a simulated storage device: an access time paid by each read that does not
 * continue the previous one (seek plus rotational latency on a disk, command latency on an SSD),
 * a read bandwidth, the number of requests it serves at once, and optionally a write bandwidth.
 * Immutable; thread-safe.
 *
 * @param accessNanos         time before the first byte of a non-sequential read
 * @param readBytesPerSecond  transfer rate of reads, {@code > 0}
 * @param queueDepth          requests served at once, {@code >= 1}; more wait their turn in order
 * @param writeBytesPerSecond transfer rate of appends, or {@code 0}: appends are not slowed
 */
public record DeviceProfile(String name, long accessNanos, long readBytesPerSecond, int queueDepth,
        long writeBytesPerSecond) {

    /**
     * A 7200 rpm disk: about 4 ms average seek plus 4.2 ms half-rotation, about 150 MB/s
     * sequential, one head, so one request at a time.
     */
    public static final DeviceProfile HDD_7200 = new DeviceProfile("hdd-7200", 8_000_000, 150_000_000, 1, 0);

    /**
     * A data-centre SSD as measured on the machines Cairn is developed on: 4 KiB random reads
     * at about 13k IOPS at queue depth 1 (about 80 µs each), about 1 GB/s sequential, queue
     * depth 32.
     */
    public static final DeviceProfile SSD = new DeviceProfile("ssd", 80_000, 1_000_000_000, 32, 0);

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    public DeviceProfile {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a device profile needs a name");
        }
        if (accessNanos < 0) {
            throw new IllegalArgumentException(name + ": accessNanos must be >= 0: " + accessNanos);
        }
        if (readBytesPerSecond <= 0) {
            throw new IllegalArgumentException(name + ": readBytesPerSecond must be > 0: " + readBytesPerSecond);
        }
        if (queueDepth < 1) {
            throw new IllegalArgumentException(name + ": queueDepth must be >= 1: " + queueDepth);
        }
        if (writeBytesPerSecond < 0) {
            throw new IllegalArgumentException(name + ": writeBytesPerSecond must be >= 0: " + writeBytesPerSecond);
        }
    }

    /** This profile with appends slowed to {@code bytesPerSecond} ({@code 0}: not slowed). */
    public DeviceProfile withWriteBandwidth(long bytesPerSecond) {
        return new DeviceProfile(name, accessNanos, readBytesPerSecond, queueDepth, bytesPerSecond);
    }

    /** How long reading {@code bytes} takes. */
    public long readNanos(long bytes, boolean sequential) {
        return (sequential ? 0 : accessNanos) + transferNanos(bytes, readBytesPerSecond);
    }

    /** How long appending {@code bytes} takes; {@code 0} if writes are not slowed. */
    public long writeNanos(long bytes) {
        return writeBytesPerSecond == 0 ? 0 : transferNanos(bytes, writeBytesPerSecond);
    }

    private static long transferNanos(long bytes, long bytesPerSecond) {
        return Math.multiplyExact(bytes, NANOS_PER_SECOND) / bytesPerSecond;
    }
}
