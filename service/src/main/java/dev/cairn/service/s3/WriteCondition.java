package dev.cairn.service.s3;

import dev.cairn.store.ObjectInfo;
import dev.cairn.store.StoreException;
import java.io.IOException;

/**
 * A write's preconditions on the object it replaces, {@code If-Match} and {@code If-None-Match}
 * (PutObject, CopyObject, CompleteMultipartUpload), evaluated as RFC 9110 orders them: If-Match
 * first (an absent key answers NoSuchKey, as S3 does), then If-None-Match. The store checks two
 * forms atomically, "absent" and "this ETag"; the others are resolved against the current object
 * into one of those and retried when a concurrent write changed the object in between. Immutable.
 *
 * @param ifMatch     the header as sent, or null
 * @param ifNoneMatch the header as sent, or null
 */
record WriteCondition(String ifMatch, String ifNoneMatch) {
    static final WriteCondition NONE = new WriteCondition(null, null);
    private static final int ATTEMPTS = 8;

    /** What the store checks as it writes: the key is absent, or holds exactly this ETag. */
    record Atomic(boolean onlyIfAbsent, String etag) {
        static final Atomic NONE = new Atomic(false, null);
    }

    /** One write under a resolved condition. */
    interface Write<T> {
        T apply(Atomic condition) throws IOException, S3Exception;
    }

    static WriteCondition of(S3Request r) {
        String im = r.header("If-Match");
        String inm = r.header("If-None-Match");
        return im == null && inm == null ? NONE : new WriteCondition(im, inm);
    }

    boolean isNone() {
        return ifMatch == null && ifNoneMatch == null;
    }

    /** Whether the store can check the condition alone, without reading the object first. */
    private boolean isDirect() {
        if (ifNoneMatch == null) {
            return isSingleTag(ifMatch);
        }
        return ifMatch == null && ifNoneMatch.trim().equals("*");
    }

    private static boolean isSingleTag(String header) {
        return header != null && !header.contains(",") && !header.trim().startsWith("W/");
    }

    private Atomic direct() {
        if (ifNoneMatch != null) {
            return new Atomic(true, null);
        }
        String tag = ifMatch.trim();
        return new Atomic(false, tag.equals("*") ? "*" : Conditions.unquote(tag));
    }

    /** The atomic condition equivalent to this one given the object now stored (null: absent). */
    Atomic resolve(ObjectInfo current) throws S3Exception {
        if (ifMatch != null) {
            if (current == null) {
                throw new S3Exception(S3Error.NO_SUCH_KEY);
            }
            if (!Conditions.matches(ifMatch, current.etag())) {
                throw new S3Exception(S3Error.PRECONDITION_FAILED);
            }
        }
        if (ifNoneMatch != null && current != null && Conditions.matches(ifNoneMatch, current.etag())) {
            throw new S3Exception(S3Error.PRECONDITION_FAILED);
        }
        return current == null ? new Atomic(true, null) : new Atomic(false, current.etag());
    }

    /**
     * Performs {@code write} under this condition: directly when the store can check it, else
     * by reading the current object and writing only if it is still that one, again while a
     * concurrent write gets in between (409 ConditionalRequestConflict after a few tries).
     */
    <T> T run(S3Context ctx, String bucket, String key, Write<T> write) throws IOException, S3Exception {
        if (isNone()) {
            return write.apply(Atomic.NONE);
        }
        if (isDirect()) {
            return write.apply(direct());
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Atomic atomic = resolve(ctx.store().headObject(bucket, key));
            try {
                return write.apply(atomic);
            } catch (StoreException e) {
                if (e.reason() != StoreException.Reason.PRECONDITION_FAILED
                        && e.reason() != StoreException.Reason.NO_SUCH_KEY) {
                    throw e;
                }
            }
        }
        throw new S3Exception(S3Error.CONDITIONAL_REQUEST_CONFLICT);
    }
}
