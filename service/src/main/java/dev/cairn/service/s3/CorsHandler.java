package dev.cairn.service.s3;

import dev.cairn.store.BucketDocument;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.StoreException;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * CORS, as S3 has it: PutBucketCors, GetBucketCors and DeleteBucketCors (the configuration kept
 * as the bucket's {@link BucketDocument#CORS} document); a browser's preflight
 * ({@code OPTIONS} with {@code Origin} and {@code Access-Control-Request-Method}), answered from
 * the rules without credentials; and the {@code Access-Control-*} headers of every other answer
 * from a bucket with CORS, errors included ({@link #headersFor}). Stateless; thread-safe.
 */
final class CorsHandler {
    /** What a cache between a browser and Cairn must key an answer from a bucket with CORS by. */
    static final String VARY = "Origin, Access-Control-Request-Headers, Access-Control-Request-Method";
    private static final String NOT_ENABLED = "CORSResponse: CORS is not enabled for this bucket.";
    private static final String NOT_ALLOWED = "CORSResponse: This CORS request is not allowed. This is usually because"
            + " the evalution of Origin, request method / Access-Control-Request-Method or"
            + " Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.";

    private final S3Context ctx;

    CorsHandler(S3Context ctx) {
        this.ctx = ctx;
    }

    /**
     * The CORS headers of an answer (not a preflight's) to {@code r} from bucket {@code b}: none
     * when the bucket has no CORS configuration (the common case: one map lookup); {@code Vary}
     * alone when the request has no {@code Origin} or no rule allows its origin and method; else
     * the matching rule's {@code Access-Control-*} headers too. Name, value pairs.
     */
    static String[] headersFor(S3Request r, BucketInfo b) {
        String document = b == null ? null : b.document(BucketDocument.CORS);
        if (document == null) {
            return null;
        }
        String origin = r.header("Origin");
        CorsRule rule = origin == null ? null : CorsConfiguration.ofStored(document).match(origin, r.method(), List.of());
        if (rule == null) {
            return new String[] {"Vary", VARY};
        }
        return allowed(rule, origin, null);
    }

    /** The headers of an allowed CORS request; {@code allowHeaders}: a preflight's, else null. */
    private static String[] allowed(CorsRule rule, String origin, String allowHeaders) {
        String allowOrigin = rule.allowOrigin(origin);
        String[] h = new String[14];
        int n = 0;
        h[n++] = "Access-Control-Allow-Origin";
        h[n++] = allowOrigin;
        h[n++] = "Access-Control-Allow-Methods";
        h[n++] = rule.allowMethods();
        if (allowHeaders != null) {
            h[n++] = "Access-Control-Allow-Headers";
            h[n++] = allowHeaders;
        }
        if (rule.exposeHeadersValue() != null) {
            h[n++] = "Access-Control-Expose-Headers";
            h[n++] = rule.exposeHeadersValue();
        }
        if (rule.maxAgeSeconds() != null) {
            h[n++] = "Access-Control-Max-Age";
            h[n++] = Integer.toString(rule.maxAgeSeconds());
        }
        if (!allowOrigin.equals("*")) {
            h[n++] = "Access-Control-Allow-Credentials";
            h[n++] = "true";
        }
        h[n++] = "Vary";
        h[n++] = VARY;
        return java.util.Arrays.copyOf(h, n);
    }

    static void setHeaders(HttpExchange http, String[] headers) {
        if (headers != null) {
            for (int i = 0; i < headers.length; i += 2) {
                http.setHeader(headers[i], headers[i + 1]);
            }
        }
    }

    /** A preflight: 200 with the matching rule's headers, or why not, as S3 answers. */
    void preflight(S3Request r) throws IOException, S3Exception {
        String origin = r.header("Origin");
        if (origin == null) {
            throw new S3Exception("BadRequest", 400, "Insufficient information. Origin request header needed.");
        }
        String method = r.header("Access-Control-Request-Method");
        if (method == null || !CorsRule.METHODS.contains(method)) {
            throw new S3Exception("BadRequest", 400, "Invalid Access-Control-Request-Method: " + method);
        }
        BucketInfo b = r.bucket == null ? null : r.bucketInfo;
        if (b == null) {
            if (r.bucket == null) {
                throw forbidden(r, NOT_ENABLED, method);
            }
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, r.bucket);
        }
        String document = b.document(BucketDocument.CORS);
        if (document == null) {
            throw forbidden(r, NOT_ENABLED, method);
        }
        String requested = r.header("Access-Control-Request-Headers");
        List<String> headers = CorsConfiguration.requestedHeaders(requested);
        CorsRule rule = CorsConfiguration.ofStored(document).match(origin, method, headers);
        if (rule == null) {
            throw forbidden(r, NOT_ALLOWED, method);
        }
        r.cors = null;
        setHeaders(r.http, allowed(rule, origin, headers.isEmpty() ? null : String.join(", ", headers)));
        r.sendEmpty(200);
    }

    private static S3Exception forbidden(S3Request r, String message, String method) {
        return new S3Exception("AccessForbidden", 403, message, null,
                Map.of("Method", method, "ResourceType", r.key == null ? "BUCKET" : "OBJECT"));
    }

    void putBucketCors(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        byte[] body = Bodies.readXml(ctx, r);
        if (body.length == 0) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        CorsConfiguration config = CorsConfiguration.parse(body);
        set(BucketDocument.of(r.bucket, BucketDocument.CORS, config.toXml()));
        r.sendEmpty(200);
    }

    void getBucketCors(S3Request r) throws IOException, S3Exception {
        String document = requireBucket(r).document(BucketDocument.CORS);
        if (document == null) {
            throw new S3Exception("NoSuchCORSConfiguration", 404, "The CORS configuration does not exist");
        }
        byte[] body = S3Request.utf8(document);
        r.http.setStatus(200);
        r.http.setHeader("Content-Type", "application/xml");
        r.http.send(body);
        r.bytesOut += body.length;
    }

    void deleteBucketCors(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        set(BucketDocument.removed(r.bucket, BucketDocument.CORS));
        r.sendEmpty(204);
    }

    private void set(BucketDocument document) throws IOException, S3Exception {
        try {
            ctx.store().setBucketDocument(document);
        } catch (UnsupportedOperationException e) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "bucket CORS is not supported by this store");
        }
    }

    private BucketInfo requireBucket(S3Request r) throws IOException {
        BucketInfo b = ctx.store().bucket(r.bucket);
        if (b == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, r.bucket);
        }
        return b;
    }
}
