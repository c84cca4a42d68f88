package dev.cairn.service.console;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.server.ResponseStatusException;

/** Responses shared by the console's controllers. */
final class Pages {
    private Pages() {
    }

    static ResponseEntity<String> html(int status, String body) {
        return ResponseEntity.status(status).contentType(new MediaType("text", "html", java.nio.charset.StandardCharsets.UTF_8))
                .body(body);
    }

    static <T> ResponseEntity<T> redirect(String location) {
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create(location)).build();
    }

    /** Throws 403 unless the session's key may do {@code action} on {@code bucket}. */
    static void require(ConsoleAccess access, ConsoleSession session, String bucket, ConsoleAccess.Action action) {
        if (!access.may(session.accessKey(), bucket, action)) {
            throw new ResponseStatusException(HttpStatus.FORBIDDEN,
                    "access key " + session.accessKey() + " may not " + action.name().toLowerCase(java.util.Locale.ROOT)
                            + (bucket == null ? "" : " in bucket " + bucket));
        }
    }

    static ResponseStatusException notFound(String what) {
        return new ResponseStatusException(HttpStatus.NOT_FOUND, what);
    }

    static ResponseStatusException badRequest(String what) {
        return new ResponseStatusException(HttpStatus.BAD_REQUEST, what);
    }
}
