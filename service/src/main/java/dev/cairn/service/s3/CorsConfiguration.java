package dev.cairn.service.s3;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * A bucket's CORS configuration (PutBucketCors's {@code CORSConfiguration}): its rules, in order,
 * checked as S3 checks them when set, and matched against a request's origin, method and
 * requested headers, the first rule that matches winning. Stored as the XML GetBucketCors answers
 * ({@link #toXml}); the parse of each stored document is kept ({@link #ofStored}), so a request
 * on a bucket with CORS parses nothing. Immutable; thread-safe.
 */
final class CorsConfiguration {
    /** The most rules a configuration may have, as S3. */
    static final int MAX_RULES = 100;
    private static final int MAX_KEPT = 10_000;
    private static final Map<String, CorsConfiguration> PARSED = new ConcurrentHashMap<>();

    private final List<CorsRule> rules;

    CorsConfiguration(List<CorsRule> rules) {
        this.rules = List.copyOf(rules);
    }

    List<CorsRule> rules() {
        return rules;
    }

    /**
     * The configuration of a stored document, parsed once per distinct text. A stored document was
     * checked when it was set; one that no longer parses (written by hand) allows nothing.
     */
    static CorsConfiguration ofStored(String text) {
        CorsConfiguration c = PARSED.get(text);
        if (c != null) {
            return c;
        }
        try {
            c = parse(text.getBytes(StandardCharsets.UTF_8));
        } catch (S3Exception e) {
            c = new CorsConfiguration(List.of());
        }
        if (PARSED.size() >= MAX_KEPT) {
            PARSED.clear();
        }
        PARSED.put(text, c);
        return c;
    }

    /** The first rule allowing this origin, method and requested headers (lower case); null when none. */
    CorsRule match(String origin, String method, List<String> requestedHeaders) {
        for (CorsRule rule : rules) {
            if (rule.allowsMethod(method) && rule.allowOrigin(origin) != null && rule.allowsHeaders(requestedHeaders)) {
                return rule;
            }
        }
        return null;
    }

    /** A PutBucketCors body, checked: MalformedXML for a document S3's schema refuses, InvalidRequest for a bad value. */
    static CorsConfiguration parse(byte[] body) throws S3Exception {
        Element root = Xml.parse(body);
        if (!Xml.localNameOf(root).equals("CORSConfiguration")) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        List<CorsRule> rules = new ArrayList<>();
        for (Element e : elements(root)) {
            if (!Xml.localNameOf(e).equals("CORSRule")) {
                throw new S3Exception(S3Error.MALFORMED_XML);
            }
            rules.add(rule(e));
        }
        if (rules.isEmpty() || rules.size() > MAX_RULES) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        return new CorsConfiguration(rules);
    }

    private static CorsRule rule(Element rule) throws S3Exception {
        String id = null;
        Integer maxAge = null;
        List<String> origins = new ArrayList<>();
        List<String> methods = new ArrayList<>();
        List<String> allowed = new ArrayList<>();
        List<String> exposed = new ArrayList<>();
        for (Element e : elements(rule)) {
            String value = e.getTextContent().trim();
            switch (Xml.localNameOf(e)) {
                case "ID" -> {
                    if (id != null) {
                        throw new S3Exception(S3Error.MALFORMED_XML);
                    }
                    id = value;
                }
                case "MaxAgeSeconds" -> {
                    if (maxAge != null) {
                        throw new S3Exception(S3Error.MALFORMED_XML);
                    }
                    maxAge = maxAge(value);
                }
                case "AllowedOrigin" -> origins.add(atMostOneWildcard("AllowedOrigin", value));
                case "AllowedHeader" -> allowed.add(atMostOneWildcard("AllowedHeader", value));
                case "AllowedMethod" -> {
                    if (!CorsRule.METHODS.contains(value)) {
                        throw new S3Exception(S3Error.INVALID_REQUEST,
                                "Found unsupported HTTP method in CORS config. Unsupported method is " + value);
                    }
                    methods.add(value);
                }
                case "ExposeHeader" -> {
                    if (value.contains("*")) {
                        throw new S3Exception(S3Error.INVALID_REQUEST, "ExposeHeader \"" + value
                                + "\" contains wildcard. We currently do not support wildcard for ExposeHeader.");
                    }
                    exposed.add(value);
                }
                default -> throw new S3Exception(S3Error.MALFORMED_XML);
            }
        }
        if (origins.isEmpty() || methods.isEmpty()) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        return new CorsRule(id, origins, methods, allowed, exposed, maxAge);
    }

    private static Integer maxAge(String value) throws S3Exception {
        try {
            int n = Integer.parseInt(value);
            if (n < 0) {
                throw new S3Exception(S3Error.MALFORMED_XML);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
    }

    private static String atMostOneWildcard(String element, String value) throws S3Exception {
        if (value.indexOf('*') != value.lastIndexOf('*')) {
            throw new S3Exception(S3Error.INVALID_REQUEST,
                    element + " \"" + value + "\" can not have more than one wildcard.");
        }
        return value;
    }

    private static List<Element> elements(Element parent) throws S3Exception {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                out.add(e);
            } else if (n.getNodeType() == Node.TEXT_NODE && !n.getNodeValue().isBlank()) {
                throw new S3Exception(S3Error.MALFORMED_XML);
            }
        }
        return out;
    }

    /** The document GetBucketCors answers, and the store keeps. */
    String toXml() {
        Xml x = Xml.document("CORSConfiguration");
        for (CorsRule r : rules) {
            x.start("CORSRule").element("ID", r.id());
            r.allowedHeaders().forEach(h -> x.element("AllowedHeader", h));
            r.methods().forEach(m -> x.element("AllowedMethod", m));
            r.origins().forEach(o -> x.element("AllowedOrigin", o));
            r.exposeHeaders().forEach(h -> x.element("ExposeHeader", h));
            x.element("MaxAgeSeconds", r.maxAgeSeconds()).end();
        }
        return new String(x.toBytes(), StandardCharsets.UTF_8);
    }

    /** The headers a preflight asks for: {@code Access-Control-Request-Headers}, split, trimmed, lower case. */
    static List<String> requestedHeaders(String header) {
        if (header == null || header.isBlank()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String h : header.split(",")) {
            String t = h.trim().toLowerCase(Locale.ROOT);
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }
}
