package dev.cairn.backup.source.cassandra;

import dev.cairn.store.Hex;

/**
 * Where a token-range scan stopped: the last row's token and its serialized partition key
 * (which orders rows of an equal token), and for a row of table {@code versions} the version's
 * place (which orders the versions of one key). A split scans {@code objects} first, then
 * {@code versions}. Written as {@code <token>:<hex key>} in {@code objects}, as
 * {@code v<token>:<hex key>:<hex place>} in {@code versions}. Immutable.
 *
 * @param sort the version's place; null for a row of {@code objects}
 */
record ScanPosition(long token, byte[] compositeKey, byte[] sort) {

    ScanPosition(long token, byte[] compositeKey) {
        this(token, compositeKey, null);
    }

    /** Whether the scan of {@code objects} is over. */
    boolean inVersions() {
        return sort != null;
    }

    String encode() {
        String common = token + ":" + Hex.encode(compositeKey);
        return sort == null ? common : "v" + common + ":" + Hex.encode(sort);
    }

    static ScanPosition parse(String position) {
        boolean versions = position.startsWith("v");
        String rest = versions ? position.substring(1) : position;
        int colon = rest.indexOf(':');
        int second = versions ? rest.indexOf(':', colon + 1) : -1;
        if (colon < 1 || (versions && second < 0)) {
            throw new IllegalArgumentException("not a Cassandra scan position: " + position);
        }
        try {
            long token = Long.parseLong(rest.substring(0, colon));
            if (!versions) {
                return new ScanPosition(token, Hex.decode(rest.substring(colon + 1)));
            }
            byte[] sort = Hex.decode(rest.substring(second + 1));
            if (sort.length == 0) {
                throw new IllegalArgumentException("empty place");
            }
            return new ScanPosition(token, Hex.decode(rest.substring(colon + 1, second)), sort);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a Cassandra scan position: " + position, e);
        }
    }
}
