package dev.cairn.engine;

import java.io.IOException;

/**
 * A write waited {@link EngineOptions#writeStallTimeout()} for flushes to catch up and gave up.
 * Nothing of it was applied; the caller may retry later (the service answers 503 SlowDown).
 */
public final class WriteStallException extends IOException {
    public WriteStallException(String message) {
        super(message);
    }
}
