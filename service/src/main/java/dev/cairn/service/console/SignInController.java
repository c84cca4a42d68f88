package dev.cairn.service.console;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** Sign-in with an access key and its secret, and sign-out. */
@Controller
@ConsoleOn
class SignInController {
    private final ConsoleSessions sessions;
    private final ConsoleAccess access;

    SignInController(ConsoleSessions sessions, ConsoleAccess access) {
        this.sessions = sessions;
        this.access = access;
    }

    @GetMapping({"/console", "/console/"})
    ResponseEntity<Void> root() {
        return Pages.redirect("/console/buckets");
    }

    @GetMapping("/console/login")
    ResponseEntity<String> form(HttpServletRequest request, HttpServletResponse response) {
        if (sessions.find(ConsoleGuard.cookie(request, ConsoleGuard.COOKIE)) != null) {
            return Pages.redirect("/console/buckets");
        }
        return page(request, response, null, 200);
    }

    @PostMapping(value = "/console/login", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    ResponseEntity<String> signIn(@RequestParam(name = "accessKey", defaultValue = "") String accessKey,
                                  @RequestParam(name = "secretKey", defaultValue = "") String secretKey,
                                  @RequestParam(name = "signin", defaultValue = "") String token,
                                  HttpServletRequest request, HttpServletResponse response) {
        String expected = ConsoleGuard.cookie(request, ConsoleGuard.SIGN_IN_COOKIE);
        if (expected == null || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8))) {
            return page(request, response, "The sign-in form expired; please try again.", 403);
        }
        Optional<ConsoleSession> session = sessions.signIn(accessKey.trim(), secretKey);
        if (session.isEmpty()) {
            return page(request, response, "Unknown access key or wrong secret.", 401);
        }
        if (!access.may(session.get().accessKey(), null, ConsoleAccess.Action.LIST)) {
            sessions.signOut(session.get().id());
            return page(request, response, "This key's role makes no S3 requests, so it cannot use the console.", 403);
        }
        ConsoleGuard.setCookie(request, response, ConsoleGuard.SIGN_IN_COOKIE, "");
        ConsoleGuard.setCookie(request, response, ConsoleGuard.COOKIE, session.get().id());
        return Pages.redirect("/console/buckets");
    }

    @PostMapping("/console/logout")
    ResponseEntity<Void> signOut(HttpServletRequest request, HttpServletResponse response) {
        sessions.signOut(ConsoleGuard.session(request).id());
        ConsoleGuard.setCookie(request, response, ConsoleGuard.COOKIE, "");
        return Pages.redirect("/console/login");
    }

    private ResponseEntity<String> page(HttpServletRequest request, HttpServletResponse response, String error, int status) {
        String token = sessions.newToken();
        ConsoleGuard.setCookie(request, response, ConsoleGuard.SIGN_IN_COOKIE, token);
        Html h = new Html().begin("Sign in", null, false).notice(error, true);
        h.raw("<form class=\"signin\" method=\"post\" action=\"/console/login\">")
                .raw("<input type=\"hidden\" name=\"signin\" value=\"").text(token).raw("\">")
                .raw("<label for=\"accessKey\">Access key</label>")
                .raw("<input id=\"accessKey\" name=\"accessKey\" autocomplete=\"username\" required autofocus>")
                .raw("<label for=\"secretKey\">Secret key</label>")
                .raw("<input id=\"secretKey\" name=\"secretKey\" type=\"password\" autocomplete=\"current-password\" required>")
                .raw("<button type=\"submit\">Sign in</button></form>");
        return Pages.html(status, h.end());
    }
}
