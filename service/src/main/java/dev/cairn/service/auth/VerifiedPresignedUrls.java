package dev.cairn.service.auth;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Presigned URLs whose signature verified, by their query string. A URL fetched again (an image
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

    private final Map<String, Entry> byQuery = new ConcurrentHashMap<>();

    /**
     * One verified URL.
     *
     * @param signedHeaderValues the values of {@code claim.signedHeaderNames()}, in that order
     * @param signingKey         the signing key it verified under (compared by identity)
     */
    record Entry(String method, String rawPath, List<List<String>> signedHeaderValues, String payloadHash,
                 ClaimedSignature claim, byte[] signingKey) {
        /** Whether {@code request} is this URL again, with the same signed parts. */
        boolean covers(SignedRequest request) {
            if (!method.equals(request.method()) || !rawPath.equals(request.rawPath())) {
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

    /** The entry of a URL with this query that verified before, or null. */
    Entry get(String rawQuery) {
        return byQuery.get(rawQuery);
    }

    void put(SignedRequest request, String payloadHash, ClaimedSignature claim, byte[] signingKey) {
        List<String> names = claim.signedHeaderNames();
        List<String>[] values = newListArray(names.size());
        for (int i = 0; i < values.length; i++) {
            values[i] = List.copyOf(request.headerValues(names.get(i)));
        }
        if (byQuery.size() >= LIMIT) {
            byQuery.clear();
        }
        byQuery.put(request.rawQuery(), new Entry(request.method(), request.rawPath(), List.of(values), payloadHash,
                claim, signingKey));
    }

    @SuppressWarnings("unchecked")
    private static List<String>[] newListArray(int size) {
        return new List[size];
    }

    int size() {
        return byQuery.size();
    }
}
