package dev.cairn.service.s3;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/** Reading request bodies through authentication into a {@link SpooledBody}. Stateless; thread-safe. */
final class Bodies {
    private Bodies() {
    }

    static SpooledBody read(S3Context ctx, S3Request r, long maxSize, List<ChecksumSink> sinks)
            throws IOException, S3Exception {
        long declared = r.auth.decodedContentLength();
        if (declared < 0 && r.http.contentLength() < 0 && !isChunked(r)) {
            throw new S3Exception(S3Error.MISSING_CONTENT_LENGTH);
        }
        if (declared > maxSize) {
            // Before touching the body, so that a client waiting on 100-continue sends none of it.
            throw new S3Exception(S3Error.ENTITY_TOO_LARGE);
        }
        InputStream counted = new FilterInputStream(r.http.body()) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    r.bytesIn++;
                }
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n > 0) {
                    r.bytesIn += n;
                }
                return n;
            }
        };
        try {
            return SpooledBody.read(r.auth.wrapBody(counted), declared, maxSize, ctx.spool(), sinks);
        } catch (IOException e) {
            S3Exception failure = ctx.authenticator().failureOf(e);
            if (failure != null) {
                throw failure;
            }
            throw e;
        }
    }

    /** Whether the body comes in HTTP/1.1 chunks, its length known only at its end. */
    private static boolean isChunked(S3Request r) {
        String te = r.header("Transfer-Encoding");
        return te != null && te.toLowerCase(java.util.Locale.ROOT).contains("chunked");
    }

    /** A small XML body, checked against Content-MD5 and any checksum header. */
    static byte[] readXml(S3Context ctx, S3Request r) throws IOException, S3Exception {
        return readXml(ctx, r, Checksums.of(r));
    }

    /**
     * A CompleteMultipartUpload body: its {@code x-amz-checksum-*} headers are the completed
     * object's, so only Content-MD5 and trailers are the body's.
     */
    static byte[] readCompletionXml(S3Context ctx, S3Request r) throws IOException, S3Exception {
        return readXml(ctx, r, Checksums.ofBodyOnly(r));
    }

    private static byte[] readXml(S3Context ctx, S3Request r, Checksums checksums) throws IOException, S3Exception {
        try (SpooledBody body = read(ctx, r, ctx.properties().getLimits().getMaxXmlBodySize().toBytes(),
                checksums.sinks())) {
            checksums.verify(body, r.auth.trailers());
            try (InputStream in = body.open()) {
                return in.readAllBytes();
            }
        }
    }
}
