package dev.cairn.service.variants;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * Concurrent requests for the same missing variant render it once: the first caller of a key
 * runs the work, the others wait for its result (or its failure). Thread-safe.
 */
final class SingleFlight<V> {
    interface Work<V> {
        V run() throws Exception;
    }

    private final ConcurrentHashMap<String, CompletableFuture<V>> inFlight = new ConcurrentHashMap<>();

    /** The result of {@code work} for {@code key}, run by this caller or by the one already running it. */
    V run(String key, Work<V> work) throws Exception {
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> running = inFlight.putIfAbsent(key, mine);
        if (running != null) {
            try {
                return running.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception ex ? ex : e;
            }
        }
        try {
            V v = work.run();
            mine.complete(v);
            return v;
        } catch (Exception | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            inFlight.remove(key, mine);
        }
    }

    int inFlight() {
        return inFlight.size();
    }
}
