package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.StorageOrder;
import dev.cairn.engine.Table;
import dev.cairn.engine.WriteBatch;
import dev.cairn.engine.Row;
import java.io.IOException;

/** A named table: a handle carrying the table id that prefixes its internal keys. */
final class TableImpl implements Table {
    private final TableOps db;
    private final String name;
    private final int id;

    TableImpl(TableOps db, String name, int id) {
        this.db = db;
        this.name = name;
        this.id = id;
    }

    int id() {
        return id;
    }

    TableOps db() {
        return db;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public byte[] get(byte[] key, ReadOptions options) throws IOException {
        return db.get(this, key, options);
    }

    @Override
    public void put(byte[] key, byte[] value) throws IOException {
        db.write(new WriteBatch().put(this, key, value));
    }

    @Override
    public void putRow(byte[] key, Row row) throws IOException {
        put(key, db.encodeRow(this, row));
    }

    @Override
    public Row getRow(byte[] key, ReadOptions options) throws IOException {
        byte[] value = get(key, options);
        return value == null ? null : db.decodeRow(value);
    }

    @Override
    public byte[] encodeRow(Row row) throws IOException {
        return db.encodeRow(this, row);
    }

    @Override
    public Row decodeRow(byte[] value) throws CorruptionException {
        return db.decodeRow(value);
    }

    @Override
    public void delete(byte[] key) throws IOException {
        db.write(new WriteBatch().delete(this, key));
    }

    @Override
    public EntryIterator scan(KeyRange range, ReadOptions options) throws IOException {
        return db.scan(this, range, options);
    }

    @Override
    public void scanInStorageOrder(KeyRange range, ReadOptions options, StorageOrder.Filter filter,
                                   StorageOrder.Visitor visitor) throws IOException {
        db.scanInStorageOrder(this, range, options, filter, visitor, STORAGE_ORDER_BATCH);
    }

    @Override
    public String toString() {
        return "Table[" + name + "#" + id + "]";
    }
}
