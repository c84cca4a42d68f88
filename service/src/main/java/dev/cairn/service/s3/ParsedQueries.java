package dev.cairn.service.s3;

import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Query strings parsed lately ({@link UrlCodec#parseQuery}): a presigned URL fetched again (an
 * image on a page) brings the same 300–500 byte query, six parameters to split and decode, each
 * time. Only queries up to {@link #MAX_LENGTH} characters are kept, at most {@link #LIMIT} of them
 * (a few megabytes); when full it starts over. A query that does not parse is never kept.
 * Queries are looked up by their length and last {@link #HASHED_TAIL} characters (a presigned
 * URL's signature), then compared whole: Jetty makes a new string per request, so
 * {@link String#hashCode} would hash all of it every time. Thread-safe; the maps handed out are
 * read-only.
 */
final class ParsedQueries {
    static final int MAX_LENGTH = 1024;
    static final int LIMIT = 4096;

    static final int HASHED_TAIL = 32;

    private static final Map<Key, Map<String, String>> PARSED = new ConcurrentHashMap<>();

    /** A query string hashed by its length and tail, equal when the whole strings are. */
    private record Key(String raw, int hash) {
        static Key of(String raw) {
            int h = raw.length();
            for (int i = Math.max(0, raw.length() - HASHED_TAIL); i < raw.length(); i++) {
                h = 31 * h + raw.charAt(i);
            }
            return new Key(raw, h);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && k.raw.equals(raw);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

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
        Key key = Key.of(raw);
        Map<String, String> parsed = PARSED.get(key);
        if (parsed == null) {
            parsed = Collections.unmodifiableMap(UrlCodec.parseQuery(raw));
            if (PARSED.size() >= LIMIT) {
                PARSED.clear();
            }
            PARSED.put(key, parsed);
        }
        return parsed;
    }

    static int size() {
        return PARSED.size();
    }
}
