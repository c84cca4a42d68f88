package dev.cairn.service.auth;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of {@link SigV4Verifier#authenticate}: who signed (or nobody), how the payload is
 * protected, and the stream that decodes and verifies it.
 *
 * <p>Not thread-safe: one per request, used by the thread that reads the body.
 */
public final class AuthResult {
    private final String accessKey;
    private final PayloadMode payloadMode;
    private final long decodedContentLength;
    private final ChunkSigningContext chunkContext;
    private final String payloadSha256;
    private final List<String> declaredTrailers;
    private boolean wrapped;
    private AwsChunkedInputStream chunkedBody;
    private Sha256VerifyingInputStream hashedBody;

    AuthResult(String accessKey, PayloadMode payloadMode, long decodedContentLength,
               ChunkSigningContext chunkContext, String payloadSha256, List<String> declaredTrailers) {
        this.accessKey = accessKey;
        this.payloadMode = payloadMode;
        this.decodedContentLength = decodedContentLength;
        this.chunkContext = chunkContext;
        this.payloadSha256 = payloadSha256;
        this.declaredTrailers = declaredTrailers;
    }

    /** The access key that signed the request; null when anonymous. */
    public String accessKey() {
        return accessKey;
    }

    public boolean isAnonymous() {
        return accessKey == null;
    }

    public PayloadMode payloadMode() {
        return payloadMode;
    }

    /**
     * The payload's length once decoded: {@code x-amz-decoded-content-length} for aws-chunked
     * bodies, otherwise {@code Content-Length}; -1 when not declared.
     */
    public long decodedContentLength() {
        return decodedContentLength;
    }

    /** The trailer names announced in {@code x-amz-trailer} (lowercase), for aws-chunked trailer modes. */
    public List<String> declaredTrailers() {
        return declaredTrailers;
    }

    /**
     * The decoded payload of {@code raw}, verified as it is read: the whole-body SHA-256, or each
     * chunk signature, the final chunk, the trailer signature and the trailer checksums. A failure
     * throws {@link AuthFailureIOException}, at the latest at end of stream; until the stream has
     * returned -1 nothing read from it may be kept. Call once per request.
     */
    public InputStream wrapBody(InputStream raw) {
        Objects.requireNonNull(raw, "raw");
        if (wrapped) {
            throw new IllegalStateException("wrapBody was already called for this request");
        }
        wrapped = true;
        if (payloadMode.awsChunked()) {
            chunkedBody = new AwsChunkedInputStream(raw, payloadMode, chunkContext, decodedContentLength,
                    declaredTrailers);
            return chunkedBody;
        }
        if (payloadMode == PayloadMode.SIGNED) {
            hashedBody = new Sha256VerifyingInputStream(raw, payloadSha256);
            return hashedBody;
        }
        return raw;
    }

    /**
     * The trailing headers received after the last chunk (lowercase name → value, without
     * {@code x-amz-trailer-signature}), once the body stream has returned -1; empty before, and for
     * bodies that are not aws-chunked.
     */
    public Map<String, String> trailers() {
        return chunkedBody == null ? Map.of() : chunkedBody.trailers();
    }

    /**
     * The body's SHA-256 (lowercase hex) in {@link PayloadMode#SIGNED} mode, once the stream from
     * {@link #wrapBody} has returned -1 and so verified it; empty otherwise. A caller that needs the
     * hash need not compute it again.
     */
    public Optional<String> verifiedPayloadSha256() {
        return hashedBody != null && hashedBody.verified() ? Optional.of(hashedBody.expectedHex()) : Optional.empty();
    }

    @Override
    public String toString() {
        return "AuthResult[" + (accessKey == null ? "anonymous" : accessKey) + ", " + payloadMode + "]";
    }
}
