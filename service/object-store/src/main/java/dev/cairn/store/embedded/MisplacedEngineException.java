package dev.cairn.store.embedded;

/** A data directory that holds the engine's files itself rather than in its engine directory ({@link DataDirLayout}). */
public final class MisplacedEngineException extends IllegalArgumentException {
    MisplacedEngineException(String message) {
        super(message);
    }
}
