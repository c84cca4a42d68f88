package dev.cairn.service.console;

import dev.cairn.service.auth.SigV4Signing;
import dev.cairn.service.auth.UriEncoding;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Presigns a GET as AWS Signature V4 query parameters (service {@code s3}, signed header
 * {@code host}, unsigned payload), with the signed-in key's secret: the URL the service's own
 * verifier accepts until it expires. Stateless; thread-safe.
 */
final class Presigner {
    static final long MAX_EXPIRY_SECONDS = 7 * 24 * 3600;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final String region;

    Presigner(String region) {
        this.region = region;
    }

    /**
     * The presigned URL of {@code GET rawPath} on {@code origin} (scheme, host and port as the
     * browser reached the service); {@code rawPath} is already percent-encoded.
     */
    String presignGet(String origin, String host, String rawPath, String accessKey, String secret, long expirySeconds,
                      Instant now) {
        if (expirySeconds < 1 || expirySeconds > MAX_EXPIRY_SECONDS) {
            throw new IllegalArgumentException("expiry must be 1 s to 7 days, got " + expirySeconds);
        }
        String stamp = STAMP.format(now);
        String date = stamp.substring(0, 8);
        String scope = date + "/" + region + "/s3/aws4_request";
        // Parameters in byte order of their names, as the canonical query wants them.
        String query = "X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=" + UriEncoding.encode(accessKey + "/" + scope, false)
                + "&X-Amz-Date=" + stamp
                + "&X-Amz-Expires=" + expirySeconds
                + "&X-Amz-SignedHeaders=host";
        String canonical = "GET\n" + rawPath + "\n" + query + "\nhost:" + host + "\n\nhost\nUNSIGNED-PAYLOAD";
        String toSign = "AWS4-HMAC-SHA256\n" + stamp + "\n" + scope + "\n" + SigV4Signing.sha256Hex(canonical);
        String signature = SigV4Signing.signature(secret, date, region, "s3", toSign);
        return origin + rawPath + "?" + query + "&X-Amz-Signature=" + signature;
    }
}
