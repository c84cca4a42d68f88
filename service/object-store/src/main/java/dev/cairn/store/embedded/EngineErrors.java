package dev.cairn.store.embedded;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.DiskFullException;
import dev.cairn.engine.WriteStallException;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoreUnavailableException;
import java.io.IOException;

/**
 * The engine's failures as the store's callers know them, so that no caller of the store needs
 * to know the engine: a write stall is a store that cannot keep up (503 SlowDown on HTTP), a full
 * disk and corrupt data are {@link StoreException} reasons. Other failures pass unchanged.
 */
final class EngineErrors {

    private EngineErrors() {
    }

    /** A call into the engine, through the store's rooms. */
    interface Call<T> {
        T run() throws IOException;
    }

    /** A call that returns nothing. */
    interface VoidCall {
        void run() throws IOException;
    }

    static <T> T translated(Call<T> call) throws IOException {
        try {
            return call.run();
        } catch (IOException e) {
            throw translate(e);
        } catch (RuntimeException e) {
            throw translate(e);
        }
    }

    static void translated(VoidCall call) throws IOException {
        try {
            call.run();
        } catch (IOException e) {
            throw translate(e);
        } catch (RuntimeException e) {
            throw translate(e);
        }
    }

    /** A runtime failure stays one, unless the disk is full. */
    private static RuntimeException translate(RuntimeException e) throws StoreException {
        if (DiskFullException.isNoSpace(e)) {
            throw new StoreException(StoreException.Reason.INSUFFICIENT_STORAGE, e.getMessage(), e);
        }
        return e;
    }

    static IOException translate(IOException e) {
        if (e instanceof StoreException || e instanceof StoreUnavailableException) {
            return e;
        }
        if (e instanceof WriteStallException) {
            return new StoreUnavailableException(e.getMessage(), e);
        }
        if (e instanceof CorruptionException) {
            return new StoreException(StoreException.Reason.DATA_CORRUPTED, e.getMessage(), e);
        }
        if (DiskFullException.isNoSpace(e)) {
            return new StoreException(StoreException.Reason.INSUFFICIENT_STORAGE, e.getMessage(), e);
        }
        return e;
    }
}
