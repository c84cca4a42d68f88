package dev.cairn.store;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a client states about an object when it writes it: the standard headers it wants
 * returned, its user metadata ({@code x-amz-meta-*}, names lower-cased, without the prefix) and
 * its canned ACL ({@code x-amz-acl}; private unless stated). Absent headers are null.
 */
public record ObjectAttributes(
        String contentType,
        String cacheControl,
        String contentDisposition,
        String contentEncoding,
        String contentLanguage,
        String expires,
        Map<String, String> userMetadata,
        BucketAcl acl) {

    public static final ObjectAttributes EMPTY = new ObjectAttributes(null, null, null, null, null, null, Map.of());

    public ObjectAttributes {
        userMetadata = userMetadata == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(userMetadata));
        acl = acl == null ? BucketAcl.PRIVATE : acl;
    }

    /** Private attributes. */
    public ObjectAttributes(String contentType, String cacheControl, String contentDisposition, String contentEncoding,
                            String contentLanguage, String expires, Map<String, String> userMetadata) {
        this(contentType, cacheControl, contentDisposition, contentEncoding, contentLanguage, expires, userMetadata,
                BucketAcl.PRIVATE);
    }

    public ObjectAttributes withAcl(BucketAcl newAcl) {
        return new ObjectAttributes(contentType, cacheControl, contentDisposition, contentEncoding, contentLanguage,
                expires, userMetadata, newAcl);
    }

    public ObjectAttributes withUserMetadata(Map<String, String> newMetadata) {
        return new ObjectAttributes(contentType, cacheControl, contentDisposition, contentEncoding, contentLanguage,
                expires, newMetadata, acl);
    }
}
