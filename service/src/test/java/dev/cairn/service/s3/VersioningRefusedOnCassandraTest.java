package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.service.ServiceTestSupport;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The Cassandra store keeps no versions yet (docs/cassandra.md, "Versioning"): it refuses to
 * enable them with NotImplemented and serves every object as version {@code null}.
 */
@Tag("integration")
@TestPropertySource(properties = {
        "cairn.store=cassandra",
        "cairn.cassandra.contact-points=${" + LocalCassandraCluster.CONTACT_POINTS_PROPERTY + "}",
        "cairn.cassandra.keyspace=" + LocalCassandraCluster.SERVICE_KEYSPACE,
        "cairn.cassandra.request-timeout=10s"})
class VersioningRefusedOnCassandraTest extends ServiceTestSupport {
    static {
        LocalCassandraCluster.ensureRunning();
    }

    @Test
    void enablingVersionsIsNotImplementedAndObjectsAreVersionNull() {
        String bucket = uniqueBucket("cvers");
        s3.createBucket(b -> b.bucket(bucket));
        S3Exception refused = assertThrows(S3Exception.class, () -> s3.putBucketVersioning(b -> b.bucket(bucket)
                .versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED))));
        assertEquals(501, refused.statusCode());
        assertEquals("NotImplemented", refused.awsErrorDetails().errorCode());
        assertNull(s3.getBucketVersioning(b -> b.bucket(bucket)).status());

        s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("x"));
        assertEquals("x", s3.getObjectAsBytes(b -> b.bucket(bucket).key("k").versionId("null")).asUtf8String());
        assertEquals("null", s3.listObjectVersions(b -> b.bucket(bucket)).versions().get(0).versionId());
        S3Exception noVersion = assertThrows(S3Exception.class, () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("k")
                .versionId("-ENoX3KbVwL2fQ8c")));
        assertEquals("NoSuchVersion", noVersion.awsErrorDetails().errorCode());
        s3.deleteObject(b -> b.bucket(bucket).key("k").versionId("null"));
        assertEquals(0, s3.listObjectsV2(b -> b.bucket(bucket)).keyCount());
    }
}
