package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

/**
 * Every query of the Cassandra store, prepared once; docs/cassandra-internals.md lists them by table.
 * Thread-safety: immutable.
 */
final class Statements {
    final PreparedStatement insertBucket;
    final PreparedStatement selectBucket;
    final PreparedStatement selectBuckets;
    final PreparedStatement updateBucketAcl;
    final PreparedStatement deleteBucket;
    final PreparedStatement updateBucketVersioning;
    final PreparedStatement updateBucketDocument;
    final PreparedStatement deleteBucketDocument;

    final PreparedStatement insertObject;
    final PreparedStatement selectObject;
    final PreparedStatement selectObjectStamped;
    final PreparedStatement deleteObject;

    final PreparedStatement insertLayout;
    final PreparedStatement selectLayout;
    final PreparedStatement deleteLayout;

    final PreparedStatement insertEntry;
    final PreparedStatement deleteEntry;
    final PreparedStatement insertMarker;
    final PreparedStatement selectEntriesFrom;
    final PreparedStatement selectEntriesAfter;

    final PreparedStatement insertWrite;
    final PreparedStatement selectWrites;
    final PreparedStatement deleteWrite;
    final PreparedStatement deleteWritesBelow;

    final PreparedStatement insertRef;
    final PreparedStatement insertLease;
    final PreparedStatement deleteRef;
    final PreparedStatement selectAnyRef;
    final PreparedStatement selectRefs;
    final PreparedStatement selectHolder;
    final PreparedStatement selectObjectRefs;

    final PreparedStatement selectGenerations;
    final PreparedStatement selectGeneration;
    final PreparedStatement insertGeneration;
    final PreparedStatement completeGeneration;
    final PreparedStatement insertCompleteGeneration;
    final PreparedStatement addDoom;
    final PreparedStatement removeDoom;
    final PreparedStatement deleteGeneration;

    final PreparedStatement insertChunk;
    final PreparedStatement selectChunk;
    final PreparedStatement deleteChunk;

    final PreparedStatement insertUpload;
    final PreparedStatement selectUpload;
    final PreparedStatement selectUploads;
    final PreparedStatement selectUploadsFrom;
    final PreparedStatement selectUploadsAfterKey;
    final PreparedStatement selectUploadsAfterId;
    final PreparedStatement deleteUpload;

    final PreparedStatement insertPart;
    final PreparedStatement selectPart;
    final PreparedStatement selectParts;
    final PreparedStatement selectPartsAfter;
    final PreparedStatement deletePart;

    final PreparedStatement insertVersion;
    final PreparedStatement deleteVersion;
    final PreparedStatement selectVersions;
    final PreparedStatement selectNewestVersion;
    final PreparedStatement selectVersion;
    final PreparedStatement insertVersionKey;
    final PreparedStatement deleteVersionKey;
    final PreparedStatement selectVersionKeysFrom;
    final PreparedStatement selectVersionKeysAfter;

    final PreparedStatement acquireKeyLock;
    final PreparedStatement releaseKeyLock;
    final PreparedStatement selectKeyLock;

