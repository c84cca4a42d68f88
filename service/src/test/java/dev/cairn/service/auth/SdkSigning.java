package dev.cairn.service.auth;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.checksums.spi.ChecksumAlgorithm;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/** Produces requests signed by the AWS SDK v2's own SigV4 signer, as a client would send them. */
final class SdkSigning {
    static final String ACCESS_KEY = "AKIACAIRNTEST0000001";
    static final String SECRET_KEY = "cairnTestSecretKey/With+Odd=Characters0";
    static final Instant NOW = Instant.parse("2026-03-14T15:09:26Z");

    private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();

    /** A request on the wire: what the verifier sees, and the body bytes sent. */
    record Wire(SignedRequest request, byte[] body) {
        Wire withRequest(SignedRequest replacement) {
            return new Wire(replacement, body);
        }

        Wire withBody(byte[] replacement) {
            return new Wire(request, replacement);
        }

        Wire withHeader(String name, String value) {
            Map<String, List<String>> headers = new LinkedHashMap<>(request.headers());
            headers.put(name.toLowerCase(java.util.Locale.ROOT), List.of(value));
            return withRequest(new SignedRequest(request.method(), request.rawPath(), request.rawQuery(), headers));
        }

        Wire withoutHeader(String name) {
            Map<String, List<String>> headers = new LinkedHashMap<>(request.headers());
            headers.remove(name.toLowerCase(java.util.Locale.ROOT));
            return withRequest(new SignedRequest(request.method(), request.rawPath(), request.rawQuery(), headers));
        }

        Wire withPath(String rawPath) {
            return withRequest(new SignedRequest(request.method(), rawPath, request.rawQuery(), request.headers()));
        }

        Wire withQuery(String rawQuery) {
            return withRequest(new SignedRequest(request.method(), request.rawPath(), rawQuery, request.headers()));
        }

        String header(String name) {
            return request.firstHeader(name);
        }
    }

    /** What to sign. Defaults: GET, no body, header auth, unsigned payload over https. */
    static final class Spec {
        SdkHttpMethod method = SdkHttpMethod.GET;
        String encodedPath = "/bucket/key";
        final Map<String, List<String>> query = new LinkedHashMap<>();
        final Map<String, String> headers = new LinkedHashMap<>();
        byte[] body;
        boolean https = true;
        Boolean payloadSigning = false;
        boolean chunked;
        ChecksumAlgorithm checksum;
        Duration presignedFor;
        Instant signedAt = NOW;
        String accessKey = ACCESS_KEY;
        String secretKey = SECRET_KEY;
        String region = "us-east-1";

        Spec method(SdkHttpMethod value) {
            method = value;
            return this;
        }

        /** Path from bucket and key, encoded as the S3 client encodes it. */
        Spec key(String bucket, String key) {
            encodedPath = "/" + bucket + "/" + SdkHttpUtils.urlEncodeIgnoreSlashes(key);
            return this;
        }

        Spec encodedPath(String value) {
            encodedPath = value;
            return this;
        }

        Spec query(String name, String value) {
            query.put(name, List.of(value));
            return this;
        }

        Spec header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        Spec body(byte[] value) {
            body = value;
            return this;
        }

        Spec signedPayload() {
            payloadSigning = true;
            return this;
        }

        Spec chunked(boolean signed, ChecksumAlgorithm trailerChecksum) {
            chunked = true;
            payloadSigning = signed;
            checksum = trailerChecksum;
            return this;
        }

        Spec presigned(Duration validity) {
            presignedFor = validity;
            return this;
        }

        Spec signedAt(Instant value) {
            signedAt = value;
            return this;
        }

        Spec credentials(String access, String secret) {
            accessKey = access;
            secretKey = secret;
            return this;
        }

        Spec region(String value) {
            region = value;
            return this;
        }

        Wire sign() {
            SdkHttpRequest.Builder builder = SdkHttpRequest.builder()
                    .method(method)
                    .protocol(https ? "https" : "http")
                    .host("127.0.0.1")
                    .port(9000)
                    .encodedPath(encodedPath);
            query.forEach(builder::putRawQueryParameter);
            headers.forEach(builder::putHeader);
            if (body != null) {
                builder.putHeader("Content-Length", Integer.toString(body.length));
            }
            SdkHttpRequest unsigned = builder.build();
            AwsCredentialsIdentity identity = AwsCredentialsIdentity.create(accessKey, secretKey);
            software.amazon.awssdk.http.auth.spi.signer.SignedRequest signed = SIGNER.sign(r -> {
                r.identity(identity)
                        .request(unsigned)
                        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                        .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "s3")
                        .putProperty(AwsV4FamilyHttpSigner.DOUBLE_URL_ENCODE, false)
                        .putProperty(AwsV4FamilyHttpSigner.NORMALIZE_PATH, false)
                        .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC));
                if (body != null) {
                    r.payload(ContentStreamProvider.fromByteArray(body));
                }
                if (payloadSigning != null) {
                    r.putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, payloadSigning);
                }
                if (chunked) {
                    r.putProperty(AwsV4FamilyHttpSigner.CHUNK_ENCODING_ENABLED, true);
                }
                if (checksum != null) {
                    r.putProperty(AwsV4FamilyHttpSigner.CHECKSUM_ALGORITHM, checksum);
                }
                if (presignedFor != null) {
                    r.putProperty(AwsV4FamilyHttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                            .putProperty(AwsV4FamilyHttpSigner.EXPIRATION_DURATION, presignedFor);
                }
            });
            SdkHttpRequest request = signed.request();
            byte[] wireBody = signed.payload().map(SdkSigning::readAll).orElse(null);
            java.net.URI uri = request.getUri();
            SignedRequest onWire = new SignedRequest(request.method().name(), uri.getRawPath(), uri.getRawQuery(),
                    withHost(request.headers(), request));
            return new Wire(onWire, wireBody);
        }
    }

    static Spec spec() {
        return new Spec();
    }

    private static Map<String, List<String>> withHost(Map<String, List<String>> headers, SdkHttpRequest request) {
        Map<String, List<String>> result = new LinkedHashMap<>(headers);
        boolean hasHost = result.keySet().stream().anyMatch(name -> name.equalsIgnoreCase("host"));
        if (!hasHost) {
            result.put("Host", List.of(request.host() + ":" + request.port()));
        }
        return result;
    }

    private static byte[] readAll(ContentStreamProvider provider) {
        try (InputStream in = provider.newStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private SdkSigning() {
    }
}
