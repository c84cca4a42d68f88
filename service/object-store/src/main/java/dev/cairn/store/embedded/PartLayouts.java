package dev.cairn.store.embedded;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Table;
import dev.cairn.engine.WriteBatch;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The part sizes of objects completed from multipart uploads, so that GetObject can serve one
 * part by number: table {@code layouts}, keyed like {@code objects} (an older version: like its
 * {@code versions} row), written, moved and deleted in the batches that change those rows. Layout in docs/object-stores.md ("Embedded layout").
 * Stateless apart from its table; thread-safe.
 */
final class PartLayouts {
    private static final int FORMAT_VERSION = 1;

    private final Table table;

    PartLayouts(Table table) {
        this.table = table;
    }

    void put(WriteBatch batch, byte[] rowKey, String etag, long[] sizes) {
        byte[] e = etag.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(1 + 2 + e.length + 4 + 8 * sizes.length);
        b.put((byte) FORMAT_VERSION).putShort((short) e.length).put(e).putInt(sizes.length);
        for (long s : sizes) {
            b.putLong(s);
        }
        batch.put(table, rowKey, b.array());
    }

    void delete(WriteBatch batch, byte[] rowKey) {
        batch.delete(table, rowKey);
    }

    /**
     * Moves a layout to another key in {@code batch}, as read now (nothing when there is none):
     * from the current row's key to its {@code versions} row's key when a version stops being
     * current, and back when it becomes current again.
     */
    void move(WriteBatch batch, byte[] from, byte[] to) throws IOException {
        byte[] v = table.get(from);
        if (v != null) {
            batch.put(table, to, v);
        }
        batch.delete(table, from);
    }

    /**
     * The part sizes of a multipart object version as a scan reads it ({@code info}): the current
     * row's layout, or with {@code sort} (a version's place) the layout of that {@code versions}
     * row; null when the version is not multipart or its layout is not recorded.
     */
    long[] ofScanned(String bucket, ObjectInfo info, byte[] sort, dev.cairn.engine.ReadOptions options)
            throws IOException {
        if (info.partCount() == 0) {
            return null;
        }
        long[] sizes = read(EmbeddedKeys.objectKey(bucket, info.key()), info, options);
        if (sizes == null && sort != null) {
            sizes = read(EmbeddedVersions.rowKey(bucket, info.key(), sort), info, options);
        }
        return sizes;
    }

    /** The part sizes recorded for this version of the object (same ETag and size), or null. */
    long[] read(byte[] rowKey, ObjectInfo info) throws IOException {
        return read(rowKey, info, dev.cairn.engine.ReadOptions.DEFAULT);
    }

    long[] read(byte[] rowKey, ObjectInfo info, dev.cairn.engine.ReadOptions options) throws IOException {
        byte[] v = table.get(rowKey, options);
        if (v == null) {
            return null;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(v);
            if (b.get() != FORMAT_VERSION) {
                throw new CorruptionException("layouts/" + info.key() + ": unknown format version");
            }
            byte[] e = new byte[b.getShort()];
            b.get(e);
            long[] sizes = new long[b.getInt()];
            long total = 0;
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = b.getLong();
                total += sizes[i];
            }
            boolean current = new String(e, StandardCharsets.US_ASCII).equals(info.etag()) && total == info.size();
            return current ? sizes : null;
        } catch (java.nio.BufferUnderflowException | NegativeArraySizeException e) {
            throw new CorruptionException("layouts/" + info.key() + ": truncated row");
        }
    }
}
