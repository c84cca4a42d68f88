package dev.cairn.store.cassandra;

/**
 * The key layout beyond the table definitions ({@link CassandraSchema}): the kinds of slot a
 * write is recorded under in {@code writes} and {@code refs}, and how a part names its slot.
 * Where a key is listed is {@link DirectoryIndex#entryOf}. docs/cassandra.md, "Data model".
 * Stateless; thread-safe.
 */
final class CassandraKeys {
    /** DO NOT CHANGE (this and the next two): embedded in stored data. A slot that is an object's key. */
    static final int KIND_OBJECT = 0;
    /** A slot that is a part of an upload, {@link #partSlot}. */
    static final int KIND_PART = 1;
    /** A reader's lease on content: bucket empty, slot random, in {@code refs} only, with a TTL. */
    static final int KIND_READ = 2;

    private CassandraKeys() {
    }

    static String partSlot(String uploadId, int partNumber) {
        return uploadId + "/" + partNumber;
    }
}
