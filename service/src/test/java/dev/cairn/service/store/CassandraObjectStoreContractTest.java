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
    private static boolean schemaCreated;

    @Override
    protected ObjectStore open() throws IOException {
        CassandraSettings settings = LocalCassandraCluster.settings(KEYSPACE);
        CqlSession session = LocalCassandraCluster.sharedSession();
        if (!schemaCreated) {
            CassandraObjectStore.createSchema(session, settings);
            schemaCreated = true;
        }
        for (String table : CassandraObjectStore.tables()) {
            session.execute(SimpleStatement.newInstance("TRUNCATE " + KEYSPACE + "." + table)
                    .setTimeout(Duration.ofSeconds(60)));
        }
        return new CassandraObjectStore(session, false, settings);
    }
}
