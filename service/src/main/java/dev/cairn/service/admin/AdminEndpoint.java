package dev.cairn.service.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.service.s3.AdminRoute;
import dev.cairn.service.s3.Authentication;
import dev.cairn.service.s3.Authenticator;
import dev.cairn.service.s3.HttpExchange;
import dev.cairn.service.s3.S3Exception;
import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's admin endpoint, under {@code /_admin/} (no bucket name starts with {@code _}):
 *
 * <ul>
 *   <li>{@code POST /_admin/checkpoints}: takes an engine checkpoint; 201 with
 *       {@code {"id", "path", "createdAt", "expiresAt"}}.
 *   <li>{@code GET /_admin/checkpoints}: {@code {"checkpoints": [...]}}, oldest first.
 *   <li>{@code DELETE /_admin/checkpoints/{id}}: releases it; 204, or 404 when unknown.
 * </ul>
 *
 * Every request must be signed (AWS Signature V4, service {@code s3}) with an access key whose
 * role is admin or backup (docs/security.md); an anonymous or wrongly signed request, or one
 * signed by another key, gets 403. Errors are JSON
 * {@code {"code", "message"}}. With the Cassandra store there is no engine: 501.
 *
 * <p>Thread-safety: stateless apart from thread-safe collaborators.
 */
public final class AdminEndpoint implements AdminRoute {
    private static final Logger LOG = LoggerFactory.getLogger(AdminEndpoint.class);
    private static final String CHECKPOINTS = PREFIX + "checkpoints";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Authenticator authenticator;
    private final Checkpoints checkpoints;
    private final java.util.function.Predicate<String> mayCheckpoint;

    /**
     * @param checkpoints   null when the store has no engine
     * @param mayCheckpoint whether an access key may use the endpoint (its role is admin or backup)
     */
    public AdminEndpoint(Authenticator authenticator, Checkpoints checkpoints,
                         java.util.function.Predicate<String> mayCheckpoint) {
        this.authenticator = authenticator;
        this.checkpoints = checkpoints;
        this.mayCheckpoint = mayCheckpoint;
    }

    @Override
    public void serve(HttpExchange http) throws IOException {
        try {
            Authentication auth;
            try {
                auth = authenticator.authenticate(http);
            } catch (S3Exception e) {
                send(http, e.status(), error(e.code(), e.getMessage()));
                return;
            }
            if (auth.accessKey() == null) {
                send(http, 403, error("AccessDenied", "admin requests must be signed with the service's credentials"));
                return;
            }
            if (!mayCheckpoint.test(auth.accessKey())) {
                send(http, 403, error("AccessDenied", "admin requests need a key with the admin or backup role"));
                return;
            }
            try (InputStream body = auth.wrapBody(http.body())) {
                // Reading the body to its end lets the verifier check a signed payload's hash.
                if (body.readNBytes(64 * 1024).length > 0) {
                    send(http, 400, error("InvalidRequest", "admin requests take no body"));
                    return;
                }
            } catch (IOException e) {
                S3Exception failure = authenticator.failureOf(e);
                if (failure != null) {
                    send(http, failure.status(), error(failure.code(), failure.getMessage()));
                    return;
                }
                throw e;
            }
            route(http, auth.accessKey());
        } catch (IOException | RuntimeException e) {
            if (http.isCommitted()) {
                throw e instanceof IOException io ? io : new IOException(e);
            }
            LOG.error("admin request {} {} failed", http.method(), http.rawPath(), e);
            send(http, 500, error("InternalError", e.getMessage()));
        }
    }

    private void route(HttpExchange http, String who) throws IOException {
        String path = http.rawPath();
        String method = http.method();
        if (!path.equals(CHECKPOINTS) && !path.startsWith(CHECKPOINTS + "/")) {
            send(http, 404, error("NoSuchResource", "unknown admin resource " + path));
            return;
        }
        if (checkpoints == null) {
            send(http, 501, error("NotImplemented", "checkpoints exist only for the embedded store"));
            return;
        }
        String id = path.length() > CHECKPOINTS.length() + 1 ? path.substring(CHECKPOINTS.length() + 1) : null;
        if (id == null) {
            switch (method) {
                case "POST" -> {
                    Checkpoints.Checkpoint c = checkpoints.create();
                    LOG.info("checkpoint {} taken for {}", c.id(), who);
                    send(http, 201, describe(c));
                }
                case "GET" -> {
                    ObjectNode out = JSON.createObjectNode();
                    ArrayNode list = out.putArray("checkpoints");
                    for (Checkpoints.Checkpoint c : checkpoints.list()) {
                        list.add(describe(c));
                    }
                    out.put("lease", checkpoints.lease().toString());
                    send(http, 200, out);
                }
                default -> send(http, 405, error("MethodNotAllowed", method + " " + CHECKPOINTS + ": use POST or GET"));
            }
            return;
        }
        if (!method.equals("DELETE")) {
            send(http, 405, error("MethodNotAllowed", method + " " + path + ": use DELETE"));
            return;
        }
        if (!id.matches("[0-9a-f]{1,64}")) {
            send(http, 404, error("NoSuchCheckpoint", "no checkpoint " + id));
            return;
        }
        if (checkpoints.release(id)) {
            http.setStatus(204);
            http.send(new byte[0]);
        } else {
            send(http, 404, error("NoSuchCheckpoint", "no checkpoint " + id + " (released, or expired after its lease)"));
        }
    }

    private static ObjectNode describe(Checkpoints.Checkpoint c) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", c.id());
        n.put("path", c.path().toString());
        n.put("createdAt", c.createdAt().toString());
        n.put("expiresAt", c.expiresAt().toString());
        return n;
    }

    private static ObjectNode error(String code, String message) {
        ObjectNode n = JSON.createObjectNode();
        n.put("code", code);
        n.put("message", message == null ? code : message);
        return n;
    }

    private static void send(HttpExchange http, int status, ObjectNode body) throws IOException {
        http.setStatus(status);
        http.setHeader("Content-Type", "application/json");
        http.send(JSON.writeValueAsBytes(body));
    }
}
