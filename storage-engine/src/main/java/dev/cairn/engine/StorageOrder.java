package dev.cairn.engine;

import java.io.IOException;

/**
 * What {@link Table#scanInStorageOrder} asks of its caller: which entries to read, and what to do
 * with each.
 */
public final class StorageOrder {
    private StorageOrder() {
    }

    /** Decides from the key and the value's length, before any byte of the value is read. */
    @FunctionalInterface
    public interface Filter {
        boolean wants(byte[] key, int valueLength);
    }

    /** Receives one entry; {@code buffer} is the engine's and only valid during the call. */
    @FunctionalInterface
    public interface Visitor {
        void visit(byte[] key, byte[] buffer, int offset, int length) throws IOException;
    }
}
