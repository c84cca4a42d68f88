package dev.cairn.engine;

import java.util.ServiceLoader;

/** The {@link EngineProvider} on the class path, loaded once, on first use. */
final class ProviderHolder {
    static final EngineProvider PROVIDER = ServiceLoader.load(EngineProvider.class,
                    EngineProvider.class.getClassLoader())
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no " + EngineProvider.class.getName()
                    + " on the class path: the storage engine's jar is incomplete"));

    private ProviderHolder() {
    }
}
