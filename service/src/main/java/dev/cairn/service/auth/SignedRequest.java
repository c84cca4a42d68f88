package dev.cairn.service.auth;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The parts of an HTTP request that a SigV4 signature covers, as received on the wire.
 *
 * @param method   the HTTP method, such as {@code PUT}
 * @param rawPath  the request path exactly as sent, still percent-encoded ({@code /b/a%20b})
 * @param rawQuery the query string exactly as sent, without the {@code ?}; null when absent
 * @param headers  header name → values in the order received; names are lowercased and merged by
 *                 the constructor, so lookups are case-insensitive. Must include {@code host}. A map
 *                 whose names are all lowercase and whose values are immutable lists already (as
 *                 the S3 layer builds it) is kept as a read-only view instead of copied: it must not
 *                 change afterwards.
 */
public record SignedRequest(String method, String rawPath, String rawQuery, Map<String, List<String>> headers) {

    public SignedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(rawPath, "rawPath");
        headers = lowercaseNames(Objects.requireNonNull(headers, "headers"));
    }

    /** The first value of a header, or null. */
    public String firstHeader(String name) {
        List<String> values = lookUp(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** All values of a header in order received; empty when absent. */
    public List<String> headerValues(String name) {
        List<String> values = lookUp(name);
        return values == null ? List.of() : values;
    }

    /** The names are lowercase: a name found as given needs no lowercasing (the verifier asks in lowercase). */
    private List<String> lookUp(String name) {
        List<String> values = headers.get(name);
        if (values == null) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!lower.equals(name)) {
                values = headers.get(lower);
            }
        }
        return values;
    }

    private static Map<String, List<String>> lowercaseNames(Map<String, List<String>> headers) {
        if (isLowercaseAndImmutable(headers)) {
            return Collections.unmodifiableMap(headers);
        }
        Map<String, List<String>> result = new HashMap<>(Math.max(16, headers.size() * 2));
        headers.forEach((name, values) -> {
            if (name == null || values == null) {
                return;
            }
            String lower = name.toLowerCase(Locale.ROOT);
            List<String> existing = result.get(lower);
            if (existing == null) {
                result.put(lower, List.copyOf(values));
            } else {
                List<String> merged = new ArrayList<>(existing);
                merged.addAll(values);
                result.put(lower, List.copyOf(merged));
            }
        });
        return Collections.unmodifiableMap(result);
    }

    private static boolean isLowercaseAndImmutable(Map<String, List<String>> headers) {
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            String name = e.getKey();
            List<String> values = e.getValue();
            // List.copyOf returns an immutable list itself, and copies any other.
            if (name == null || values == null || List.copyOf(values) != values) {
                return false;
            }
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                if (c >= 'A' && c <= 'Z' || c >= 0x80) {
                    return false;
                }
            }
        }
        return true;
    }
}
