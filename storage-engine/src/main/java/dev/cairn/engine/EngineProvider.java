package dev.cairn.engine;

import java.io.IOException;
import java.util.ServiceLoader;

/**
 * The engine's implementation as the API finds it: {@link Engine#open}, {@link Engine#openReadOnly}
 * and {@link TieredCache#open} delegate to the provider that {@link ServiceLoader} finds on the
 * class path (as JDBC finds its drivers), so this package never names an implementation class
 * and depends on none. Applications call those methods, not this interface.
 */
public interface EngineProvider {
    Engine open(EngineOptions options) throws IOException;

    Engine openReadOnly(EngineOptions options) throws IOException;

    TieredCache openTieredCache(TieredCacheOptions options) throws IOException;
}
