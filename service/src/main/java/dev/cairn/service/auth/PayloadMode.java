package dev.cairn.service.auth;

/** How the request body is protected, from the {@code x-amz-content-sha256} header. */
public enum PayloadMode {
    /** {@code UNSIGNED-PAYLOAD}, or no header on an anonymous request: the body is taken as sent. */
    UNSIGNED(false, false, false),
    /** A hex SHA-256 of the body: verified when the body has been read to its end. */
    SIGNED(false, false, true),
    /** {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD}: aws-chunked, each chunk signed. */
    STREAMING_SIGNED(true, false, true),
    /** {@code STREAMING-UNSIGNED-PAYLOAD-TRAILER}: aws-chunked without signatures, then trailers. */
    STREAMING_UNSIGNED_TRAILER(true, true, false),
    /** {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER}: signed chunks, then signed trailers. */
    STREAMING_SIGNED_TRAILER(true, true, true);

    private final boolean awsChunked;
    private final boolean trailer;
    private final boolean signed;

    PayloadMode(boolean awsChunked, boolean trailer, boolean signed) {
        this.awsChunked = awsChunked;
        this.trailer = trailer;
        this.signed = signed;
    }

    /** The body is aws-chunked encoded: {@link AuthResult#wrapBody} decodes it. */
    public boolean awsChunked() {
        return awsChunked;
    }

    /** Trailing headers follow the last chunk. */
    public boolean hasTrailer() {
        return trailer;
    }

    /** The body's bytes are covered by the signature (whole-body hash or chunk signatures). */
    public boolean payloadSigned() {
        return signed;
    }
}
