package dev.cairn.service.console;

import dev.cairn.service.s3.ConsoleRoute;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Runs before every console handler: sets the security headers, finds the session from its
 * cookie (no session: to the sign-in page, or 401 for the page's script), and refuses a
 * state-changing request (anything but GET and HEAD) without the session's CSRF token, in the
 * {@value #CSRF_HEADER} header or the {@value #CSRF_FIELD} form field, with 403. The sign-in form
 * carries a token of its own, bound to a cookie (so no other site can sign a browser in).
 *
 * <p>Thread-safe: stateless apart from the session store.
 */
final class ConsoleGuard implements HandlerInterceptor {
    static final String COOKIE = "cairn-console";
    static final String SIGN_IN_COOKIE = "cairn-console-signin";
    static final String CSRF_HEADER = "X-CSRF-Token";
    static final String CSRF_FIELD = "_csrf";
    static final String SESSION = ConsoleGuard.class.getName() + ".session";
    private static final String CSP = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
            + "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    private final ConsoleSessions sessions;

    ConsoleGuard(ConsoleSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) throws IOException {
        response.setHeader("Content-Security-Policy", CSP);
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        String path = request.getRequestURI();
        if (path.startsWith(ConsoleRoute.PREFIX + "/assets/")) {
            return true;
        }
        response.setHeader("Cache-Control", "no-store");
        if (path.equals(ConsoleRoute.PREFIX + "/login")) {
            return true;
        }
        ConsoleSession session = sessions.find(cookie(request, COOKIE));
        if (session == null) {
            if (path.startsWith(ConsoleRoute.PREFIX + "/api/") || !isSafe(request)) {
                response.sendError(401, "sign in first");
            } else {
                response.sendRedirect(ConsoleRoute.PREFIX + "/login");
            }
            return false;
        }
        if (!isSafe(request)) {
            String token = request.getHeader(CSRF_HEADER);
            if (token == null) {
                token = request.getParameter(CSRF_FIELD);
            }
            if (!ConsoleSessions.csrfMatches(session, token)) {
                response.sendError(403, "missing or wrong CSRF token");
                return false;
            }
        }
        request.setAttribute(SESSION, session);
        return true;
    }

    static boolean isSafe(HttpServletRequest request) {
        String m = request.getMethod();
        return m.equals("GET") || m.equals("HEAD");
    }

    static String cookie(HttpServletRequest request, String name) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie c : cookies) {
                if (c.getName().equals(name)) {
                    return c.getValue();
                }
            }
        }
        return null;
    }

    /** Sets a cookie scoped to the console: HttpOnly, SameSite=Strict, Secure on TLS; empty value clears it. */
    static void setCookie(HttpServletRequest request, HttpServletResponse response, String name, String value) {
        StringBuilder c = new StringBuilder(name).append('=').append(value)
                .append("; Path=").append(ConsoleRoute.PREFIX).append("; HttpOnly; SameSite=Strict");
        if (value.isEmpty()) {
            c.append("; Max-Age=0");
        }
        if (request.isSecure()) {
            c.append("; Secure");
        }
        response.addHeader("Set-Cookie", c.toString());
    }

    static ConsoleSession session(HttpServletRequest request) {
        return (ConsoleSession) request.getAttribute(SESSION);
    }
}
