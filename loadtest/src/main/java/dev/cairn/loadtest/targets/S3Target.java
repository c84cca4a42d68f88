package dev.cairn.loadtest.targets;

import java.time.Duration;
import java.util.function.Predicate;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An S3 service through the AWS SDK for Java v2 (blocking Apache client): GET, PUT,
 * ListObjectsV2, and for soaks CopyObject, DELETE and one-part multipart uploads. Retries are off and checksums are computed only where S3 requires them, so
 * every failure is counted and the client does no more work per request than S3 asks.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class S3Target implements Target {

    private final S3Endpoint endpoint;
    private final S3Client s3;

    public S3Target(S3Endpoint endpoint, int connections, int timeoutMillis) {
        this.endpoint = endpoint;
        this.s3 = S3Client.builder()
                .endpointOverride(endpoint.endpoint())
                .region(Region.of(endpoint.region()))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(endpoint.accessKey(), endpoint.secretKey())))
                .forcePathStyle(endpoint.pathStyle())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build())
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())
                        .apiCallAttemptTimeout(Duration.ofMillis(timeoutMillis)))
                .httpClient(ApacheHttpClient.builder()
                        .maxConnections(Math.max(1, connections))
                        .connectionTimeout(Duration.ofMillis(Math.min(timeoutMillis, 5_000)))
                        .socketTimeout(Duration.ofMillis(timeoutMillis))
                        .build())
                .build();
    }

    public S3Endpoint endpoint() {
        return endpoint;
    }

    @Override
    public String describe() {
        return "s3 " + endpoint.endpoint() + " bucket " + endpoint.bucket();
    }

    @Override
    public byte[] get(String key) throws TargetException {
        try {
            return s3.getObjectAsBytes(b -> b.bucket(endpoint.bucket()).key(key)).asByteArrayUnsafe();
        } catch (SdkException e) {
            throw failure("GET " + key, e);
        }
    }

    @Override
    public void put(String key, byte[] value) throws TargetException {
        try {
            s3.putObject(b -> b.bucket(endpoint.bucket()).key(key), RequestBody.fromBytes(value));
        } catch (SdkException e) {
            throw failure("PUT " + key, e);
        }
    }

    @Override
    public int scan(String startAfter, int limit) throws TargetException {
        try {
            return s3.listObjectsV2(b -> b.bucket(endpoint.bucket()).startAfter(startAfter).maxKeys(limit))
                    .contents().size();
        } catch (SdkException e) {
            throw failure("LIST after " + startAfter, e);
        }
    }

    @Override
    public boolean canScan() {
        return true;
    }

    @Override
    public void copy(String source, String destination) throws TargetException {
        try {
            s3.copyObject(b -> b.sourceBucket(endpoint.bucket()).sourceKey(source)
                    .destinationBucket(endpoint.bucket()).destinationKey(destination));
        } catch (SdkException e) {
            throw failure("COPY " + source + " to " + destination, e);
        }
    }

    @Override
    public void delete(String key) throws TargetException {
        try {
            s3.deleteObject(b -> b.bucket(endpoint.bucket()).key(key));
        } catch (SdkException e) {
            throw failure("DELETE " + key, e);
        }
    }

    @Override
    public void multipartPut(String key, byte[] value) throws TargetException {
        String bucket = endpoint.bucket();
        String uploadId = null;
        try {
            uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
            String id = uploadId;
            String etag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(id).partNumber(1),
                    RequestBody.fromBytes(value)).eTag();
            s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id)
                    .multipartUpload(u -> u.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
        } catch (SdkException e) {
            abortQuietly(bucket, key, uploadId);
            throw failure("MULTIPART " + key, e);
        }
    }

    private void abortQuietly(String bucket, String key, String uploadId) {
        if (uploadId == null) {
            return;
        }
        try {
            s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
        } catch (SdkException ignored) {
            // The failure that matters is the one being reported; a leftover upload is the store's to expire.
        }
    }

    @Override
    public boolean canCopyDeleteAndMultipart() {
        return true;
    }

    /**
     * Lists every key of the bucket, page by page, handing each to {@code sink} until it returns
     * false.
     */
    public void listAll(Predicate<String> sink) throws TargetException {
        String token = null;
        try {
            do {
                ListObjectsV2Request.Builder b = ListObjectsV2Request.builder().bucket(endpoint.bucket()).maxKeys(1000);
                if (token != null) {
                    b.continuationToken(token);
                }
                ListObjectsV2Response page = s3.listObjectsV2(b.build());
                for (S3Object o : page.contents()) {
                    if (!sink.test(o.key())) {
                        return;
                    }
                }
                token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
            } while (token != null);
        } catch (SdkException e) {
            throw failure("LIST", e);
        }
    }

    /** Creates the bucket if it does not exist; {@code publicRead} lets plain HTTP GETs read it. */
    public void ensureBucket(boolean publicRead) throws TargetException {
        try {
            try {
                s3.headBucket(b -> b.bucket(endpoint.bucket()));
            } catch (S3Exception e) {
                if (e.statusCode() != 404) {
                    throw e;
                }
                s3.createBucket(b -> b.bucket(endpoint.bucket()));
            }
            if (publicRead) {
                s3.putBucketAcl(b -> b.bucket(endpoint.bucket()).acl(BucketCannedACL.PUBLIC_READ));
            }
        } catch (SdkException e) {
            throw failure("bucket " + endpoint.bucket(), e);
        }
    }

    static TargetException failure(String what, SdkException e) {
        if (e instanceof S3Exception s3e) {
            String code = s3e.awsErrorDetails() == null ? null : s3e.awsErrorDetails().errorCode();
            String kind = code == null || code.isEmpty() ? "http-" + s3e.statusCode() : "s3-" + code;
            return new TargetException(kind, what + ": " + s3e.getMessage(), e);
        }
        String kind = e instanceof SdkClientException ? TargetException.kindOf(e) : "io";
        return new TargetException(kind, what + ": " + e.getMessage(), e);
    }

    @Override
    public void close() {
        s3.close();
    }
}
