package dev.cairn.engine;

import java.io.IOException;

/** One named key space of an {@link Engine}. Keys and values are arbitrary bytes; keys sort unsigned. */
public interface Table {

    String name();

    /** The value, or null when absent. */
    default byte[] get(byte[] key) throws IOException {
        return get(key, ReadOptions.DEFAULT);
    }

    byte[] get(byte[] key, ReadOptions options) throws IOException;

    /** Durable (per the sync policy) when it returns. */
    void put(byte[] key, byte[] value) throws IOException;

    void delete(byte[] key) throws IOException;

    /** Entries in key order within the range; the iterator sees one consistent snapshot. */
    default EntryIterator scan(KeyRange range) throws IOException {
        return scan(range, ReadOptions.DEFAULT);
    }

    EntryIterator scan(KeyRange range, ReadOptions options) throws IOException;
}
