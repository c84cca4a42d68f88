package dev.cairn.service.s3;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One CORSRule of a bucket's CORS configuration, as S3 has it: the origins it allows (each with
 * at most one {@code *}), its methods, the request headers a preflight may ask for (with
 * {@code *} wildcards, matched ignoring case), the response headers a browser may show the page,
 * and how long a browser may keep a preflight's answer. The header values it answers with are
 * joined once, here, not per request. Immutable; thread-safe.
 */
record CorsRule(String id, List<String> origins, List<String> methods, List<String> allowedHeaders,
                List<String> exposeHeaders, Integer maxAgeSeconds, List<String> allowedHeadersLowerCase,
                String allowMethods, String exposeHeadersValue) {
    /** The methods a rule may allow, as S3. */
    static final Set<String> METHODS = Set.of("GET", "PUT", "POST", "DELETE", "HEAD");

    CorsRule(String id, List<String> origins, List<String> methods, List<String> allowedHeaders,
             List<String> exposeHeaders, Integer maxAgeSeconds) {
        this(id, List.copyOf(origins), List.copyOf(methods), List.copyOf(allowedHeaders), List.copyOf(exposeHeaders),
                maxAgeSeconds, allowedHeaders.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList(),
                String.join(", ", methods),
                exposeHeaders.isEmpty() ? null : String.join(", ", exposeHeaders));
    }

    /** The origin this rule allows a request from, as {@code Access-Control-Allow-Origin} names it; null when none. */
    String allowOrigin(String origin) {
        for (String o : origins) {
            if (o.equals("*")) {
                return "*";
            }
            if (wildcardMatch(o, origin)) {
                return origin;
            }
        }
        return null;
    }

    boolean allowsMethod(String method) {
        return methods.contains(method);
    }

    /** Whether every header a preflight asks for (lower case) matches one of the rule's. */
    boolean allowsHeaders(List<String> requested) {
        for (String h : requested) {
            boolean allowed = false;
            for (String pattern : allowedHeadersLowerCase) {
                if (wildcardMatch(pattern, h)) {
                    allowed = true;
                    break;
                }
            }
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    /** {@code pattern} with at most one {@code *}, which stands for any run of characters, empty included. */
    static boolean wildcardMatch(String pattern, String value) {
        int star = pattern.indexOf('*');
        if (star < 0) {
            return pattern.equals(value);
        }
        int suffix = pattern.length() - star - 1;
        return value.length() >= star + suffix && value.startsWith(pattern.substring(0, star))
                && value.endsWith(pattern.substring(star + 1));
    }
}
