package dev.cairn.service.auth;

import java.time.Instant;
import java.util.List;

/** What a signed request claims: credential scope, signed headers, signature, time. */
record ClaimedSignature(String accessKey, String scopeDate, String region, String signedHeaders,
                        List<String> signedHeaderNames, String signature, String amzDate, Instant time,
                        boolean presigned, long expiresSeconds) {
    String scope() {
        return scopeDate + '/' + region + '/' + SigV4Verifier.SERVICE + '/' + SigV4Verifier.TERMINATOR;
    }
}
