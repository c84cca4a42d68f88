package dev.cairn.service.s3;

import dev.cairn.store.ContentRead;
import java.io.IOException;

/**
 * Image variants of a GET's object or content ({@code ?w=320&fm=webp}, docs/variants.md), which
 * the read handler asks for once it has opened and authorised the source. Declared here, where
 * reads are answered, so that the S3 package does not depend on the variants package that builds
 * on it.
 */
public interface VariantRoute {
    /** Whether the request asks for a variant; false, cheaply, for a request without a query. */
    boolean asksForVariant(S3Request r);

    /**
     * Whether the variant the request asks for, of the content whose SHA-256 is {@code sourceSha256},
     * is in memory, so that a thread that may not block can answer it. Never blocks, never throws.
     */
    boolean inMemory(S3Request r, String sourceSha256);

    /**
     * The variant of the content whose SHA-256 is {@code sourceSha256}; {@code source} is read only
     * when the variant is not at hand. Unless {@code mayBlock}, null when it is not in memory;
     * otherwise it may block (a disk read, a render). Refusals are S3 errors.
     */
    Variant variant(S3Request r, String sourceSha256, ContentRead source, boolean mayBlock) throws IOException, S3Exception;

    /** A rendered variant: its bytes, media type and entity tag; {@code varyAccept} when chosen by Accept. */
    record Variant(byte[] bytes, String contentType, String etag, boolean varyAccept) {
    }
}
