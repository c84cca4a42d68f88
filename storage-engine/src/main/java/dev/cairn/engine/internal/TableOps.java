package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.StorageOrder;
import dev.cairn.engine.Row;
import dev.cairn.engine.WriteBatch;
import java.io.IOException;

/** What a {@link TableImpl} handle asks of the engine that issued it (read-write or read-only). */
interface TableOps {
    byte[] get(TableImpl table, byte[] key, ReadOptions options) throws IOException;

    EntryIterator scan(TableImpl table, KeyRange range, ReadOptions options) throws IOException;

    /** {@link dev.cairn.engine.Table#scanInStorageOrder}, gathering {@code batchEntries} entries at a time. */
    void scanInStorageOrder(TableImpl table, KeyRange range, ReadOptions options, StorageOrder.Filter filter,
                            StorageOrder.Visitor visitor, int batchEntries) throws IOException;

    void write(WriteBatch batch) throws IOException;

    byte[] encodeRow(TableImpl table, Row row) throws IOException;

    Row decodeRow(byte[] encoded) throws CorruptionException;
}
