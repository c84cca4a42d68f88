package dev.cairn.store.cassandra;

import dev.cairn.store.Hex;
import dev.cairn.store.ObjectInfo;
import java.nio.ByteBuffer;

/**
 * The cell of table {@code layouts}: the part sizes a multipart object was completed from, so
 * that GetObject by {@code partNumber} can find its byte range. One blob cell, written in the
 * object row's batch at the same timestamp, so it converges to the same write as the row:
 * write id (16 bytes), format version (1 byte, value 1), the object's SHA-256 (32 bytes), the
 * part count (4 bytes) and each part's size (8 bytes), big-endian. Byte by byte in
 * docs/format/object-record.md ("Cassandra layout cell"). Stateless; thread-safe.
 */
final class PartLayout {
    /** DO NOT CHANGE: embedded in stored data. */
    static final int VERSION = 1;
    private static final int MAX_PARTS = 10_000;

    private PartLayout() {
    }

    static ByteBuffer encode(WriteId wid, String sha256, long[] sizes) {
        ByteBuffer b = ByteBuffer.allocate(WriteId.LENGTH + 1 + 32 + 4 + 8 * sizes.length);
        b.put(wid.bytes()).put((byte) VERSION).put(Hex.decode(sha256)).putInt(sizes.length);
        for (long s : sizes) {
            b.putLong(s);
        }
        return b.flip();
    }

    /**
     * The part sizes in {@code cell} when it describes {@code info} as read, whose row was written
     * under {@code rowWriteId} (same write, content, part count and total size); null when it
     * describes another version of the key. The write id, not the time: a restored row keeps the
     * time it was first written, under a write id of now.
     */
    static long[] sizesOf(ByteBuffer cell, ObjectInfo info, WriteId rowWriteId) {
        ByteBuffer b = cell.duplicate();
        byte[] wid = new byte[WriteId.LENGTH];
        b.get(wid);
        int version = b.get() & 0xff;
        if (version != VERSION) {
            throw new IllegalStateException("a part layout cell has format " + version + ", this version reads " + VERSION);
        }
        byte[] sha = new byte[32];
        b.get(sha);
        int count = b.getInt();
        if (count < 1 || count > MAX_PARTS || b.remaining() != 8L * count) {
            throw new IllegalStateException("a part layout cell is malformed: " + count + " parts in " + cell.remaining() + " bytes");
        }
        long[] sizes = new long[count];
        long total = 0;
        for (int i = 0; i < count; i++) {
            sizes[i] = b.getLong();
            total += sizes[i];
        }
        boolean same = Hex.encode(sha).equals(info.sha256()) && count == info.partCount() && total == info.size()
                && new WriteId(wid).equals(rowWriteId);
        return same ? sizes : null;
    }
}
