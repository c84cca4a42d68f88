package dev.cairn.engine.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The bytes of docs/format/: unsigned LEB128, least significant seven bits first. */
class VarintTest {
    private static final Object[][] KNOWN = {
        {0L, "00"},
        {1L, "01"},
        {127L, "7f"},
        {128L, "8001"},
        {300L, "ac02"},
        {16_383L, "ff7f"},
        {16_384L, "808001"},
        {(long) Integer.MAX_VALUE, "ffffffff07"},
        {1L << 32, "8080808010"},
        {Long.MAX_VALUE, "ffffffffffffffff7f"},
        {-1L, "ffffffffffffffffff01"},
    };

    @Test
    void encodesKnownValuesToKnownBytes() {
        for (Object[] known : KNOWN) {
            long value = (long) known[0];
            byte[] expected = HexFormat.of().parseHex((String) known[1]);

            ByteBuffer buffer = ByteBuffer.allocate(Varint.MAX_BYTES);
            Varint.putLong(buffer, value);
            assertArrayEquals(expected, Arrays.copyOf(buffer.array(), buffer.position()), "buffer, " + value);

            byte[] array = new byte[Varint.MAX_BYTES + 3];
            int end = Varint.putLong(array, 3, value);
            assertArrayEquals(expected, Arrays.copyOfRange(array, 3, end), "array, " + value);

            assertEquals(expected.length, Varint.size(value), "size of " + value);
            assertEquals(value, Varint.getLong(ByteBuffer.wrap(expected)), "decode " + value);
        }
    }

    @Test
    void rejectsOverlongAndOutOfRangeEncodings() {
        assertThrows(IllegalArgumentException.class,
                () -> Varint.getLong(ByteBuffer.wrap(HexFormat.of().parseHex("ffffffffffffffffffff01"))));
        assertThrows(IllegalArgumentException.class,
                () -> Varint.getInt(ByteBuffer.wrap(HexFormat.of().parseHex("8080808010"))));
    }
}
