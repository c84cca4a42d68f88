package dev.cairn.service.s3;

import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Query strings parsed lately ({@link UrlCodec#parseQuery}): a presigned URL fetched again (an
 * image on a page) brings the same 300–500 byte query, six parameters to split and decode, each
 * time. Only queries up to {@link #MAX_LENGTH} characters are kept, at most {@link #LIMIT} of them
 * (a few megabytes); when full it starts over. A query that does not parse is never kept.
 * Thread-safe; the maps handed out are read-only.
 */
final class ParsedQueries {
    static final int MAX_LENGTH = 1024;
    static final int LIMIT = 4096;

    private static final Map<String, Map<String, String>> PARSED = new ConcurrentHashMap<>();

    private ParsedQueries() {
    }

    /** The parameters of a raw query string, decoded, read-only; empty for none. */
    static Map<String, String> parse(String raw) throws S3Exception {
        if (raw == null || raw.isEmpty()) {
            return Map.of();
        }
        if (raw.length() > MAX_LENGTH) {
            return Collections.unmodifiableMap(UrlCodec.parseQuery(raw));
        }
        Map<String, String> parsed = PARSED.get(raw);
        if (parsed == null) {
            parsed = Collections.unmodifiableMap(UrlCodec.parseQuery(raw));
            if (PARSED.size() >= LIMIT) {
                PARSED.clear();
            }
            PARSED.put(raw, parsed);
        }
        return parsed;
    }

    static int size() {
        return PARSED.size();
    }
}
