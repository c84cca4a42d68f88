package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import java.util.HexFormat;

/** Keys as people read them in dumps: text when printable, hex otherwise. */
final class Printable {
    private Printable() {
    }

    static String key(byte[] key) {
        for (byte b : key) {
            if (b < 0x20 || b > 0x7e) {
                return "0x" + HexFormat.of().formatHex(key);
            }
        }
        return "'" + new String(key, java.nio.charset.StandardCharsets.US_ASCII) + "'";
    }

    static String internalKey(byte[] internalKey) {
        return "t" + InternalKeys.tableId(internalKey) + ":" + key(InternalKeys.userKey(internalKey)) + "@"
                + InternalKeys.sequence(internalKey) + "/" + InternalKeys.kind(internalKey);
    }
}
