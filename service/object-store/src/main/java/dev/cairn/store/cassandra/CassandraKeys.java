package dev.cairn.store.cassandra;

/**
 * The key layout beyond the table definitions ({@link CassandraSchema}): the kinds of slot a
 * write is recorded under in {@code writes} and {@code refs}, and how a part names its slot.
 * Where a key is listed is {@link DirectoryIndex#entryOf}. docs/cassandra-internals.md, "Data model".
 * Stateless; thread-safe.
 */
final class CassandraKeys {
    /** DO NOT CHANGE (this and the next three): embedded in stored data. A slot that is an object's key. */
    static final int KIND_OBJECT = 0;
    /** A slot that is a part of an upload, {@link #partSlot}. */
    static final int KIND_PART = 1;
    /** A reader's lease on content: bucket empty, slot random, in {@code refs} only, with a TTL. */
    static final int KIND_READ = 2;
    /**
     * A version of a key written while its bucket's versioning was Enabled, {@link #versionSlot}:
     * no later write settles it; only deleting that version releases it.
     */
    static final int KIND_VERSION = 3;

    private CassandraKeys() {
    }

    static String partSlot(String uploadId, int partNumber) {
        return uploadId + "/" + partNumber;
    }

    /** The slot of a version with an id: the key, {@code 0x00} (no key holds it), the version id. */
    static String versionSlot(String key, String versionId) {
        return key + "\u0000" + versionId;
    }

    /** The key of a {@link #versionSlot}. */
    static String keyOfVersionSlot(String slot) {
        return slot.substring(0, slot.lastIndexOf('\u0000'));
    }
}
