package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The keyspace and tables of the Cassandra store; docs/cassandra-internals.md explains each table and
 * every query on it. Stateless; thread-safe.
 */
final class CassandraSchema {
    /** Partitions per directory of the listing index. DO NOT CHANGE: embedded in stored data. */
    static final int DIRECTORY_SHARDS = 8;
    /** Bytes per content chunk (the last chunk is shorter). DO NOT CHANGE: embedded in stored data. */
    static final int CHUNK_BYTES = 512 * 1024;

    static final List<String> TABLES = List.of(
            "CREATE TABLE IF NOT EXISTS buckets (name text PRIMARY KEY, created bigint, acl int)",
            "CREATE TABLE IF NOT EXISTS objects (bucket text, key text, row blob, PRIMARY KEY ((bucket, key)))",
            "CREATE TABLE IF NOT EXISTS directory (bucket text, dir text, shard int, name text, row blob,"
                    + " PRIMARY KEY ((bucket, dir, shard), name))",
            "CREATE TABLE IF NOT EXISTS writes (bucket text, kind int, slot text, wid blob, sha256 text,"
                    + " PRIMARY KEY ((bucket, kind, slot), wid))",
            "CREATE TABLE IF NOT EXISTS refs (sha256 text, kind int, bucket text, slot text, wid blob,"
                    + " PRIMARY KEY (sha256, kind, bucket, slot, wid))",
            "CREATE TABLE IF NOT EXISTS contents (sha256 text, generation timeuuid, size bigint, chunk_bytes int,"
                    + " complete boolean, dooms set<timeuuid>, PRIMARY KEY (sha256, generation))",
            "CREATE TABLE IF NOT EXISTS chunks (sha256 text, generation timeuuid, chunk int, data blob,"
                    + " PRIMARY KEY ((sha256, generation, chunk)))",
            "CREATE TABLE IF NOT EXISTS uploads (bucket text, key text, upload_id text, row blob,"
                    + " PRIMARY KEY (bucket, key, upload_id))",
            "CREATE TABLE IF NOT EXISTS parts (upload_id text, part_number int, row blob,"
                    + " PRIMARY KEY (upload_id, part_number))",
            "CREATE TABLE IF NOT EXISTS layouts (bucket text, key text, row blob, PRIMARY KEY ((bucket, key)))",
            "CREATE TABLE IF NOT EXISTS key_locks (bucket text, key text, holder uuid, PRIMARY KEY ((bucket, key)))",
            "CREATE TABLE IF NOT EXISTS versions (bucket text, key text, sort blob, row blob, layout blob,"
                    + " PRIMARY KEY ((bucket, key), sort))",
            "CREATE TABLE IF NOT EXISTS version_directory (bucket text, dir text, shard int, name text,"
                    + " PRIMARY KEY ((bucket, dir, shard), name))");

    /** Columns added to tables after they were first created: table, column, CQL type. */
    private static final List<String[]> ADDED_COLUMNS = List.<String[]>of(new String[] {"buckets", "versioning", "int"},
            new String[] {"buckets", "documents", "map<text, text>"});

    static final List<String> TABLE_NAMES = List.of(
            "buckets", "objects", "directory", "writes", "refs", "contents", "chunks", "uploads", "parts", "layouts",
            "key_locks", "versions", "version_directory");

    private CassandraSchema() {
    }

    static String createKeyspace(String keyspace, Map<String, Integer> replication) {
        String dcs = replication.entrySet().stream()
                .map(e -> "'" + e.getKey() + "': " + e.getValue())
                .collect(Collectors.joining(", "));
        return "CREATE KEYSPACE IF NOT EXISTS " + keyspace
                + " WITH replication = {'class': 'NetworkTopologyStrategy', " + dcs + "}";
    }

    /** Creates what is missing, waiting for schema agreement after each change. */
    static void create(CqlSession session, String keyspace, Map<String, Integer> replication, Duration timeout) {
        session.execute(SimpleStatement.newInstance(createKeyspace(keyspace, replication)).setTimeout(timeout));
        for (String ddl : TABLES) {
            session.execute(SimpleStatement.newInstance(ddl.replace("CREATE TABLE IF NOT EXISTS ",
                    "CREATE TABLE IF NOT EXISTS " + keyspace + ".")).setTimeout(timeout));
        }
        session.refreshSchema();
        KeyspaceMetadata ks = session.getMetadata().getKeyspace(keyspace).orElseThrow();
        for (String[] c : ADDED_COLUMNS) {
            if (ks.getTable(c[0]).orElseThrow().getColumn(c[1]).isEmpty()) {
                session.execute(SimpleStatement.newInstance("ALTER TABLE " + keyspace + "." + c[0] + " ADD " + c[1] + " " + c[2])
                        .setTimeout(timeout));
            }
        }
    }

    /** Throws IllegalStateException naming what is missing. */
    static void verify(CqlSession session, String keyspace) {
        session.refreshSchema();
        Optional<KeyspaceMetadata> ks = session.getMetadata().getKeyspace(keyspace);
        if (ks.isEmpty()) {
            throw new IllegalStateException("keyspace " + keyspace
                    + " does not exist; create it (cairn.cassandra.create-schema=true) or point cairn.cassandra.keyspace at it");
        }
        for (String table : TABLE_NAMES) {
            if (ks.get().getTable(table).isEmpty()) {
                throw new IllegalStateException("table " + keyspace + "." + table + " does not exist");
            }
        }
        for (String[] c : ADDED_COLUMNS) {
            if (ks.get().getTable(c[0]).orElseThrow().getColumn(c[1]).isEmpty()) {
                throw new IllegalStateException("column " + c[1] + " of table " + keyspace + "." + c[0] + " does not exist");
            }
        }
    }
}
