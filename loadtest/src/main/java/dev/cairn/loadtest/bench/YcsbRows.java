package dev.cairn.loadtest.bench;

import dev.cairn.engine.ColumnValue;
import dev.cairn.engine.Row;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The records of the hybrid SSD/HDD store paper's row cache experiment, shaped as YCSB's: a 25-byte key
 * ({@code user} and 21 digits of a hash of the record number) and five columns {@code field0} ..
 * {@code field4} of 75 printable bytes. Version {@code v} of record {@code i} is a pure function
 * of (seed, i, v); {@code field0} begins with {@code i} and {@code v}, so every read can be
 * checked against the record it was asked for.
 *
 * <p>Thread-safety: immutable.
 */
public final class YcsbRows {

    public static final int KEY_BYTES = 25;
    public static final int COLUMNS = 5;
    public static final int COLUMN_BYTES = 75;

    private static final long KEY_SALT = 0x7963736b65797321L;
    private static final long FIELD_SALT = 0x796373666965ab5dL;
    private static final byte[] PRINTABLE =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/".getBytes(StandardCharsets.US_ASCII);
    private static final String[] NAMES = {"field0", "field1", "field2", "field3", "field4"};

    private final long seed;

    public YcsbRows(long seed) {
        this.seed = seed;
    }

    public byte[] key(long index) {
        long hash = Long.remainderUnsigned(Mix.mix(seed, index, 0, KEY_SALT), 1_000_000_000_000_000_000L);
        String digits = String.format("%018d%03d", hash, index % 1000);
        return ("user" + digits).getBytes(StandardCharsets.US_ASCII);
    }

    public Row row(long index, int version) {
        Row.Builder row = Row.builder();
        for (int f = 0; f < COLUMNS; f++) {
            byte[] value = new byte[COLUMN_BYTES];
            int from = 0;
            if (f == 0) {
                ByteBuffer.wrap(value).putLong(index).putInt(version);
                from = 12;
            }
            long bits = 0;
            for (int i = from; i < COLUMN_BYTES; i++) {
                if ((i - from) % 10 == 0) {
                    bits = Mix.mix(seed, index, ((long) version << 8 | f) * 16 + (i - from) / 10, FIELD_SALT);
                }
                value[i] = PRINTABLE[(int) (bits & 63)];
                bits >>>= 6;
            }
            row.inline(NAMES[f], value);
        }
        return row.build();
    }

    /**
     * The version of record {@code index} that {@code row} holds, or -1 when it is not a version
     * of that record (wrong record, wrong shape or wrong bytes).
     */
    public int versionIn(Row row, long index) {
        if (row == null || row.size() != COLUMNS) {
            return -1;
        }
        ColumnValue first = row.get(NAMES[0]);
        if (first == null || first.length() != COLUMN_BYTES) {
            return -1;
        }
        ByteBuffer head = ByteBuffer.wrap(first.bytes());
        if (head.getLong() != index) {
            return -1;
        }
        int version = head.getInt();
        return version >= 0 && row.equals(row(index, version)) ? version : -1;
    }
}
