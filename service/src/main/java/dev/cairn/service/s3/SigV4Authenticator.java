package dev.cairn.service.s3;

import dev.cairn.service.auth.AuthException;
import dev.cairn.service.auth.AuthFailureIOException;
import dev.cairn.service.auth.AuthResult;
import dev.cairn.service.auth.SigV4Verifier;
import dev.cairn.service.auth.SignedRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Authenticates requests with AWS Signature V4 through {@link SigV4Verifier}. Thread-safe. */
public final class SigV4Authenticator implements Authenticator {
    private final SigV4Verifier verifier;

    public SigV4Authenticator(SigV4Verifier verifier) {
        this.verifier = verifier;
    }

    @Override
    public Authentication authenticate(HttpServletRequest request) throws S3Exception {
        if (request.getHeader("Authorization") == null && request.getHeader("x-amz-content-sha256") == null
                && !hasSignatureParameter(request.getQueryString())) {
            return anonymousWithoutPayload(request);
        }
        Map<String, List<String>> headers = new HashMap<>();
        for (String name : Collections.list(request.getHeaderNames())) {
            headers.put(name, Collections.list(request.getHeaders(name)));
        }
        AuthResult result;
        try {
            result = verifier.authenticate(new SignedRequest(request.getMethod(), request.getRequestURI(),
                    request.getQueryString(), headers));
        } catch (AuthException e) {
            throw new S3Exception(e.s3Code(), e.httpStatus(), e.getMessage());
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

    /** Whether a query string carries presigned-URL parameters (checked exactly by the verifier). */
    private static boolean hasSignatureParameter(String query) {
        return query != null && (query.contains("X-Amz-") || query.contains("x-amz-"));
    }

    /** The common anonymous read: no signature, no payload claim; the verifier has nothing to check. */
    private static Authentication anonymousWithoutPayload(HttpServletRequest request) {
        long length = request.getContentLengthLong();
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
