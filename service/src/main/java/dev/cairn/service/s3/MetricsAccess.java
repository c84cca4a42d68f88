package dev.cairn.service.s3;

import dev.cairn.service.keys.Access;
import dev.cairn.service.keys.AccessKey;
import dev.cairn.service.keys.KeyRing;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * Who may read the actuator beyond its health probes: a key with the metrics or admin role, sent
 * either as HTTP Basic credentials (access key as user name, secret as password: what Prometheus
 * and curl send; use it over TLS) or as an AWS Signature V4. Thread-safe.
 */
public final class MetricsAccess {
    private final Authenticator authenticator;
    private final KeyRing keys;

    public MetricsAccess(Authenticator authenticator, KeyRing keys) {
        this.authenticator = authenticator;
        this.keys = keys;
    }

    /** Whether the request carries the credentials of a key allowed to read metrics. */
    boolean allows(HttpExchange http) {
        String authorization = http.header("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return basic(authorization.substring(6).trim());
        }
        try {
            Authentication auth = authenticator.authenticate(http);
            return !auth.isAnonymous() && keys.allows(auth.accessKey(), Access.METRICS, null);
        } catch (S3Exception badSignature) {
            return false;
        }
    }

    private boolean basic(String encoded) {
        String pair;
        try {
            pair = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = pair.indexOf(':');
        if (colon <= 0) {
            return false;
        }
        AccessKey key = keys.key(pair.substring(0, colon));
        return key != null && key.allows(Access.METRICS, null)
                && MessageDigest.isEqual(key.secret().getBytes(StandardCharsets.UTF_8),
                        pair.substring(colon + 1).getBytes(StandardCharsets.UTF_8));
    }
}
