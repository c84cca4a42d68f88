package dev.cairn.store;

import java.io.IOException;

/**
 * The store's backend could not complete a request in time (a node down, a timeout); the
 * request may or may not have taken effect, and may be retried. The service answers 503.
 */
public final class StoreUnavailableException extends IOException {
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
