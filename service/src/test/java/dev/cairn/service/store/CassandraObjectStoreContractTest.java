package dev.cairn.service.store;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.cairn.service.store.cassandra.CassandraObjectStore;
import dev.cairn.service.store.cassandra.CassandraSettings;
import dev.cairn.service.store.cassandra.LocalCassandraCluster;
import java.io.IOException;
import java.time.Duration;

/** The store contract on the Cassandra store, against the local test cluster; tables emptied per test. */
class CassandraObjectStoreContractTest extends ObjectStoreContractTest {
    private static final String KEYSPACE = "contract";

    @Override
    protected ObjectStore open() throws IOException {
        CassandraSettings settings = LocalCassandraCluster.settings(KEYSPACE);
        CqlSession session = LocalCassandraCluster.sharedSession();
        // Lightweight transactions keep Paxos state per table that TRUNCATE leaves behind, and
        // Paxos may re-commit a bucket row of an earlier test; a new table starts clean.
        session.execute(SimpleStatement.newInstance("DROP TABLE IF EXISTS " + KEYSPACE + ".buckets")
                .setTimeout(Duration.ofSeconds(60)));
        CassandraObjectStore.createSchema(session, settings);
        for (String table : CassandraObjectStore.tables()) {
            if (table.equals("buckets")) {
                continue;
            }
            session.execute(SimpleStatement.newInstance("TRUNCATE " + KEYSPACE + "." + table)
                    .setTimeout(Duration.ofSeconds(60)));
        }
        return new CassandraObjectStore(session, false, settings);
    }
}
