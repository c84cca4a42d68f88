package dev.cairn.store.cassandra;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Identifies one write of a row: the Cassandra write timestamp (microseconds since the epoch)
 * it is written with, then 8 random bytes. Compared as unsigned bytes, write ids order as
 * Cassandra reconciles the cells they are written into: by timestamp, and for equal timestamps
 * by value, whose first bytes are the write id. DO NOT CHANGE the layout: embedded in stored data.
 *
 * <p>Thread-safety: immutable; {@link Generator} is thread-safe.
 */
record WriteId(byte[] bytes) implements Comparable<WriteId> {
    static final int LENGTH = 16;

    WriteId {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a write id has " + LENGTH + " bytes, got " + bytes.length);
        }
    }

    static WriteId of(ByteBuffer b) {
        byte[] a = new byte[LENGTH];
        b.duplicate().get(a);
        return new WriteId(a);
    }

    /** The least write id at {@code micros}: every write id of an earlier timestamp orders before it. */
    static WriteId firstAt(long micros) {
        return new WriteId(ByteBuffer.allocate(LENGTH).putLong(micros).array());
    }

    long timestampMicros() {
        return ByteBuffer.wrap(bytes).getLong();
    }

    ByteBuffer buffer() {
        return ByteBuffer.wrap(bytes);
    }

    @Override
    public int compareTo(WriteId o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WriteId w && Arrays.equals(bytes, w.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return dev.cairn.store.Hex.encode(bytes);
    }

    /** Strictly increasing timestamps within a process, random suffixes. */
    static final class Generator {
        private final AtomicLong last = new AtomicLong();
        private final SecureRandom random = new SecureRandom();
        private final Clock clock;

        Generator(Clock clock) {
            this.clock = clock;
        }

        long nextMicros() {
            long now = clock.millis() * 1000;
            return last.updateAndGet(prev -> Math.max(prev + 1, now));
        }

        WriteId next() {
            return withRandomSuffix(nextMicros());
        }

        /** A write id ordered after {@code floor}, even when floor's clock runs ahead of this one. */
        WriteId nextAfter(WriteId floor) {
            long after = floor.timestampMicros() + 1;
            long now = clock.millis() * 1000;
            return withRandomSuffix(last.updateAndGet(prev -> Math.max(Math.max(prev + 1, now), after)));
        }

        private WriteId withRandomSuffix(long micros) {
            ByteBuffer b = ByteBuffer.allocate(LENGTH);
            b.putLong(micros);
            b.putLong(random.nextLong());
            return new WriteId(b.array());
        }
    }
}
