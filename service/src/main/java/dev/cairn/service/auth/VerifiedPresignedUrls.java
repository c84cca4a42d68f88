package dev.cairn.service.auth;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Presigned URLs whose signature verified. A URL fetched again (an image
 * on a page, a shared download link) then skips what only repeats the first check: parsing its
 * parameters, the canonical request, SHA-256 and the HMAC. Everything the signature covers
 * besides the query must be the same as when it verified: method, path, each signed header's
 * values and the payload hash; and the signing key now in force for its access key, date and
 * region must be the very one it verified under, so a changed or removed secret is never
 * bypassed. The verifier checks time, key and unsigned headers on every request, hit or not.
 *
 * <p>Thread-safe. Holds at most {@link #LIMIT} URLs; when full it starts over.
 */
final class VerifiedPresignedUrls {
    /** About 1.5 KB each for a typical URL: a few megabytes at most. */
    static final int LIMIT = 4096;

    private static final String SIGNATURE_PARAMETER = "X-Amz-Signature=";
    private static final String SIGNATURE_AFTER_ANOTHER = "&" + SIGNATURE_PARAMETER;

    /** By the signature's value, cheaper to hash than the query it is part of. */
    private final Map<String, Entry> bySignature = new ConcurrentHashMap<>();

    /**
     * One verified URL.
     *
     * @param signedHeaderValues the values of {@code claim.signedHeaderNames()}, in that order
     * @param signingKey         the signing key it verified under (compared by identity)
     */
    record Entry(String rawQuery, String method, String rawPath, List<List<String>> signedHeaderValues,
                 String payloadHash, ClaimedSignature claim, byte[] signingKey) {
        /** Whether {@code request} is this URL again, with the same signed parts. */
        boolean covers(SignedRequest request) {
            if (!rawQuery.equals(request.rawQuery()) || !method.equals(request.method())
                    || !rawPath.equals(request.rawPath())) {
                return false;
            }
            List<String> names = claim.signedHeaderNames();
            for (int i = 0; i < names.size(); i++) {
                if (!signedHeaderValues.get(i).equals(request.headerValues(names.get(i)))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The entry of a URL verified before that may be this query's (see {@link Entry#covers}), or null. */
    Entry get(String rawQuery) {
        String signature = signature(rawQuery);
        return signature == null ? null : bySignature.get(signature);
    }

    /**
     * The raw value of the first X-Amz-Signature parameter, or null. Only a key to look under:
     * {@link Entry#covers} compares the whole query.
     */
    private static String signature(String rawQuery) {
        int from;
        if (rawQuery.startsWith(SIGNATURE_PARAMETER)) {
            from = SIGNATURE_PARAMETER.length();
        } else {
            int at = rawQuery.indexOf(SIGNATURE_AFTER_ANOTHER);
            if (at < 0) {
                return null;
            }
            from = at + SIGNATURE_AFTER_ANOTHER.length();
        }
        int end = rawQuery.indexOf('&', from);
        return rawQuery.substring(from, end < 0 ? rawQuery.length() : end);
    }

    void put(SignedRequest request, String payloadHash, ClaimedSignature claim, byte[] signingKey) {
        List<String> names = claim.signedHeaderNames();
        List<String>[] values = newListArray(names.size());
        for (int i = 0; i < values.length; i++) {
            values[i] = List.copyOf(request.headerValues(names.get(i)));
        }
        String signature = signature(request.rawQuery());
        if (signature == null) {
            return;
        }
        if (bySignature.size() >= LIMIT) {
            bySignature.clear();
        }
        bySignature.put(signature, new Entry(request.rawQuery(), request.method(), request.rawPath(), List.of(values),
                payloadHash, claim, signingKey));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<String>[] newListArray(int size) {
        return new List[size];
    }

    int size() {
        return bySignature.size();
    }
}
