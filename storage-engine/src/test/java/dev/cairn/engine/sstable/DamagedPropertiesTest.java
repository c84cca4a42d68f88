package dev.cairn.engine.sstable;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.engine.util.Varint;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** A properties field longer than the block is refused before it is allocated (found reviewing the readers). */
class DamagedPropertiesTest {

    @Test
    void aPropertyClaimingMoreBytesThanTheBlockHoldsIsRefused() {
        ByteBuffer contents = ByteBuffer.allocate(32);
        Varint.putLong(contents, 1);
        Varint.putLong(contents, Integer.MAX_VALUE);
        byte[] bytes = java.util.Arrays.copyOf(contents.array(), contents.position() + 2);
        assertThrows(IllegalArgumentException.class, () -> PropertiesCodec.decode(bytes, 1 << 20));
    }
}
