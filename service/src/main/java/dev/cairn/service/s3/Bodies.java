package dev.cairn.service.s3;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reading request bodies through authentication into a {@link SpooledBody}. Stateless; thread-safe. */
final class Bodies {
    private static final Logger LOG = LoggerFactory.getLogger(Bodies.class);

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
            S3Error stopped = bodyStopped(e);
            if (stopped != null) {
                // The client's doing, not the service's: one line, and the client is told why.
                LOG.info("request {}: {} after {} of {} body bytes: {}", r.requestId, stopped.code(), r.bytesIn,
                        declared < 0 ? "unknown" : Long.toString(declared), e.toString());
                throw new S3Exception(stopped);
            }
            throw e;
        }
    }

    /**
     * The error of a body that stopped before its end: the connection sat idle past its timeout
     * (RequestTimeout) or the client closed its side (IncompleteBody); null for any other failure.
     */
    static S3Error bodyStopped(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException) {
                return S3Error.REQUEST_TIMEOUT;
            }
            if (t instanceof EOFException) {
                return S3Error.INCOMPLETE_BODY;
            }
        }
        return null;
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
