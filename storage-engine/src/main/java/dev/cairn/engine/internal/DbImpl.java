package dev.cairn.engine.internal;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import java.io.IOException;

/** The engine's orchestrator (being written). */
public final class DbImpl {
    private DbImpl() {
    }

    public static Engine open(EngineOptions options) throws IOException {
        throw new UnsupportedOperationException("engine not yet assembled");
    }
}
