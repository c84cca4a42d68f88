package dev.cairn.service;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What the caches and memtables may fill, against the heap. They fill slowly, as the working
 * set is read, so a heap too small for them shows only hours later, as long collections and then
 * an OutOfMemoryError; the check says so at start instead.
 */
final class HeapBudget {
    /** Above this share of the heap, requests (buffers of 1 MiB per thread) and collection lack room. */
    static final double WARN_SHARE = 0.6;

    record Part(String setting, long bytes) {
    }

    private HeapBudget() {
    }

    static Optional<String> check(long maxHeapBytes, List<Part> parts) {
        long total = parts.stream().mapToLong(Part::bytes).sum();
        if (total <= maxHeapBytes * WARN_SHARE) {
            return Optional.empty();
        }
        String each = parts.stream().filter(p -> p.bytes() > 0)
                .map(p -> p.setting() + " " + mib(p.bytes()))
                .collect(Collectors.joining(", "));
        return Optional.of(String.format(Locale.ROOT,
                "the caches and memtables may hold %s, %.0f%% of the %s heap (%s); requests and the collector "
                        + "need the rest, so keep them under %.0f%%: lower those settings or give the JVM a larger heap "
                        + "(-Xmx, or -XX:MaxRAMPercentage in a container)",
                mib(total), 100.0 * total / maxHeapBytes, mib(maxHeapBytes), each, 100 * WARN_SHARE));
    }

    private static String mib(long bytes) {
        return (bytes >> 20) + " MiB";
    }
}
