package dev.cairn.engine.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A 64-bit hash of a key, never 0 (0 marks an empty slot in {@link HashIndex}). Collisions only
 * cost misses: every read compares the full key stored in the entry.
 */
final class KeyHash {
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long M = 0xC6A4A7935BD1E995L;

    private KeyHash() {
    }

    /** MurmurHash64A over the key, seeded with its length. */
    static long of(byte[] key) {
        long h = 0x9E3779B97F4A7C15L ^ (key.length * M);
        int i = 0;
        for (; i + 8 <= key.length; i += 8) {
            long k = (long) LONG_LE.get(key, i);
            k *= M;
            k ^= k >>> 47;
            k *= M;
            h ^= k;
            h *= M;
        }
        int rest = key.length - i;
        if (rest > 0) {
            long tail = 0;
            for (int s = 0; s < rest; s++) {
                tail |= (key[i + s] & 0xFFL) << (8 * s);
            }
            h ^= tail;
            h *= M;
        }
        h ^= h >>> 47;
        h *= M;
        h ^= h >>> 47;
        return h == 0 ? 1 : h;
    }
}
