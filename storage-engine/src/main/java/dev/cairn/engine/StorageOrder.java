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

    /**
     * Receives one entry; {@code buffer} is only valid during the call, unless it is one the
     * visitor supplied by {@link #spanBuffer}.
     */
    @FunctionalInterface
    public interface Visitor {
        void visit(byte[] key, byte[] buffer, int offset, int length) throws IOException;

        /**
         * The buffer the scan reads its next span of neighbouring values into, at least
         * {@code length} bytes, so that a visitor that hands values to other threads can hand
         * over the whole buffer instead of copying each value out of the engine's; null: the
         * engine's own. The values visited until {@link #spanVisited()} lie in it; the scan does
         * not touch it after that. A scan around the page cache reads ahead: it may ask for the
         * buffers of up to two more spans before the first is visited; spans are visited in the
         * order their buffers were asked for, and each {@link #spanVisited()} ends the oldest.
         */
        default byte[] spanBuffer(int length) throws IOException {
            return null;
        }

        /** Every value of the span read into the last {@link #spanBuffer} was visited. */
        default void spanVisited() throws IOException {
        }
    }
}
