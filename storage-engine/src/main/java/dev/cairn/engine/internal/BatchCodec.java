package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.util.Varint;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload of a commit log record: one write group's batch, applied atomically.
 * <pre>
 *   firstSequence u64 | count varint | count × (kind u8 | tableId varint | keyLength varint | key
 *                                                | valueLength varint | value)
 * </pre>
 * Operation i has sequence {@code firstSequence + i}. A delete has an empty value; a value
 * pointer's value is the 20-byte encoded pointer. Layout in docs/format/commit-log.md.
 */
final class BatchCodec {
    private BatchCodec() {
    }

    /** One logged operation; {@code value} is never null (empty for deletes). */
    record LoggedOp(byte kind, int tableId, byte[] key, byte[] value) {
        int encodedSize() {
            return 1 + Varint.size(tableId) + Varint.size(key.length) + key.length
                    + Varint.size(value.length) + value.length;
        }
    }

    static byte[] encode(long firstSequence, List<LoggedOp> ops) {
        int size = 8 + Varint.size(ops.size());
        for (LoggedOp op : ops) {
            size += op.encodedSize();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putLong(firstSequence);
        Varint.putLong(out, ops.size());
        for (LoggedOp op : ops) {
            out.put(op.kind());
            Varint.putLong(out, op.tableId());
            Varint.putLong(out, op.key().length);
            out.put(op.key());
            Varint.putLong(out, op.value().length);
            out.put(op.value());
        }
        return out.array();
    }

    record Decoded(long firstSequence, List<LoggedOp> ops) {
    }

    static Decoded decode(byte[] payload, String where) throws CorruptionException {
        try {
            ByteBuffer in = ByteBuffer.wrap(payload);
            long first = in.getLong();
            int count = Varint.getInt(in);
            List<LoggedOp> ops = new ArrayList<>(Math.min(count, 1 << 16));
            for (int i = 0; i < count; i++) {
                byte kind = in.get();
                if (kind != InternalKeys.KIND_DELETE && kind != InternalKeys.KIND_VALUE
                        && kind != InternalKeys.KIND_VALUE_POINTER) {
                    throw new CorruptionException("unknown operation kind " + kind + " in " + where);
                }
                int tableId = Varint.getInt(in);
                byte[] key = new byte[Varint.getLength(in)];
                in.get(key);
                byte[] value = new byte[Varint.getLength(in)];
                in.get(value);
                ops.add(new LoggedOp(kind, tableId, key, value));
            }
            if (in.hasRemaining()) {
                throw new CorruptionException("trailing bytes after batch in " + where);
            }
            return new Decoded(first, ops);
        } catch (RuntimeException e) {
            throw new CorruptionException("malformed batch in " + where + ": " + e);
        }
    }
}
