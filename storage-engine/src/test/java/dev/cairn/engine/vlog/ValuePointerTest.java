package dev.cairn.engine.vlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ValuePointerTest {

    @Test
    void encodesTwentyBigEndianBytes() {
        ValuePointer pointer = new ValuePointer(0xFFFF_FFFEL, 0x0102_0304_0506_0708L, 0x0A0B0C0D, 0xCAFEBABE);
        byte[] expected = HexFormat.of().parseHex("fffffffe" + "0102030405060708" + "0a0b0c0d" + "cafebabe");
        assertArrayEquals(expected, pointer.encode());
        assertEquals(pointer, ValuePointer.decode(expected));
    }

    @Test
    void decodesAtAPosition() {
        ValuePointer pointer = new ValuePointer(7, 1234, 20_000, -1);
        byte[] framed = new byte[30];
        System.arraycopy(pointer.encode(), 0, framed, 5, ValuePointer.ENCODED_LENGTH);
        assertEquals(pointer, ValuePointer.decode(framed, 5));
    }

    @Test
    void rejectsWhatCannotBeEncoded() {
        assertThrows(IllegalArgumentException.class, () -> new ValuePointer(1L << 32, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ValuePointer(-1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ValuePointer(1, -1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ValuePointer(1, 0, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> ValuePointer.decode(new byte[19]));
    }

    @Test
    void fileNamesAreZeroPaddedAndParseBack() {
        assertEquals("000042.vlog", ValueFileFormat.fileName(42));
        assertEquals("1234567.vlog", ValueFileFormat.fileName(1_234_567));
        assertEquals(42, ValueFileFormat.parseFileNumber("000042.vlog").getAsLong());
        assertEquals(4294967295L, ValueFileFormat.parseFileNumber("4294967295.vlog").getAsLong());
        assertTrue(ValueFileFormat.parseFileNumber("42.vlog").isEmpty());
        assertTrue(ValueFileFormat.parseFileNumber("000042.sst").isEmpty());
        assertTrue(ValueFileFormat.parseFileNumber("00004x.vlog").isEmpty());
        assertTrue(ValueFileFormat.parseFileNumber("4294967296.vlog").isEmpty());
    }
}
