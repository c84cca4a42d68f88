package dev.cairn.engine.cache;

import java.util.Arrays;

/** A byte-array key with value equality, for the in-memory tier. Immutable by convention. */
final class ByteKey {
    final byte[] bytes;
    final long hash;

    ByteKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = KeyHash.of(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ByteKey other && hash == other.hash && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return (int) (hash ^ (hash >>> 32));
    }
}
