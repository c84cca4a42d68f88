package dev.cairn.service.s3;

import dev.cairn.service.auth.AuthException;
import dev.cairn.service.auth.AuthResult;
import dev.cairn.service.auth.SigV2Mismatch;
import dev.cairn.service.auth.SigV2Verifier;
import dev.cairn.service.auth.SignedRequest;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

/**
 * Authenticates requests signed with AWS Signature Version 2 through {@link SigV2Verifier}, or
 * refuses them as S3 does where only Version 4 is accepted ({@code cairn.auth.signature-v2}
 * false). {@link SigV4Authenticator} hands it the requests {@link #claims} are its. Thread-safe.
 */
public final class SigV2Authenticator {
    private final SigV2Verifier verifier;
    private final List<String> virtualHostDomains;

    /** @param verifier null: Version 2 is refused */
    public SigV2Authenticator(SigV2Verifier verifier, List<String> virtualHostDomains) {
        this.verifier = verifier;
        this.virtualHostDomains = List.copyOf(virtualHostDomains);
    }

    /** Whether the request claims Version 2; asked only of requests that carry a signature. */
    static boolean claims(HttpExchange request) {
        return SigV2Verifier.isSignedV2(request.header("Authorization"), request.rawQuery());
    }

    Authentication authenticate(HttpExchange request) throws S3Exception {
        AuthResult result;
        try {
            if (verifier == null) {
                throw SigV2Verifier.unsupported();
            }
            result = verifier.authenticate(new SignedRequest(request.method(), request.rawPath(), request.rawQuery(),
                    request.headers()), S3Request.virtualHostBucket(request.serverName(), virtualHostDomains));
        } catch (AuthException e) {
            throw new S3Exception(e.s3Code(), e.httpStatus(), e.getMessage(), e.region());
        } catch (SigV2Mismatch e) {
            throw new S3Exception("SignatureDoesNotMatch", 403, e.getMessage(), null, e.details());
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
}
