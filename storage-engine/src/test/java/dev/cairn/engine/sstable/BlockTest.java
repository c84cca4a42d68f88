package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableTestSupport.key;
import static org.junit.jupiter.api.Assertions.*;

import dev.cairn.engine.CorruptionException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockTest {

    @Test
    void prefixCompressionRestartsAndSeeksAgree() throws CorruptionException {
        for (int interval : new int[] {1, 2, 3, 16, 1000}) {
            List<byte[]> keys = new ArrayList<>();
            BlockBuilder builder = new BlockBuilder(interval);
            for (int i = 0; i < 100; i++) {
                byte[] k = key(1, "shared-prefix-" + String.format("%04d", i * 2), 7);
                keys.add(k);
                builder.add(k, ("v" + i).getBytes());
            }
            int estimate = builder.estimatedSize();
            byte[] contents = builder.finish();
            assertEquals(estimate, contents.length);
            int restarts = (100 + interval - 1) / interval;
            assertEquals(restarts, readInt(contents, contents.length - 4), "interval " + interval);

            Block block = Block.parse(contents, 0, "test");
            Block.Cursor cursor = block.cursor("test");
            int i = 0;
            for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
                assertArrayEquals(keys.get(i), cursor.key());
                assertArrayEquals(("v" + i).getBytes(), cursor.value());
                i++;
            }
            assertEquals(100, i);
            for (int j = -1; j <= 200; j++) {
                cursor.seek(key(1, "shared-prefix-" + String.format("%04d", j), 7));
                int expected = j < 0 ? 0 : (j + 1) / 2;
                if (expected >= 100) {
                    assertFalse(cursor.valid(), "interval " + interval + " target " + j);
                } else {
                    assertArrayEquals(keys.get(expected), cursor.key(), "interval " + interval + " target " + j);
                }
            }
        }
    }

    @Test
    void resetStartsAFreshBlock() throws CorruptionException {
        BlockBuilder builder = new BlockBuilder(16);
        builder.add(key(1, "zzz", 1), new byte[3]);
        builder.finish();
        builder.reset();
        assertTrue(builder.isEmpty());
        builder.add(key(1, "aaa", 1), new byte[2]);
        Block.Cursor cursor = Block.parse(builder.finish(), 0, "test").cursor("test");
        cursor.seekToFirst();
        assertArrayEquals(key(1, "aaa", 1), cursor.key());
        cursor.next();
        assertFalse(cursor.valid());
    }

    @Test
    void malformedBlocksAreCorruptNotCrashes() {
        assertThrows(CorruptionException.class, () -> Block.parse(new byte[3], 0, "f"));
        assertThrows(CorruptionException.class, () -> Block.parse(new byte[] {0, 0, 0, 0}, 0, "f"), "no restarts");
        assertThrows(CorruptionException.class, () -> Block.parse(new byte[] {0, 0, 0, 9, 0, 0, 0, 1}, 0, "f"));
        BlockBuilder builder = new BlockBuilder(16);
        builder.add(key(1, "a", 1), new byte[5]);
        byte[] contents = builder.finish();
        contents[1] = 100; // unshared length past the end
        CorruptionException e = assertThrows(CorruptionException.class, () -> {
            Block.Cursor c = Block.parse(contents, 4096, "f").cursor("f");
            c.seekToFirst();
        });
        assertTrue(e.getMessage().contains("offset 4096"), e.getMessage());
        assertEquals(InternalKeys.TRAILER_BYTES + 2, Block.MIN_KEY_BYTES);
    }

    private static int readInt(byte[] b, int i) {
        return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | (b[i + 3] & 0xFF);
    }
}
