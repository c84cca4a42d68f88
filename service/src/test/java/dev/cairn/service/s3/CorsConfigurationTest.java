package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PutBucketCors's document as S3 checks it, and how its rules match an origin, a method and requested headers. */
class CorsConfigurationTest {
    private static CorsConfiguration parse(String rules) throws S3Exception {
        return CorsConfiguration.parse(("<CORSConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                + rules + "</CORSConfiguration>").getBytes(StandardCharsets.UTF_8));
    }

    private static S3Exception refused(String rules) {
        return assertThrows(S3Exception.class, () -> parse(rules));
    }

    private static final String APP = "<CORSRule><ID>app</ID><AllowedOrigin>https://*.example.com</AllowedOrigin>"
            + "<AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod>"
            + "<AllowedHeader>Content-*</AllowedHeader><AllowedHeader>x-amz-meta-colour</AllowedHeader>"
            + "<ExposeHeader>ETag</ExposeHeader><ExposeHeader>x-amz-version-id</ExposeHeader>"
            + "<MaxAgeSeconds>600</MaxAgeSeconds></CORSRule>";
    private static final String ANYONE_READS = "<CORSRule><AllowedOrigin>*</AllowedOrigin>"
            + "<AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod></CORSRule>";

    @Test
    void theFirstRuleAllowingOriginMethodAndEveryRequestedHeaderWins() throws S3Exception {
        CorsConfiguration c = parse(APP + ANYONE_READS);
        CorsRule app = c.match("https://www.example.com", "PUT", List.of("content-type", "x-amz-meta-colour"));
        assertEquals("app", app.id());
        assertEquals("https://www.example.com", app.allowOrigin("https://www.example.com"));
        assertEquals("GET, PUT", app.allowMethods());
        assertEquals("ETag, x-amz-version-id", app.exposeHeadersValue());
        assertEquals(600, app.maxAgeSeconds());

        assertNull(c.match("https://www.example.com", "PUT", List.of("x-amz-meta-other")), "a header no rule allows");
        assertNull(c.match("https://example.org", "PUT", List.of()), "an origin no PUT rule allows");
        assertNull(c.match("http://www.example.com", "PUT", List.of()), "another scheme");
        assertNull(c.match("https://www.example.com", "DELETE", List.of()));
        CorsRule reads = c.match("https://example.org", "GET", List.of());
        assertEquals("*", reads.allowOrigin("https://example.org"));
        assertNull(reads.exposeHeadersValue());
        assertNull(reads.maxAgeSeconds());
        assertNull(c.match("https://example.org", "GET", List.of("content-type")), "the second rule allows no header");
    }

    @Test
    void aWildcardStandsForAnyRunOfCharactersAndHeadersMatchIgnoringCase() throws S3Exception {
        assertTrue(CorsRule.wildcardMatch("https://*.example.com", "https://a.b.example.com"));
        assertTrue(CorsRule.wildcardMatch("http://localhost:*", "http://localhost:8080"));
        assertTrue(CorsRule.wildcardMatch("a*", "a"));
        assertFalse(CorsRule.wildcardMatch("https://*.example.com", "https://example.com"));
        assertFalse(CorsRule.wildcardMatch("ab*ba", "aba"), "prefix and suffix may not overlap");
        CorsConfiguration c = parse("<CORSRule><AllowedOrigin>https://a.example</AllowedOrigin>"
                + "<AllowedMethod>POST</AllowedMethod><AllowedHeader>*</AllowedHeader></CORSRule>");
        assertEquals(List.of("x-amz-date", "authorization"),
                CorsConfiguration.requestedHeaders(" X-Amz-Date ,Authorization,, "));
        assertTrue(c.match("https://a.example", "POST", CorsConfiguration.requestedHeaders("X-Anything, Authorization")) != null);
        assertTrue(CorsConfiguration.requestedHeaders(null).isEmpty());
    }

    @Test
    void theStoredDocumentReadsBackAsTheSameRulesAndIsParsedOnce() throws S3Exception {
        CorsConfiguration c = parse(APP + ANYONE_READS);
        String xml = c.toXml();
        assertTrue(xml.contains("<AllowedHeader>Content-*</AllowedHeader>"), xml);
        CorsConfiguration again = CorsConfiguration.parse(xml.getBytes(StandardCharsets.UTF_8));
        assertEquals(c.rules(), again.rules());
        assertEquals(xml, again.toXml());
        assertSame(CorsConfiguration.ofStored(xml), CorsConfiguration.ofStored(new String(xml)));
        assertTrue(CorsConfiguration.ofStored("<not-cors/>").rules().isEmpty(), "a document that no longer parses allows nothing");
    }

    @Test
    void badDocumentsAreRefusedAsS3RefusesThem() {
        assertEquals("MalformedXML", refused("").code(), "no rule");
        assertEquals("MalformedXML", refused("<CORSRule><AllowedMethod>GET</AllowedMethod></CORSRule>").code());
        assertEquals("MalformedXML", refused("<CORSRule><AllowedOrigin>*</AllowedOrigin></CORSRule>").code());
        assertEquals("MalformedXML", refused(ANYONE_READS.replace("</CORSRule>", "<Colour>red</Colour></CORSRule>")).code());
        assertEquals("MalformedXML", refused(ANYONE_READS.replace("</CORSRule>", "<MaxAgeSeconds>soon</MaxAgeSeconds></CORSRule>")).code());
        assertEquals("MalformedXML", refused(ANYONE_READS.repeat(CorsConfiguration.MAX_RULES + 1)).code());
        assertEquals("MalformedXML", assertThrows(S3Exception.class,
                () -> CorsConfiguration.parse("<CORSConfiguration><CORSRule>".getBytes(StandardCharsets.UTF_8))).code());
        assertEquals("MalformedXML", assertThrows(S3Exception.class,
                () -> CorsConfiguration.parse("<Other/>".getBytes(StandardCharsets.UTF_8))).code());

        S3Exception method = refused(ANYONE_READS.replace("HEAD", "PATCH"));
        assertEquals("InvalidRequest", method.code());
        assertEquals("Found unsupported HTTP method in CORS config. Unsupported method is PATCH", method.getMessage());
        S3Exception origin = refused(ANYONE_READS.replace("<AllowedOrigin>*</AllowedOrigin>",
                "<AllowedOrigin>https://*.*.example</AllowedOrigin>"));
        assertEquals("InvalidRequest", origin.code());
        assertEquals("AllowedOrigin \"https://*.*.example\" can not have more than one wildcard.", origin.getMessage());
        assertEquals("InvalidRequest", refused(ANYONE_READS.replace("</CORSRule>",
                "<AllowedHeader>x-*-*</AllowedHeader></CORSRule>")).code());
        assertEquals("InvalidRequest", refused(ANYONE_READS.replace("</CORSRule>",
                "<ExposeHeader>*</ExposeHeader></CORSRule>")).code());
        assertEquals(CorsConfiguration.MAX_RULES, assertDoesParse(ANYONE_READS.repeat(CorsConfiguration.MAX_RULES)));
    }

    private static int assertDoesParse(String rules) {
        try {
            return parse(rules).rules().size();
        } catch (S3Exception e) {
            throw new AssertionError(e);
        }
    }
}
