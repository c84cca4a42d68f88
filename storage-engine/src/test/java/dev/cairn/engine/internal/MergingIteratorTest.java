package dev.cairn.engine.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cairn.engine.sstable.InternalKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MergingIteratorTest {
    private static byte[] key(int user, long sequence) {
        return InternalKeys.encode(1, String.format("k%04d", user).getBytes(), sequence, InternalKeys.KIND_VALUE);
    }

    @Test
    void mergesChildrenInInternalKeyOrder() throws IOException {
        Random random = new Random(5);
        TreeMap<byte[], byte[]> all = new TreeMap<>(InternalKeys.COMPARATOR);
        List<InternalIterator> children = new ArrayList<>();
        long sequence = 1;
        for (int c = 0; c < 4; c++) {
            Memtable m = new Memtable(c);
            for (int i = 0; i < 200; i++) {
                byte[] k = key(random.nextInt(300), sequence++);
                byte[] v = new byte[] {(byte) c, (byte) i};
                m.add(k, v);
                all.put(k, v);
            }
            children.add(new MemtableIterator(m));
        }
        children.add(new MemtableIterator(new Memtable(9)));
        try (MergingIterator merged = new MergingIterator(children)) {
            merged.seekToFirst();
            for (Map.Entry<byte[], byte[]> e : all.entrySet()) {
                assertArrayEquals(e.getKey(), merged.key());
                assertArrayEquals(e.getValue(), merged.value());
                merged.next();
            }
            assertFalse(merged.valid());

            byte[] target = key(150, InternalKeys.MAX_SEQUENCE);
            merged.seek(target);
            assertEquals(0, InternalKeys.COMPARATOR.compare(all.ceilingKey(target), merged.key()));
        }
    }
}
