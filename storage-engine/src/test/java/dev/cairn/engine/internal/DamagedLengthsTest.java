package dev.cairn.engine.internal;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.util.Varint;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * A length field inside a checksummed record (a hostile file, or damage the checksum missed)
 * that claims more bytes than the record holds is refused before anything of that size is
 * allocated (found reviewing the readers the fuzz harnesses feed; {@link LogRecordsFuzzTest} and {@link ManifestRecordsFuzzTest} reach them).
 */
class DamagedLengthsTest {

    @Test
    void aLogBatchClaimingAHugeKeyIsCorruptionNotAnOutOfMemoryError() {
        ByteBuffer payload = ByteBuffer.allocate(64);
        payload.putLong(1);
        Varint.putLong(payload, 1);
        payload.put((byte) 1);
        Varint.putLong(payload, 1);
        Varint.putLong(payload, Integer.MAX_VALUE);
        byte[] bytes = java.util.Arrays.copyOf(payload.array(), payload.position() + 3);
        assertThrows(CorruptionException.class, () -> BatchCodec.decode(bytes, "test log"));
    }

    @Test
    void aManifestClaimingAHugeTableNameIsCorruptionNotAnOutOfMemoryError() {
        ByteBuffer payload = ByteBuffer.allocate(64);
        Varint.putLong(payload, 10);
        Varint.putLong(payload, 5);
        Varint.putLong(payload, 3);
        Varint.putLong(payload, 1);
        Varint.putLong(payload, Integer.MAX_VALUE - 16);
        byte[] bytes = java.util.Arrays.copyOf(payload.array(), payload.position() + 4);
        assertThrows(CorruptionException.class, () -> ManifestState.decode(bytes, "test manifest"));
    }

    /** Found by ManifestRecordsFuzzTest: the dump and key comparisons read past a short bound. */
    @Test
    void aManifestTableWithAKeyBoundShorterThanAnInternalKeyIsCorruption() {
        ByteBuffer payload = ByteBuffer.allocate(64);
        for (long v : new long[] {10, 5, 3, 0, 1, 1, 7, 100, 3, 1}) {
            Varint.putLong(payload, v);
        }
        payload.put((byte) 'k');
        Varint.putLong(payload, 1);
        payload.put((byte) 'z');
        Varint.putLong(payload, 0);
        byte[] bytes = java.util.Arrays.copyOf(payload.array(), payload.position());
        CorruptionException e = assertThrows(CorruptionException.class, () -> ManifestState.decode(bytes, "test manifest"));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("shorter than an internal key"), e.getMessage());
    }
}
