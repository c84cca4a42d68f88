package dev.cairn.store.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.DiskFullException;
import dev.cairn.engine.WriteStallException;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoreUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class EngineErrorsTest {

    private static StoreException.Reason reasonOf(IOException engine) {
        return assertInstanceOf(StoreException.class, EngineErrors.translate(engine)).reason();
    }

    @Test
    void aWriteStallIsAStoreThatCannotKeepUp() {
        WriteStallException stall = new WriteStallException("memtables full");
        IOException seen = EngineErrors.translate(stall);
        assertInstanceOf(StoreUnavailableException.class, seen);
        assertSame(stall, seen.getCause());
    }

    @Test
    void corruptDataAndAFullDiskAreStoreReasons() {
        assertEquals(StoreException.Reason.DATA_CORRUPTED, reasonOf(new CorruptionException("bad block")));
        assertEquals(StoreException.Reason.INSUFFICIENT_STORAGE, reasonOf(new DiskFullException("no room")));
        assertEquals(StoreException.Reason.INSUFFICIENT_STORAGE,
                reasonOf(new IOException("append", new IOException("No space left on device"))));
    }

    @Test
    void otherFailuresPassUnchanged() throws IOException {
        IOException other = new IOException("connection reset");
        assertSame(other, EngineErrors.translate(other));
        StoreException refused = new StoreException(StoreException.Reason.NO_SUCH_KEY, "k");
        assertSame(refused, EngineErrors.translate(refused));
        assertEquals("k", EngineErrors.translated(() -> "k"));
    }

    @Test
    void aFullDiskReportedUncheckedIsAStoreReasonToo() {
        StoreException e = assertThrows(StoreException.class, () -> EngineErrors.translated(() -> {
            throw new UncheckedIOException(new DiskFullException("no room"));
        }));
        assertEquals(StoreException.Reason.INSUFFICIENT_STORAGE, e.reason());
        UnsupportedOperationException unsupported = new UnsupportedOperationException("x");
        assertSame(unsupported, assertThrows(UnsupportedOperationException.class,
                () -> EngineErrors.translated(() -> {
                    throw unsupported;
                })));
    }
}
