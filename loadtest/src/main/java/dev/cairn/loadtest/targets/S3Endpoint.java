package dev.cairn.loadtest.targets;

import java.net.URI;

/**
 * Where and how to reach an S3 service: endpoint, region, credentials, addressing style, bucket.
 *
 * <p>Thread-safety: immutable.
 */
public record S3Endpoint(URI endpoint, String region, String accessKey, String secretKey, boolean pathStyle,
                         String bucket) {

    /** The default region: the one Cairn reports. */
    public static final String DEFAULT_REGION = "us-east-1";

    public S3Endpoint {
        if (endpoint == null || endpoint.getScheme() == null || endpoint.getHost() == null) {
            throw new IllegalArgumentException("an S3 endpoint must be a URL such as http://127.0.0.1:9000, got " + endpoint);
        }
        if (accessKey == null || secretKey == null) {
            throw new IllegalArgumentException("an S3 endpoint needs an access key and a secret key"
                    + " (--access-key/--secret-key or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)");
        }
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("an S3 endpoint needs a bucket");
        }
    }

    /** The same service, another bucket. */
    public S3Endpoint withBucket(String otherBucket) {
        return new S3Endpoint(endpoint, region, accessKey, secretKey, pathStyle, otherBucket);
    }

    @Override
    public String toString() {
        return "S3Endpoint[" + endpoint + ", region=" + region + ", accessKey=" + accessKey
                + ", pathStyle=" + pathStyle + ", bucket=" + bucket + "]";
    }
}
