package dev.cairn.service.console;

import dev.cairn.service.s3.ConsoleRoute;
import dev.cairn.store.StoreException;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.server.ResponseStatusException;

/** The console's errors: a short page for the browser, JSON for the page's script ({@code /console/api/}). */
@ControllerAdvice(assignableTypes = {BrowseController.class, BucketsController.class, ContentController.class,
        OpsController.class, SignInController.class, UploadController.class, VersionsController.class})
@ConsoleOn
class ConsoleErrors {

    @ExceptionHandler(ResponseStatusException.class)
    ResponseEntity<String> status(ResponseStatusException e, HttpServletRequest request) {
        return answer(request, e.getStatusCode().value(), e.getReason());
    }

    @ExceptionHandler(StoreException.class)
    ResponseEntity<String> store(StoreException e, HttpServletRequest request) {
        int status = switch (e.reason()) {
            case NO_SUCH_BUCKET, NO_SUCH_KEY, CONTENT_GONE, NO_SUCH_UPLOAD -> 404;
            case BUCKET_EXISTS, BUCKET_NOT_EMPTY, PRECONDITION_FAILED, CONDITIONAL_CONFLICT -> 409;
            default -> 400;
        };
        return answer(request, status, e.getMessage());
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ResponseEntity<String> missing(MissingServletRequestParameterException e, HttpServletRequest request) {
        return answer(request, 400, e.getMessage());
    }

    private static ResponseEntity<String> answer(HttpServletRequest request, int status, String message) {
        if (request.getRequestURI().startsWith(ConsoleRoute.PREFIX + "/api/")) {
            String json = "{\"error\":\"" + (message == null ? "" : message.replace("\\", "\\\\").replace("\"", "\\\"")) + "\"}";
            return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(json);
        }
        ConsoleSession s = ConsoleGuard.session(request);
        Html h = new Html().begin("Error " + status, s, false).notice(message, true)
                .raw("<p><a href=\"/console/buckets\">Back to the buckets</a></p>");
        return Pages.html(status, h.end());
    }
}
