package dev.cairn.service.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The string that AWS Signature Version 2 signs: the method, Content-MD5, Content-Type, the date
 * slot, the canonicalized {@code x-amz-*} headers and the canonicalized resource, one per line.
 * Pure functions of the request as received.
 */
final class SigV2StringToSign {
    /**
     * The query parameters that take part in the canonicalized resource: S3's sub-resources and
     * response overrides, and those that SDKs add to the list for S3's newer sub-resources.
     */
    static final Set<String> SUB_RESOURCES = Set.of("acl", "cors", "delete", "lifecycle", "location", "logging",
            "notification", "partNumber", "policy", "requestPayment", "tagging", "torrent", "uploadId", "uploads",
            "versionId", "versioning", "versions", "website",
            "response-cache-control", "response-content-disposition", "response-content-encoding",
            "response-content-language", "response-content-type", "response-expires",
            "accelerate", "analytics", "inventory", "metrics", "object-lock", "replication", "restore", "select",
            "select-type");

    private SigV2StringToSign() {
    }

    /** One query parameter as sent: {@code hasValue} when an {@code =} followed the name. */
    record Param(String rawName, String rawValue, boolean hasValue) {
        String name() {
            return decode(rawName);
        }

        String value() {
            return decode(rawValue);
        }
    }

    static List<Param> parseQuery(String rawQuery) {
        List<Param> params = new ArrayList<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return params;
        }
        for (String part : rawQuery.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            params.add(eq < 0 ? new Param(part, "", false) : new Param(part.substring(0, eq), part.substring(eq + 1), true));
        }
        return params;
    }

    /** The first four lines: method, Content-MD5, Content-Type and the date slot, each ended by a newline. */
    static String head(String method, String contentMd5, String contentType, String dateSlot) {
        return method + '\n' + blankIfNull(contentMd5) + '\n' + blankIfNull(contentType) + '\n' + blankIfNull(dateSlot)
                + '\n';
    }

    /**
     * The {@code x-amz-*} headers, lowercase, sorted by name, values trimmed and repeated ones
     * joined with commas, each line ended by a newline.
     *
     * @param headers lowercase name → values in the order received
     */
    static String amzHeaders(Map<String, List<String>> headers) {
        TreeMap<String, String> sorted = new TreeMap<>();
        headers.forEach((name, values) -> {
            if (name.startsWith("x-amz-") && !values.isEmpty()) {
                StringBuilder joined = new StringBuilder();
                for (String v : values) {
                    if (joined.length() > 0) {
                        joined.append(',');
                    }
                    joined.append(v.trim());
                }
                sorted.put(name, joined.toString());
            }
        });
        StringBuilder b = new StringBuilder();
        sorted.forEach((name, value) -> b.append(name).append(':').append(value).append('\n'));
        return b.toString();
    }

    /**
     * The canonicalized resource: the bucket of a virtual-hosted request, the path as sent, and the
     * sub-resources sorted by name.
     *
     * @param bucketInHost the bucket the host names, or null for a path-style request
     * @param decodedValues sub-resource values decoded (as S3 and botocore sign them) or as sent
     *                      with an empty value's {@code =} dropped (as s3cmd signs them)
     */
    static String resource(String bucketInHost, String rawPath, List<Param> query, boolean decodedValues) {
        StringBuilder b = new StringBuilder();
        if (bucketInHost != null) {
            b.append('/').append(bucketInHost);
        }
        b.append(rawPath);
        List<Param> included = new ArrayList<>();
        for (Param p : query) {
            if (SUB_RESOURCES.contains(p.name())) {
                included.add(p);
            }
        }
        included.sort((x, y) -> x.name().compareTo(y.name()));
        char separator = '?';
        for (Param p : included) {
            b.append(separator).append(p.name());
            separator = '&';
            if (decodedValues ? p.hasValue() : !p.rawValue().isEmpty()) {
                b.append('=').append(decodedValues ? p.value() : p.rawValue());
            }
        }
        return b.toString();
    }

    private static String decode(String raw) {
        String decoded = UriEncoding.decodeLenient(raw, false);
        return decoded == null ? raw : decoded;
    }

    private static String blankIfNull(String s) {
        return s == null ? "" : s.trim();
    }
}
