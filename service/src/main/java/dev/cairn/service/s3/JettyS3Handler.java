package dev.cairn.service.s3;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty core handler in front of the servlet context: answers S3 requests through
 * {@link S3FrontDoor} and passes the rest ({@code /actuator}) on to Spring. S3 requests thus skip
 * the servlet layer (context scope, session and security handlers, request and response
 * wrappers) and the filter chain. Handlers block the Jetty thread they run on, as servlets did.
 */
public final class JettyS3Handler extends Handler.Wrapper {
    private final S3FrontDoor frontDoor;

    public JettyS3Handler(S3FrontDoor frontDoor, Handler next) {
        super(next);
        this.frontDoor = frontDoor;
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (dev.cairn.service.console.ConsoleRoute.isConsole(request.getHttpURI().getPath()) && !frontDoor.isVirtualHosted(Request.getServerName(request))) return super.handle(request, response, callback);
        if (S3FrontDoor.isActuator(request.getHttpURI().getPath())
                && !frontDoor.isVirtualHosted(Request.getServerName(request))) {
            return super.handle(request, response, callback);
        }
        try {
            JettyExchange exchange = new JettyExchange(request, response);
            frontDoor.serve(exchange);
            exchange.handOverHeaders();
            callback.succeeded();
        } catch (Throwable e) {
            callback.failed(e);
        }
        return true;
    }
}
