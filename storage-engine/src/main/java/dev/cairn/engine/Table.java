package dev.cairn.engine;

import java.io.IOException;

/** One named key space of an {@link Engine}. Keys and values are arbitrary bytes; keys sort unsigned. */
public interface Table {

    String name();

    /**
     * The value, or null when absent. The array may be shared with the row cache: do not modify
     * it.
     */
    default byte[] get(byte[] key) throws IOException {
        return get(key, ReadOptions.DEFAULT);
    }

    byte[] get(byte[] key, ReadOptions options) throws IOException;

    /** Durable (per the sync policy) when it returns. */
    void put(byte[] key, byte[] value) throws IOException;

    /**
     * Stores a row of named columns. The row carries a schema id from the catalogue instead of
     * its column names (self-describing when the table's columns vary too much); see
     * docs/format/row.md.
     */
    void putRow(byte[] key, Row row) throws IOException;

    /** The row, or null when absent. */
    default Row getRow(byte[] key) throws IOException {
        return getRow(key, ReadOptions.DEFAULT);
    }

    Row getRow(byte[] key, ReadOptions options) throws IOException;

    /**
     * The stored form of {@code row} in this table, as {@link #putRow} would store it, for a
     * {@link WriteBatch}; any new catalogue id it uses is durable when this returns.
     */
    byte[] encodeRow(Row row) throws IOException;

    /** Decodes a value stored by {@link #putRow} or {@link #encodeRow}, as a scan returns it. */
    Row decodeRow(byte[] value) throws CorruptionException;

    void delete(byte[] key) throws IOException;

    /** Entries in key order within the range; the iterator sees one consistent snapshot. */
    default EntryIterator scan(KeyRange range) throws IOException {
        return scan(range, ReadOptions.DEFAULT);
    }

    EntryIterator scan(KeyRange range, ReadOptions options) throws IOException;

    /**
     * Visits the entries of {@code range} that {@code filter} wants in the order their values are
     * stored, not in key order: for full traversals such as backups, which then read each value
     * file front to back in long sequential reads instead of one random read per value, and look
     * up no key. Values kept in the tree come first, in key order as the scan meets them; then
     * the values kept in value files, file by file in offset order. Entries are gathered
     * {@value #STORAGE_ORDER_BATCH} at a time, so a bigger range is visited in that many
     * key-ordered batches, each in storage order. The filter sees each key and its value's length
     * first; a value it rejects is not read, unless it lies in a short gap between wanted values
     * that one read covers, and is never visited. Every value visited has passed its checksum
     * ({@link CorruptionException} otherwise). The view is
     * one consistent snapshot (the options' or the latest), as for {@link #scan}; with
     * {@link ReadOptions#fillCache()} false nothing enters a cache.
     */
    void scanInStorageOrder(KeyRange range, ReadOptions options, StorageOrder.Filter filter,
                            StorageOrder.Visitor visitor) throws IOException;

    /** Entries gathered by {@link #scanInStorageOrder} before their values are read, at most. */
    int STORAGE_ORDER_BATCH = 1 << 18;
}
