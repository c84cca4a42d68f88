package dev.cairn.engine;

/** A consistent point-in-time view of every table. Pins files until closed. */
public interface Snapshot extends AutoCloseable {

    /** The sequence number of the last write visible in this snapshot. */
    long sequence();

    @Override
    void close();
}
