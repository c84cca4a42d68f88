package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.auth.CredentialsProvider;
import jakarta.servlet.http.Cookie;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class ConsoleGuardTest {
    private final ConsoleSessions sessions = new ConsoleSessions(CredentialsProvider.of(Map.of("AK1", "s1")),
            Clock.systemUTC(), Duration.ofMinutes(30), Duration.ofHours(12));
    private final ConsoleGuard guard = new ConsoleGuard(sessions);
    private final ConsoleSession session = sessions.signIn("AK1", "s1").orElseThrow();

    private MockHttpServletRequest request(String method, String path, boolean withCookie) {
        MockHttpServletRequest r = new MockHttpServletRequest(method, path);
        if (withCookie) {
            r.setCookies(new Cookie(ConsoleGuard.COOKIE, session.id()));
        }
        return r;
    }

    @Test
    void pagesWithoutSessionGoToSignInAndTheApiAnswers401() throws Exception {
        MockHttpServletResponse page = new MockHttpServletResponse();
        assertFalse(guard.preHandle(request("GET", "/console/buckets", false), page, null));
        assertEquals("/console/login", page.getRedirectedUrl());
        MockHttpServletResponse api = new MockHttpServletResponse();
        assertFalse(guard.preHandle(request("GET", "/console/api/ops", false), api, null));
        assertEquals(401, api.getStatus());
        MockHttpServletResponse post = new MockHttpServletResponse();
        assertFalse(guard.preHandle(request("POST", "/console/buckets", false), post, null));
        assertEquals(401, post.getStatus());
    }

    @Test
    void aStateChangeNeedsTheSessionsCsrfToken() throws Exception {
        for (String method : new String[] {"POST", "PUT", "DELETE", "PATCH"}) {
            MockHttpServletResponse none = new MockHttpServletResponse();
            assertFalse(guard.preHandle(request(method, "/console/buckets", true), none, null));
            assertEquals(403, none.getStatus());

            MockHttpServletRequest wrong = request(method, "/console/buckets", true);
            wrong.addHeader(ConsoleGuard.CSRF_HEADER, sessions.newToken());
            MockHttpServletResponse refused = new MockHttpServletResponse();
            assertFalse(guard.preHandle(wrong, refused, null));
            assertEquals(403, refused.getStatus());

            MockHttpServletRequest header = request(method, "/console/buckets", true);
            header.addHeader(ConsoleGuard.CSRF_HEADER, session.csrfToken());
            assertTrue(guard.preHandle(header, new MockHttpServletResponse(), null));
            assertSame(session, ConsoleGuard.session(header));
        }
        MockHttpServletRequest form = request("POST", "/console/buckets", true);
        form.addParameter(ConsoleGuard.CSRF_FIELD, session.csrfToken());
        assertTrue(guard.preHandle(form, new MockHttpServletResponse(), null));
    }

    @Test
    void readsNeedASessionButNoToken() throws Exception {
        MockHttpServletRequest get = request("GET", "/console/buckets", true);
        MockHttpServletResponse response = new MockHttpServletResponse();
        assertTrue(guard.preHandle(get, response, null));
        assertEquals("no-store", response.getHeader("Cache-Control"));
        assertTrue(response.getHeader("Content-Security-Policy").contains("frame-ancestors 'none'"));
    }

    @Test
    void cookiesAreHttpOnlyStrictAndSecureOnTls() {
        MockHttpServletRequest plain = new MockHttpServletRequest();
        MockHttpServletResponse r1 = new MockHttpServletResponse();
        ConsoleGuard.setCookie(plain, r1, ConsoleGuard.COOKIE, "abc");
        assertEquals("cairn-console=abc; Path=/console; HttpOnly; SameSite=Strict", r1.getHeader("Set-Cookie"));
        MockHttpServletRequest tls = new MockHttpServletRequest();
        tls.setSecure(true);
        MockHttpServletResponse r2 = new MockHttpServletResponse();
        ConsoleGuard.setCookie(tls, r2, ConsoleGuard.COOKIE, "abc");
        assertTrue(r2.getHeader("Set-Cookie").contains("; Secure"), r2.getHeader("Set-Cookie"));
    }

    @Test
    void aSignedOutSessionIsRefused() throws Exception {
        sessions.signOut(session.id());
        MockHttpServletRequest r = request("POST", "/console/buckets", true);
        r.addHeader(ConsoleGuard.CSRF_HEADER, session.csrfToken());
        MockHttpServletResponse response = new MockHttpServletResponse();
        assertFalse(guard.preHandle(r, response, null));
        assertEquals(401, response.getStatus());
    }
}
