package dev.cairn.service.auth;

import java.util.List;

/**
 * An Authorization header up to its signature ({@code "AWS4-HMAC-SHA256 Credential=…,
 * SignedHeaders=…, Signature="}) with what its components parsed to. A client's requests of one
 * day differ only in the 64 hex digits that follow, so a header that is this prefix and 64
 * lowercase hex digits has the same credential and signed headers without being parsed again.
 * Immutable.
 *
 * @param scope the access key, date and region of the credential
 */
record AuthorizationPrefix(String prefix, String[] scope, String signedHeaders, List<String> signedHeaderNames) {
    private static final int SIGNATURE_LENGTH = 64;

    /**
     * The prefix of a trimmed header {@code value} parsed into {@code claim}, whose last component
     * is its signature with nothing after; null when the header does not end with the signature.
     */
    static AuthorizationPrefix of(String value, ClaimedSignature claim) {
        int at = value.length() - SIGNATURE_LENGTH;
        if (at < 0 || !value.endsWith(claim.signature()) || claim.signature().length() != SIGNATURE_LENGTH) {
            return null;
        }
        return new AuthorizationPrefix(value.substring(0, at),
                new String[] {claim.accessKey(), claim.scopeDate(), claim.region()}, claim.signedHeaders(),
                claim.signedHeaderNames());
    }

    /**
     * Whether the trimmed header {@code value} is this prefix followed by 64 lowercase hex digits:
     * parsed whole, it would give these components and those digits as the signature.
     */
    boolean isPrefixOf(String value) {
        return value.length() == prefix.length() + SIGNATURE_LENGTH && value.startsWith(prefix)
                && isLowerHex(value, prefix.length());
    }

    private static boolean isLowerHex(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
