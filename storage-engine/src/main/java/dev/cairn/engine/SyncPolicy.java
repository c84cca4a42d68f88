package dev.cairn.engine;

/** When writes become durable. DO NOT CHANGE the order: the benchmark prints the names. */
public enum SyncPolicy {
    /** Every write is synced before it is acknowledged; concurrent writers share one sync. */
    EVERY_WRITE,
    /**
     * Writes are acknowledged once in the operating system's hands and synced in the background
     * at least every {@link EngineOptions#syncInterval()}: a machine crash may lose at most that
     * much acknowledged work; a process crash loses nothing.
     */
    PERIODIC
}