    Statements(CqlSession s, String ks) {
        insertBucket = s.prepare("INSERT INTO " + ks + ".buckets (name, created, acl) VALUES (?, ?, ?) IF NOT EXISTS");
        selectBucket = s.prepare("SELECT created, acl, versioning, documents FROM " + ks + ".buckets WHERE name = ?");
        selectBuckets = s.prepare("SELECT name, created, acl, versioning, documents FROM " + ks + ".buckets");
        updateBucketVersioning = s.prepare("UPDATE " + ks + ".buckets SET versioning = ? WHERE name = ? IF EXISTS");
        updateBucketDocument = s.prepare("UPDATE " + ks + ".buckets SET documents[?] = ? WHERE name = ? IF EXISTS");
        deleteBucketDocument = s.prepare("DELETE documents[?] FROM " + ks + ".buckets WHERE name = ? IF EXISTS");
        updateBucketAcl = s.prepare("UPDATE " + ks + ".buckets SET acl = ? WHERE name = ? IF EXISTS");
        deleteBucket = s.prepare("DELETE FROM " + ks + ".buckets WHERE name = ? IF EXISTS");

        insertObject = s.prepare("INSERT INTO " + ks + ".objects (bucket, key, row) VALUES (?, ?, ?)");
        selectObject = s.prepare("SELECT row FROM " + ks + ".objects WHERE bucket = ? AND key = ?");
        selectObjectStamped = s.prepare("SELECT row, writetime(row) AS ts FROM " + ks + ".objects WHERE bucket = ? AND key = ?");
        deleteObject = s.prepare("DELETE FROM " + ks + ".objects WHERE bucket = ? AND key = ?");

        insertLayout = s.prepare("INSERT INTO " + ks + ".layouts (bucket, key, row) VALUES (?, ?, ?)");
        selectLayout = s.prepare("SELECT row FROM " + ks + ".layouts WHERE bucket = ? AND key = ?");
        deleteLayout = s.prepare("DELETE FROM " + ks + ".layouts WHERE bucket = ? AND key = ?");

        insertEntry = s.prepare("INSERT INTO " + ks + ".directory (bucket, dir, shard, name, row) VALUES (?, ?, ?, ?, ?)");
        deleteEntry = s.prepare("DELETE FROM " + ks + ".directory WHERE bucket = ? AND dir = ? AND shard = ? AND name = ?");
        insertMarker = s.prepare("INSERT INTO " + ks + ".directory (bucket, dir, shard, name) VALUES (?, ?, ?, ?)");
        selectEntriesFrom = s.prepare("SELECT name, row FROM " + ks
                + ".directory WHERE bucket = ? AND dir = ? AND shard = ? AND name >= ?");
        selectEntriesAfter = s.prepare("SELECT name, row FROM " + ks
                + ".directory WHERE bucket = ? AND dir = ? AND shard = ? AND name > ?");

        // Every mutation of writes carries a timestamp of the store's own clock (WriteId.Generator.nextMicros).
        insertWrite = s.prepare("INSERT INTO " + ks + ".writes (bucket, kind, slot, wid, sha256) VALUES (?, ?, ?, ?, ?)"
                + " USING TIMESTAMP ?");
        selectWrites = s.prepare("SELECT wid, sha256, writetime(sha256) AS ts FROM " + ks
                + ".writes WHERE bucket = ? AND kind = ? AND slot = ?");
        deleteWrite = s.prepare("DELETE FROM " + ks + ".writes USING TIMESTAMP ? WHERE bucket = ? AND kind = ? AND slot = ?"
                + " AND wid = ?");
        deleteWritesBelow = s.prepare("DELETE FROM " + ks + ".writes USING TIMESTAMP ? WHERE bucket = ? AND kind = ?"
                + " AND slot = ? AND wid < ?");

        insertRef = s.prepare("INSERT INTO " + ks + ".refs (sha256, kind, bucket, slot, wid) VALUES (?, ?, ?, ?, ?)");
        insertLease = s.prepare("INSERT INTO " + ks + ".refs (sha256, kind, bucket, slot, wid) VALUES (?, "
                + CassandraKeys.KIND_READ + ", '', ?, ?) USING TTL ?");
        deleteRef = s.prepare("DELETE FROM " + ks + ".refs WHERE sha256 = ? AND kind = ? AND bucket = ? AND slot = ? AND wid = ?");
        selectAnyRef = s.prepare("SELECT kind FROM " + ks + ".refs WHERE sha256 = ? LIMIT 1");
        selectRefs = s.prepare("SELECT kind, bucket, slot, wid FROM " + ks + ".refs WHERE sha256 = ? LIMIT ?");
        selectHolder = s.prepare("SELECT kind FROM " + ks + ".refs WHERE sha256 = ? AND kind IN ("
                + CassandraKeys.KIND_OBJECT + ", " + CassandraKeys.KIND_PART + ", " + CassandraKeys.KIND_VERSION + ") LIMIT 1");
        selectObjectRefs = s.prepare("SELECT kind, bucket, slot FROM " + ks + ".refs WHERE sha256 = ? AND kind IN ("
                + CassandraKeys.KIND_OBJECT + ", " + CassandraKeys.KIND_VERSION + ")");

        selectGenerations = s.prepare("SELECT generation, size, complete, dooms FROM " + ks + ".contents WHERE sha256 = ?");
        selectGeneration = s.prepare("SELECT generation, size, complete, dooms FROM " + ks
                + ".contents WHERE sha256 = ? AND generation = ?");
        insertGeneration = s.prepare("INSERT INTO " + ks + ".contents (sha256, generation, size, chunk_bytes) VALUES (?, ?, ?, ?)");
        completeGeneration = s.prepare("UPDATE " + ks + ".contents SET complete = true WHERE sha256 = ? AND generation = ?");
        insertCompleteGeneration = s.prepare("INSERT INTO " + ks
                + ".contents (sha256, generation, size, chunk_bytes, complete) VALUES (?, ?, ?, ?, true)");
        addDoom = s.prepare("UPDATE " + ks + ".contents SET dooms = dooms + ? WHERE sha256 = ? AND generation = ?");
        removeDoom = s.prepare("UPDATE " + ks + ".contents SET dooms = dooms - ? WHERE sha256 = ? AND generation = ?");
        deleteGeneration = s.prepare("DELETE FROM " + ks + ".contents WHERE sha256 = ? AND generation = ?");

        insertChunk = s.prepare("INSERT INTO " + ks + ".chunks (sha256, generation, chunk, data) VALUES (?, ?, ?, ?)");
        selectChunk = s.prepare("SELECT data FROM " + ks + ".chunks WHERE sha256 = ? AND generation = ? AND chunk = ?");
        deleteChunk = s.prepare("DELETE FROM " + ks + ".chunks WHERE sha256 = ? AND generation = ? AND chunk = ?");

        insertUpload = s.prepare("INSERT INTO " + ks + ".uploads (bucket, key, upload_id, row) VALUES (?, ?, ?, ?)");
        selectUpload = s.prepare("SELECT row FROM " + ks + ".uploads WHERE bucket = ? AND key = ? AND upload_id = ?");
        selectUploads = s.prepare("SELECT key, upload_id FROM " + ks + ".uploads WHERE bucket = ?");
        selectUploadsFrom = s.prepare("SELECT key, upload_id, row FROM " + ks + ".uploads WHERE bucket = ? AND key >= ?");
        selectUploadsAfterKey = s.prepare("SELECT key, upload_id, row FROM " + ks + ".uploads WHERE bucket = ? AND key > ?");
        selectUploadsAfterId = s.prepare("SELECT key, upload_id, row FROM " + ks
                + ".uploads WHERE bucket = ? AND (key, upload_id) > (?, ?)");
        deleteUpload = s.prepare("DELETE FROM " + ks + ".uploads WHERE bucket = ? AND key = ? AND upload_id = ?");

        insertPart = s.prepare("INSERT INTO " + ks + ".parts (upload_id, part_number, row) VALUES (?, ?, ?)");
        selectPart = s.prepare("SELECT row FROM " + ks + ".parts WHERE upload_id = ? AND part_number = ?");
        selectParts = s.prepare("SELECT part_number, row FROM " + ks + ".parts WHERE upload_id = ?");
        selectPartsAfter = s.prepare("SELECT part_number, row FROM " + ks
                + ".parts WHERE upload_id = ? AND part_number > ? LIMIT ?");
        deletePart = s.prepare("DELETE FROM " + ks + ".parts WHERE upload_id = ? AND part_number = ?");

        insertVersion = s.prepare("INSERT INTO " + ks + ".versions (bucket, key, sort, row, layout) VALUES (?, ?, ?, ?, ?)");
        deleteVersion = s.prepare("DELETE FROM " + ks + ".versions WHERE bucket = ? AND key = ? AND sort = ?");
        String versionColumns = "SELECT sort, row, layout, writetime(row) AS ts FROM " + ks + ".versions WHERE bucket = ? AND key = ?";
        selectVersions = s.prepare(versionColumns);
        selectNewestVersion = s.prepare(versionColumns + " LIMIT 1");
        selectVersion = s.prepare(versionColumns + " AND sort = ?");
        insertVersionKey = s.prepare("INSERT INTO " + ks + ".version_directory (bucket, dir, shard, name) VALUES (?, ?, ?, ?)");
        deleteVersionKey = s.prepare("DELETE FROM " + ks + ".version_directory WHERE bucket = ? AND dir = ? AND shard = ? AND name = ?");
        selectVersionKeysFrom = s.prepare("SELECT name FROM " + ks
                + ".version_directory WHERE bucket = ? AND dir = ? AND shard = ? AND name >= ?");
        selectVersionKeysAfter = s.prepare("SELECT name FROM " + ks
                + ".version_directory WHERE bucket = ? AND dir = ? AND shard = ? AND name > ?");

        acquireKeyLock = s.prepare("INSERT INTO " + ks + ".key_locks (bucket, key, holder) VALUES (?, ?, ?) IF NOT EXISTS USING TTL ?");
        releaseKeyLock = s.prepare("DELETE FROM " + ks + ".key_locks WHERE bucket = ? AND key = ? IF holder = ?");
        selectKeyLock = s.prepare("SELECT holder FROM " + ks + ".key_locks WHERE bucket = ? AND key = ?");
    }
}
