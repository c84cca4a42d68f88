package dev.cairn.store;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSettings;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;

/**
 * The store contract on the Cassandra store, against the local test cluster. Before each test
 * every row is deleted (ordinary deletes, cheaper than TRUNCATE; and TRUNCATE would leave the
 * Paxos state of the buckets table behind, which can re-commit an earlier test's bucket).
 */
@Tag("integration")
class CassandraObjectStoreContractTest extends ObjectStoreContractTest {
    private static final String KEYSPACE = "contract";
    private static boolean schemaCreated;

    @Override
    protected ObjectStore open() throws IOException {
        CassandraSettings settings = LocalCassandraCluster.settings(KEYSPACE);
        CqlSession session = LocalCassandraCluster.sharedSession();
        if (!schemaCreated) {
            CassandraObjectStore.createSchema(session, settings);
            session.refreshSchema();
            schemaCreated = true;
        }
        KeyspaceMetadata ks = session.getMetadata().getKeyspace(KEYSPACE).orElseThrow();
        for (String table : CassandraObjectStore.tables()) {
            deleteAllRows(session, ks.getTable(table).orElseThrow());
        }
        return settledFirst(new CassandraObjectStore(session, false, settings));
    }

    /** A bucket's documents are in its row: a store opened later (a restarted service, another node) reads them. */
    @org.junit.jupiter.api.Test
    void bucketDocumentsAreReadByAStoreOpenedAfterwards() throws IOException {
        store.createBucket("kept", BucketAcl.PUBLIC_READ);
        store.setBucketVersioning("kept", Versioning.ENABLED);
        store.setBucketDocument(BucketDocument.of("kept", BucketDocument.CORS, "<CORSConfiguration/>"));
        CassandraSettings settings = LocalCassandraCluster.settings(KEYSPACE);
        try (CassandraObjectStore restarted = new CassandraObjectStore(LocalCassandraCluster.sharedSession(), false, settings)) {
            BucketInfo b = restarted.bucket("kept");
            org.junit.jupiter.api.Assertions.assertEquals("<CORSConfiguration/>", b.document(BucketDocument.CORS));
            org.junit.jupiter.api.Assertions.assertEquals(Versioning.ENABLED, b.versioning());
            org.junit.jupiter.api.Assertions.assertEquals(BucketAcl.PUBLIC_READ, b.acl());
            restarted.setBucketDocument(BucketDocument.removed("kept", BucketDocument.CORS));
        }
        try (CassandraObjectStore again = new CassandraObjectStore(LocalCassandraCluster.sharedSession(), false, settings)) {
            org.junit.jupiter.api.Assertions.assertNull(again.bucket("kept").document(BucketDocument.CORS));
        }
    }

    /**
     * The store, looking at content only once the bookkeeping of every answered write is done:
     * the contract's "reclaimed with its last reference" holds once that settles, not the moment
     * an overwrite is answered.
     */
    static ObjectStore settledFirst(CassandraObjectStore cassandra) {
        return new ForwardingObjectStore(cassandra) {
            @Override
            public ContentRead getContent(String sha256) throws IOException {
                awaitSettled();
                return super.getContent(sha256);
            }

            @Override
            public boolean isContentPublic(String sha256) throws IOException {
                awaitSettled();
                return super.isContentPublic(sha256);
            }

            private void awaitSettled() throws IOException {
                try {
                    cassandra.awaitSettled();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException();
                }
            }
        };
    }

    private static void deleteAllRows(CqlSession session, TableMetadata table) {
        List<String> key = table.getPartitionKey().stream().map(c -> c.getName().asCql(true)).toList();
        String name = KEYSPACE + "." + table.getName().asCql(true);
        PreparedStatement delete = session.prepare("DELETE FROM " + name + " WHERE "
                + String.join(" AND ", key.stream().map(c -> c + " = ?").toList()));
        List<CompletableFuture<AsyncResultSet>> deletes = new ArrayList<>();
        for (Row r : session.execute(SimpleStatement.newInstance("SELECT DISTINCT " + String.join(", ", key) + " FROM " + name)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM))) {
            Object[] values = new Object[key.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = r.getObject(i);
            }
            deletes.add(session.executeAsync(delete.bind(values).setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM))
                    .toCompletableFuture());
        }
        deletes.forEach(CompletableFuture::join);
    }
}
