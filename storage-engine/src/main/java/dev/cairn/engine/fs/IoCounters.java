package dev.cairn.engine.fs;

import java.util.EnumMap;
import java.util.Map;

/**
 * A snapshot of {@link CountingFileSystem}'s counters. {@code writeOps} counts appends;
 * {@code syncs} counts file syncs, {@code directorySyncs} directory syncs. Immutable.
 */
public record IoCounters(long readOps, long bytesRead, long writeOps, long bytesWritten, long syncs,
        long directorySyncs, Map<WriteLifetime, Long> bytesWrittenByLifetime) {

    public IoCounters {
        EnumMap<WriteLifetime, Long> complete = new EnumMap<>(WriteLifetime.class);
        for (WriteLifetime lifetime : WriteLifetime.values()) {
            complete.put(lifetime, bytesWrittenByLifetime.getOrDefault(lifetime, 0L));
        }
        bytesWrittenByLifetime = Map.copyOf(complete);
    }

    public long bytesWritten(WriteLifetime lifetime) {
        return bytesWrittenByLifetime.get(lifetime);
    }

    /** What happened between {@code earlier} and this snapshot. */
    public IoCounters minus(IoCounters earlier) {
        EnumMap<WriteLifetime, Long> byLifetime = new EnumMap<>(WriteLifetime.class);
        for (WriteLifetime lifetime : WriteLifetime.values()) {
            byLifetime.put(lifetime, bytesWritten(lifetime) - earlier.bytesWritten(lifetime));
        }
        return new IoCounters(readOps - earlier.readOps, bytesRead - earlier.bytesRead,
                writeOps - earlier.writeOps, bytesWritten - earlier.bytesWritten, syncs - earlier.syncs,
                directorySyncs - earlier.directorySyncs, byLifetime);
    }
}
