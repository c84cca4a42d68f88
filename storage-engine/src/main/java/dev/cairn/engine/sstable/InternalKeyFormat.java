package dev.cairn.engine.sstable;

import java.util.HexFormat;

/** Human-readable internal keys for messages and dumps. Stateless. */
final class InternalKeyFormat {
    private InternalKeyFormat() {
    }

    static String kindName(byte kind) {
        return switch (kind) {
            case InternalKeys.KIND_DELETE -> "DELETE";
            case InternalKeys.KIND_VALUE -> "VALUE";
            case InternalKeys.KIND_VALUE_POINTER -> "VALUE_POINTER";
            default -> "UNKNOWN(" + (kind & 0xFF) + ")";
        };
    }

    /** {@code table=T user=<hex> seq=S kind=K}, or the hex of a key too short to decode. */
    static String describe(byte[] key) {
        HexFormat hex = HexFormat.of();
        if (key.length < 2 + InternalKeys.TRAILER_BYTES) {
            return "<" + hex.formatHex(key) + ">";
        }
        return "table=" + InternalKeys.tableId(key) + " user=" + hex.formatHex(InternalKeys.userKey(key))
                + " seq=" + InternalKeys.sequence(key) + " kind=" + kindName(InternalKeys.kind(key));
    }
}
