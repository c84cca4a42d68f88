package dev.cairn.backup.source.cassandra;

import dev.cairn.store.Hex;

/**
 * Where a token-range scan stopped: the last row's token and its serialized partition key
 * (which orders rows of an equal token). Written as {@code <token>:<hex key>}. Immutable.
 */
record ScanPosition(long token, byte[] compositeKey) {

    String encode() {
        return token + ":" + Hex.encode(compositeKey);
    }

    static ScanPosition parse(String position) {
        int colon = position.indexOf(':');
        if (colon < 1) {
            throw new IllegalArgumentException("not a Cassandra scan position: " + position);
        }
        try {
            return new ScanPosition(Long.parseLong(position.substring(0, colon)), Hex.decode(position.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a Cassandra scan position: " + position, e);
        }
    }
}
