package dev.cairn.engine.internal;

import dev.cairn.engine.Engine;
import dev.cairn.engine.TieredCache;
import java.time.Duration;

/** Lets tests outside this package wait for the row cache's asynchronous cascade to the SSD tier. */
public final class CacheCascades {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private CacheCascades() {
    }

    /** Waits until every row evicted from memory so far has been written to the SSD tier or refused. */
    public static void await(Engine engine) throws InterruptedException {
        if (!((DbImpl) engine).awaitRowCacheCascades(TIMEOUT)) {
            throw new AssertionError("row cache cascades still pending after " + TIMEOUT);
        }
    }

    public static void await(TieredCache cache) throws InterruptedException {
        if (!((TieredCacheImpl) cache).awaitCascades(TIMEOUT)) {
            throw new AssertionError("cache cascades still pending after " + TIMEOUT);
        }
    }
}
