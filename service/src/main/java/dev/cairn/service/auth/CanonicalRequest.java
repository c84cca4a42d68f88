package dev.cairn.service.auth;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Builds SigV4 canonical requests for S3. S3 signs the path URI-encoded once (never twice, never
 * normalised), the query sorted by encoded name then value, and the signed headers with values
 * trimmed and inner runs of spaces collapsed. Thread-safe: stateless.
 */
final class CanonicalRequest {
    private static final Comparator<String[]> BY_NAME_THEN_VALUE =
            Comparator.<String[], String>comparing(p -> p[0]).thenComparing(p -> p[1]);

    private CanonicalRequest() {
    }

    /** One query parameter as sent: raw name and raw value ("" when it had no '='). */
    record QueryParam(String rawName, String rawValue) {
    }

    static List<QueryParam> parseQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return List.of();
        }
        List<QueryParam> params = new ArrayList<>();
        int start = 0;
        while (start <= rawQuery.length()) {
            int amp = rawQuery.indexOf('&', start);
            int end = amp < 0 ? rawQuery.length() : amp;
            if (end > start) {
                int eq = rawQuery.indexOf('=', start);
                if (eq < 0 || eq > end) {
                    params.add(new QueryParam(rawQuery.substring(start, end), ""));
                } else {
                    params.add(new QueryParam(rawQuery.substring(start, eq), rawQuery.substring(eq + 1, end)));
                }
            }
            if (amp < 0) {
                break;
            }
            start = amp + 1;
        }
        return params;
    }

    /**
     * The canonical URI. {@code normalize} re-encodes the decoded path strictly (what SDKs sign);
     * otherwise the path is taken byte for byte as sent.
     */
    static String canonicalUri(String rawPath, boolean normalize) {
        if (rawPath.isEmpty()) {
            return "/";
        }
        if (!normalize || UriEncoding.isStrictlyEncoded(rawPath, true)) {
            return rawPath;
        }
        String decoded = UriEncoding.decode(rawPath, false);
        return decoded == null ? rawPath : UriEncoding.encode(decoded, true);
    }

    /** The canonical query string without the parameter {@code excludedName} (presigned signature). */
    static String canonicalQuery(List<QueryParam> params, String excludedName, boolean normalize) {
        if (params.isEmpty()) {
            return "";
        }
        List<String[]> pairs = new ArrayList<>(params.size());
        for (QueryParam param : params) {
            if (param.rawName().equals(excludedName)) {
                continue;
            }
            if (normalize) {
                pairs.add(new String[] {normalizeQueryPart(param.rawName()), normalizeQueryPart(param.rawValue())});
            } else {
                pairs.add(new String[] {param.rawName(), param.rawValue()});
            }
        }
        pairs.sort(BY_NAME_THEN_VALUE);
        StringBuilder out = new StringBuilder();
        for (String[] pair : pairs) {
            if (out.length() > 0) {
                out.append('&');
            }
            out.append(pair[0]).append('=').append(pair[1]);
        }
        return out.toString();
    }

    /** A query name or value as the canonical query has it: re-encoded strictly unless it already is. */
    static String normalizeQueryPart(String raw) {
        if (UriEncoding.isStrictlyEncoded(raw, false)) {
            return raw;
        }
        String decoded = UriEncoding.decode(raw, true);
        return decoded == null ? raw : UriEncoding.encode(decoded, false);
    }

    /** "name:value\n" for each signed header, in the order the client listed them. */
    static String canonicalHeaders(SignedRequest request, List<String> signedHeaders) {
        StringBuilder out = new StringBuilder(256);
        for (String name : signedHeaders) {
            out.append(name).append(':');
            List<String> values = request.headerValues(name);
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                appendTrimmedCollapsed(out, values.get(i));
            }
            out.append('\n');
        }
        return out.toString();
    }

    static void appendTrimmedCollapsed(StringBuilder out, String value) {
        int start = 0;
        int end = value.length();
        while (start < end && isSpace(value.charAt(start))) {
            start++;
        }
        while (end > start && isSpace(value.charAt(end - 1))) {
            end--;
        }
        boolean previousSpace = false;
        for (int i = start; i < end; i++) {
            char c = value.charAt(i);
            if (isSpace(c)) {
                if (!previousSpace) {
                    out.append(' ');
                }
                previousSpace = true;
            } else {
                out.append(c);
                previousSpace = false;
            }
        }
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    /**
     * Servers may hand over header bytes decoded as ISO-8859-1; a client signs the UTF-8 it sent.
     * Returns the headers with such text decoded again as UTF-8, or null when there is none.
     */
    static String redecodeLatin1AsUtf8(String canonicalHeaders) {
        boolean latin1 = false;
        for (int i = 0; i < canonicalHeaders.length(); i++) {
            char c = canonicalHeaders.charAt(i);
            if (c > 0xff) {
                return null;
            }
            latin1 |= c >= 0x80;
        }
        if (!latin1) {
            return null;
        }
        return new String(canonicalHeaders.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    static String build(String method, String canonicalUri, String canonicalQuery, String canonicalHeaders,
                        String signedHeaders, String payloadHash) {
        return method + '\n' + canonicalUri + '\n' + canonicalQuery + '\n' + canonicalHeaders + '\n'
                + signedHeaders + '\n' + payloadHash;
    }
}
