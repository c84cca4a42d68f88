package dev.cairn.service.s3;

import dev.cairn.store.cassandra.LocalCassandraCluster;
import org.junit.jupiter.api.Tag;
import org.springframework.test.context.TestPropertySource;

/** {@link BucketCorsTest} with the service on the Cassandra store (the local test cluster). */
@Tag("integration")
@TestPropertySource(properties = {
        "cairn.store=cassandra",
        "cairn.cassandra.contact-points=${" + LocalCassandraCluster.CONTACT_POINTS_PROPERTY + "}",
        "cairn.cassandra.keyspace=" + LocalCassandraCluster.SERVICE_KEYSPACE,
        "cairn.cassandra.request-timeout=10s"})
class BucketCorsOnCassandraTest extends BucketCorsTest {
    static {
        LocalCassandraCluster.ensureRunning();
    }
}
