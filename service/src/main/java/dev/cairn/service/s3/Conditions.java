package dev.cairn.service.s3;

import dev.cairn.store.ObjectInfo;

/**
 * HTTP conditional headers against an object, with S3's precedence: If-Match and
 * If-Unmodified-Since fail with 412; If-None-Match and If-Modified-Since with 304 on reads.
 * Stateless; thread-safe.
 */
final class Conditions {
    private Conditions() {
    }

    /** Checks GET/HEAD conditions; throws PreconditionFailed or NotModified. */
    static void checkRead(S3Request r, String etag, long lastModified) throws S3Exception {
        check(r.header("If-Match"), r.header("If-None-Match"), r.header("If-Modified-Since"),
                r.header("If-Unmodified-Since"), etag, lastModified, S3Error.NOT_MODIFIED);
    }

    /** Checks x-amz-copy-source-if-* against the copy source; all failures are 412. */
    static void checkCopySource(S3Request r, ObjectInfo source) throws S3Exception {
        check(r.header("x-amz-copy-source-if-match"), r.header("x-amz-copy-source-if-none-match"),
                r.header("x-amz-copy-source-if-modified-since"), r.header("x-amz-copy-source-if-unmodified-since"),
                source.etag(), source.lastModified(), S3Error.PRECONDITION_FAILED);
    }

    private static void check(String ifMatch, String ifNoneMatch, String ifModifiedSince, String ifUnmodifiedSince,
                              String etag, long lastModified, S3Error notModified) throws S3Exception {
        long modified = HttpDates.seconds(lastModified);
        if (ifMatch != null) {
            if (!matches(ifMatch, etag)) {
                throw new S3Exception(S3Error.PRECONDITION_FAILED);
            }
        } else if (ifUnmodifiedSince != null) {
            long since = HttpDates.parseHttp(ifUnmodifiedSince);
            if (since >= 0 && modified > since) {
                throw new S3Exception(S3Error.PRECONDITION_FAILED);
            }
        }
        if (ifNoneMatch != null) {
            if (matches(ifNoneMatch, etag)) {
                throw new S3Exception(notModified);
            }
        } else if (ifModifiedSince != null) {
            long since = HttpDates.parseHttp(ifModifiedSince);
            if (since >= 0 && modified <= since) {
                throw new S3Exception(notModified);
            }
        }
    }

    /** An entity tag without its surrounding double quotes. */
    static String unquote(String tag) {
        if (tag.length() >= 2 && tag.startsWith("\"") && tag.endsWith("\"")) {
            return tag.substring(1, tag.length() - 1);
        }
        return tag;
    }

    /** Whether a comma-separated list of entity tags (or *) names this ETag. */
    static boolean matches(String header, String etag) {
        for (String t : header.split(",")) {
            String tag = t.trim();
            if (tag.equals("*")) {
                return true;
            }
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (unquote(tag).equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
