package dev.cairn.store.cassandra;

/**
 * A Cassandra store setting that cannot be used. Its message names the setting; the service
 * reports it as its own refused setting.
 */
public final class InvalidStoreSettingException extends IllegalArgumentException {
    InvalidStoreSettingException(String message) {
        super(message);
    }
}
