package dev.cairn.engine.internal;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.EngineProvider;
import dev.cairn.engine.TieredCache;
import dev.cairn.engine.TieredCacheOptions;
import java.io.IOException;

/**
 * The engine's implementation, registered in {@code META-INF/services} for the API to find.
 * Public only because {@link java.util.ServiceLoader} instantiates it.
 */
public final class DefaultEngineProvider implements EngineProvider {
    @Override
    public Engine open(EngineOptions options) throws IOException {
        return DbImpl.open(options);
    }

    @Override
    public Engine openReadOnly(EngineOptions options) throws IOException {
        return ReadOnlyDb.open(options);
    }

    @Override
    public TieredCache openTieredCache(TieredCacheOptions options) throws IOException {
        return TieredCacheImpl.open(options);
    }
}
