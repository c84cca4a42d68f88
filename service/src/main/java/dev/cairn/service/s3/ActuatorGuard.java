package dev.cairn.service.s3;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Keeps the actuator of the S3 port to keys with the metrics (or admin) role, the health probes
 * ({@code /actuator/health} and below) excepted: they stay open for the orchestrator. A refusal is
 * S3's AccessDenied (403) with a {@code WWW-Authenticate: Basic} challenge. A separate management
 * port ({@code management.server.port}) is served by another server, without this guard: bind it
 * where only the scraper reaches ({@code management.server.address}).
 */
public final class ActuatorGuard extends Handler.Wrapper {
    private static final String HEALTH = "/actuator/health";
    private final MetricsAccess access;

    public ActuatorGuard(MetricsAccess access, Handler next) {
        super(next);
        this.access = access;
    }

    static boolean isHealth(String path) {
        return path != null && (path.equals(HEALTH) || path.startsWith(HEALTH + "/"));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        org.eclipse.jetty.http.HttpURI uri = request.getHttpURI();
        String path = uri.getPath();
        // A health path only as written: no dot segments, escapes or parameters that Spring would
        // resolve to another endpoint.
        boolean health = isHealth(path) && path.equals(uri.getCanonicalPath()) && uri.getParam() == null
                && !String.valueOf(uri.getPathQuery()).contains("%") && !path.contains("//");
        if (!S3FrontDoor.isActuator(path) || health) {
            return super.handle(request, response, callback);
        }
        JettyExchange exchange = new JettyExchange(request, response, callback, true);
        if (access.allows(exchange)) {
            return super.handle(request, response, callback);
        }
        Throwable thrown = null;
        try {
            exchange.setStatus(403);
            exchange.setHeader("WWW-Authenticate", "Basic realm=\"cairn-metrics\"");
            exchange.setHeader("Content-Type", "application/xml");
            exchange.send(Xml.plainDocument("Error").element("Code", S3Error.ACCESS_DENIED.code())
                    .element("Message", "the actuator needs a key with the metrics or admin role")
                    .element("Resource", path).toBytes());
        } catch (Throwable e) {
            thrown = e;
        }
        exchange.served(thrown);
        return true;
    }
}
