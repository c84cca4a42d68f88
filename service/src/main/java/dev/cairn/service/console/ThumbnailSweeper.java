package dev.cairn.service.console;

import dev.cairn.store.ContentRead;
import dev.cairn.store.ObjectStore;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes, every {@code cairn.console.thumbnail-sweep-interval}, the thumbnails of content that
 * no object or part holds any more ({@link ThumbnailCache#sweep}), on one daemon thread.
 */
final class ThumbnailSweeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ThumbnailSweeper.class);

    private final ScheduledExecutorService timer;

    ThumbnailSweeper(ThumbnailCache cache, ObjectStore store, Duration interval) {
        if (interval.isZero()) {
            timer = null;
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "console-thumbnail-sweep");
            t.setDaemon(true);
            return t;
        });
        long ms = interval.toMillis();
        timer.scheduleWithFixedDelay(() -> sweep(cache, store), ms, ms, TimeUnit.MILLISECONDS);
    }

    static int sweep(ThumbnailCache cache, ObjectStore store) {
        try {
            int removed = cache.sweep(sha -> {
                try (ContentRead r = store.getContent(sha)) {
                    return r != null;
                }
            });
            if (removed > 0) {
                LOG.info("removed {} thumbnails of deleted content", removed);
            }
            return removed;
        } catch (java.io.IOException | RuntimeException e) {
            // The store unreachable for a while: nothing is removed, the next sweep tries again.
            LOG.warn("thumbnail sweep stopped: {}", e.toString());
            return 0;
        }
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
