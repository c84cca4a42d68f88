package dev.cairn.store;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a client states about an object when it writes it: the standard headers it wants
 * returned and its user metadata ({@code x-amz-meta-*}, names lower-cased, without the prefix).
 * Absent headers are null.
 */
public record ObjectAttributes(
        String contentType,
        String cacheControl,
        String contentDisposition,
        String contentEncoding,
        String contentLanguage,
        String expires,
        Map<String, String> userMetadata) {

    public static final ObjectAttributes EMPTY = new ObjectAttributes(null, null, null, null, null, null, Map.of());

    public ObjectAttributes {
        userMetadata = userMetadata == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(userMetadata));
    }
}
