package dev.cairn.service.auth;

/**
 * The signing half of Signature V4 for the service's own URLs (the console's presigned links):
 * the same key derivation and HMAC the verifier checks against, so what one signs the other
 * accepts. Thread-safe.
 */
public final class SigV4Signing {

    private SigV4Signing() {
    }

    /** Lowercase hex SHA-256 of the UTF-8 bytes of {@code data}: the canonical request's hash. */
    public static String sha256Hex(String data) {
        return SigV4Crypto.sha256Hex(data);
    }

    /** The lowercase hex signature of {@code stringToSign} with the key derived for that scope. */
    public static String signature(String secret, String date, String region, String service, String stringToSign) {
        return SigV4Crypto.sign(SigV4Crypto.threadMac(SigV4Crypto.signingKey(secret, date, region, service)), stringToSign);
    }
}
