package dev.cairn.service.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignedRequestTest {
    @Test
    void namesInAnyCaseAreMergedAndLookedUpInAnyCase() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("example.com"));
        headers.put("X-Amz-Meta-A", List.of("1"));
        headers.put("x-amz-meta-a", List.of("2"));
        SignedRequest request = new SignedRequest("GET", "/b/k", null, headers);
        assertEquals(List.of("1", "2"), request.headerValues("x-amz-meta-a"));
        assertEquals("1", request.firstHeader("X-AMZ-META-A"));
        assertEquals("example.com", request.firstHeader("HOST"));
        assertEquals(Map.of("host", List.of("example.com"), "x-amz-meta-a", List.of("1", "2")), request.headers());
    }

    @Test
    void lowercaseNamesWithImmutableValuesAreReadInPlaceAndCannotBeChangedThroughTheRequest() {
        Map<String, List<String>> headers = new HashMap<>();
        headers.put("host", List.of("example.com"));
        headers.put("x-amz-date", List.of("20260101T000000Z"));
        SignedRequest request = new SignedRequest("GET", "/b/k", null, headers);
        assertEquals("20260101T000000Z", request.firstHeader("X-Amz-Date"));
        assertEquals("example.com", request.firstHeader("host"));
        assertNull(request.firstHeader("authorization"));
        assertEquals(List.of(), request.headerValues("Authorization"));
        assertThrows(UnsupportedOperationException.class, () -> request.headers().put("x-amz-acl", List.of("public-read")));
    }

    @Test
    void valuesInMutableListsAreCopiedSoLaterChangesDoNotReachTheRequest() {
        Map<String, List<String>> headers = new HashMap<>();
        List<String> hosts = new ArrayList<>(List.of("example.com"));
        headers.put("host", hosts);
        SignedRequest request = new SignedRequest("GET", "/b/k", null, headers);
        hosts.set(0, "evil.example");
        headers.put("x-amz-date", List.of("20260101T000000Z"));
        assertEquals("example.com", request.firstHeader("host"));
        assertNull(request.firstHeader("x-amz-date"));
    }
}
