package dev.cairn.engine.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** A data block's bytes, as docs/format/sstable.md lays them out. */
class BlockBuilderBytesTest {

    @Test
    void prefixCompressedEntriesThenRestarts() {
        BlockBuilder builder = new BlockBuilder(2);
        byte[] longValue = new byte[200];
        Arrays.fill(longValue, (byte) 7);
        builder.add(new byte[] {'a', 'b'}, new byte[] {'x'});
        builder.add(new byte[] {'a', 'c'}, longValue);
        builder.add(new byte[] {'a', 'd'}, new byte[0]);

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        // shared 0, unshared 2, value length 1, "ab", "x"
        expected.writeBytes(HexFormat.of().parseHex("000201" + "6162" + "78"));
        // shared 1, unshared 1, value length 200 (two bytes), "c", the value
        expected.writeBytes(HexFormat.of().parseHex("0101c801" + "63"));
        expected.writeBytes(longValue);
        int restart = expected.size();
        // the third entry starts a restart: its whole key, shared 0
        expected.writeBytes(HexFormat.of().parseHex("000200" + "6164"));
        // restart offsets (u32 big-endian) and their count
        expected.writeBytes(HexFormat.of().parseHex("00000000" + String.format("%08x", restart) + "00000002"));
        assertArrayEquals(expected.toByteArray(), builder.finish());
    }
}
