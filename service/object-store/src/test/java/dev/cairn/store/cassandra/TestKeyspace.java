package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.cairn.store.BytesContent;
import dev.cairn.store.ContentSource;
import java.nio.charset.StandardCharsets;

/**
 * One test class's keyspace on the local test cluster, with the store's schema in it: its
 * settings and the session the tests of this JVM share (do not close it).
 */
record TestKeyspace(CassandraSettings settings, CqlSession session) {

    /** The keyspace, its schema created where missing; on a cluster reused from an earlier run it keeps that run's rows. */
    static TestKeyspace of(String name) {
        return onCluster(name).withSchema();
    }

    /**
     * The keyspace dropped and created again, for tests that read whole tables. Dropped rather
     * than truncated: TRUNCATE keeps the tables' Paxos state, which can re-commit an earlier
     * run's row into the emptied table.
     */
    static TestKeyspace empty(String name) {
        TestKeyspace keyspace = onCluster(name);
        keyspace.session.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + name)
                .setTimeout(keyspace.settings.getSchemaTimeout()));
        return keyspace.withSchema();
    }

    private static TestKeyspace onCluster(String name) {
        return new TestKeyspace(LocalCassandraCluster.settings(name), LocalCassandraCluster.sharedSession());
    }

    private TestKeyspace withSchema() {
        CassandraObjectStore.createSchema(session, settings);
        return this;
    }

    static ContentSource content(String text) {
        return BytesContent.of(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A store on the shared session. */
    CassandraObjectStore store() {
        return storeOn(session);
    }

    /** A store on the given session, which it leaves open. */
    CassandraObjectStore storeOn(CqlSession on) {
        return new CassandraObjectStore(on, false, settings);
    }

    /** A session of its own that reports every statement it completes to {@code trace}; the caller closes it. */
    CqlSession traced(StatementTrace trace) {
        return CassandraSessions.connect(settings, settings.getLocalDatacenter(), settings.getContactPoints(), trace);
    }
}
