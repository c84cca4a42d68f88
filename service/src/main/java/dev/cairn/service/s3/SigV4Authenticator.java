package dev.cairn.service.s3;

import dev.cairn.service.auth.AuthException;
import dev.cairn.service.auth.AuthFailureIOException;
import dev.cairn.service.auth.AuthResult;
import dev.cairn.service.auth.SigV4Verifier;
import dev.cairn.service.auth.SignedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/** Authenticates requests with AWS Signature V4 through {@link SigV4Verifier}. Thread-safe. */
public final class SigV4Authenticator implements Authenticator {
    private final SigV4Verifier verifier;
    private final SigV2Authenticator signatureV2;

    public SigV4Authenticator(SigV4Verifier verifier) {
        this(verifier, null);
    }

    /** @param signatureV2 what answers requests signed with Version 2; null: the verifier refuses them */
    public SigV4Authenticator(SigV4Verifier verifier, SigV2Authenticator signatureV2) {
        this.verifier = verifier;
        this.signatureV2 = signatureV2;
    }

    @Override
    public Authentication authenticate(HttpExchange request) throws S3Exception {
        if (request.header("Authorization") == null && request.header("x-amz-content-sha256") == null
                && !hasSignatureParameter(request.rawQuery())) {
            return anonymousWithoutPayload(request);
        }
        if (signatureV2 != null && SigV2Authenticator.claims(request)) {
            return signatureV2.authenticate(request);
        }
        AuthResult result;
        try {
            result = verifier.authenticate(new SignedRequest(request.method(), request.rawPath(),
                    request.rawQuery(), request.headers()));
        } catch (AuthException e) {
            throw new S3Exception(e.s3Code(), e.httpStatus(), e.getMessage(), e.region());
        }
        return new Authentication() {
            @Override
            public String accessKey() {
                return result.accessKey();
            }

            @Override
            public long decodedContentLength() {
                return result.decodedContentLength();
            }

            @Override
            public InputStream wrapBody(InputStream raw) {
                return result.wrapBody(raw);
            }

            @Override
            public Map<String, String> trailers() {
                return result.trailers();
            }
        };
    }

    /**
     * Whether a query string carries presigned-URL parameters, SigV4's or SigV2's (refused by the
     * verifier); checked exactly by the verifier.
     */
    private static boolean hasSignatureParameter(String query) {
        return query != null && (query.contains("X-Amz-") || query.contains("x-amz-") || query.contains("AWSAccessKeyId="));
    }

    /** The common anonymous read: no signature, no payload claim; the verifier has nothing to check. */
    private static Authentication anonymousWithoutPayload(HttpExchange request) {
        long length = request.contentLength();
        return new Authentication() {
            @Override
            public String accessKey() {
                return null;
            }

            @Override
            public long decodedContentLength() {
                return length;
            }

            @Override
            public InputStream wrapBody(InputStream raw) {
                return raw;
            }

            @Override
            public Map<String, String> trailers() {
                return Map.of();
            }
        };
    }

    @Override
    public S3Exception failureOf(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof AuthFailureIOException f) {
                AuthException a = f.failure();
                return new S3Exception(a.s3Code(), a.httpStatus(), a.getMessage());
            }
        }
        return null;
    }
}
