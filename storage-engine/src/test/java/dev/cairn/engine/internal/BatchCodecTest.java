package dev.cairn.engine.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.sstable.InternalKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BatchCodecTest {
    private static List<BatchCodec.LoggedOp> randomOps(Random random, int count) {
        byte[] kinds = {InternalKeys.KIND_VALUE, InternalKeys.KIND_DELETE, InternalKeys.KIND_VALUE_POINTER};
        List<BatchCodec.LoggedOp> ops = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte kind = kinds[random.nextInt(kinds.length)];
            byte[] key = new byte[1 + random.nextInt(40)];
            random.nextBytes(key);
            byte[] value = new byte[kind == InternalKeys.KIND_DELETE ? 0 : random.nextInt(500)];
            random.nextBytes(value);
            ops.add(new BatchCodec.LoggedOp(kind, random.nextInt(65536), key, value));
        }
        return ops;
    }

    @Test
    void roundTripsEveryOperation() throws CorruptionException {
        Random random = new Random(11);
        for (int round = 0; round < 50; round++) {
            List<BatchCodec.LoggedOp> ops = randomOps(random, 1 + random.nextInt(30));
            long first = random.nextLong() >>> 9;
            BatchCodec.Decoded decoded = BatchCodec.decode(BatchCodec.encode(first, ops), "test");
            assertEquals(first, decoded.firstSequence());
            assertEquals(ops.size(), decoded.ops().size());
            for (int i = 0; i < ops.size(); i++) {
                BatchCodec.LoggedOp a = ops.get(i);
                BatchCodec.LoggedOp b = decoded.ops().get(i);
                assertEquals(a.kind(), b.kind());
                assertEquals(a.tableId(), b.tableId());
                assertArrayEquals(a.key(), b.key());
                assertArrayEquals(a.value(), b.value());
            }
        }
    }

    @Test
    void aTruncatedPayloadIsCorruption() {
        byte[] encoded = BatchCodec.encode(7, randomOps(new Random(12), 5));
        for (int cut = 0; cut < encoded.length; cut += 7) {
            byte[] truncated = Arrays.copyOf(encoded, cut);
            assertThrows(CorruptionException.class, () -> BatchCodec.decode(truncated, "test"), "cut at " + cut);
        }
    }
}
