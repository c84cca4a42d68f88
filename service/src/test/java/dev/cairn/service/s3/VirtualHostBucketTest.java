package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class VirtualHostBucketTest {
    private static final List<String> DOMAINS = List.of("localhost", "s3.Example.com");

    @Test
    void aHostUnderADomainNamesItsBucketInLowercase() {
        assertEquals("photos", S3Request.virtualHostBucket("photos.localhost", DOMAINS));
        assertEquals("photos", S3Request.virtualHostBucket("Photos.S3.EXAMPLE.com", DOMAINS));
        assertEquals("a.b", S3Request.virtualHostBucket("a.b.s3.example.com", DOMAINS));
        assertEquals("x", S3Request.virtualHostBucket("x.localhost", DOMAINS));
    }

    @Test
    void aDomainItselfOrAHostMerelyEndingLikeOneNamesNoBucket() {
        assertNull(S3Request.virtualHostBucket("localhost", DOMAINS));
        assertNull(S3Request.virtualHostBucket(".localhost", DOMAINS));
        assertNull(S3Request.virtualHostBucket("mylocalhost", DOMAINS));
        assertNull(S3Request.virtualHostBucket("127.0.0.1", DOMAINS));
        assertNull(S3Request.virtualHostBucket("photos.example.com", DOMAINS));
        assertNull(S3Request.virtualHostBucket(null, DOMAINS));
        assertNull(S3Request.virtualHostBucket("photos.localhost", List.of()));
    }

    @Test
    void nonAsciiHostsAndDomainsCompareAsLowercasedText() {
        assertEquals("bücher", S3Request.virtualHostBucket("BÜCHER.localhost", DOMAINS));
        assertEquals("photos", S3Request.virtualHostBucket("photos.straße.test", List.of("STRASSE.test", "straße.TEST")));
    }
}
