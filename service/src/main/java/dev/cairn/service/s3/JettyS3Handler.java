package dev.cairn.service.s3;

import dev.cairn.service.console.ConsoleRoute;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty core handler in front of the servlet context: answers S3 requests through
 * {@link S3FrontDoor} and passes the rest ({@code /actuator}, the console) on to Spring. S3 requests thus skip
 * the servlet layer (context scope, session and security handlers, request and response
 * wrappers) and the filter chain. Handlers block the Jetty thread they run on, as servlets did,
 * except that a body all in memory is written detached: the thread goes free and the answer
 * completes when Jetty has written it ({@link JettyExchange#writeLastDetached}).
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
        if (!isS3(request)) {
            return super.handle(request, response, callback);
        }
        JettyExchange exchange = new JettyExchange(request, response, callback);
        Throwable thrown = null;
        try {
            frontDoor.serve(exchange);
        } catch (Throwable e) {
            thrown = e;
        }
        exchange.served(thrown);
        return true;
    }

    /**
     * Whether a request is S3's: all are but the console's and the operations endpoint's paths,
     * and those too when virtual-hosted (a bucket's keys may start with anything).
     */
    private boolean isS3(Request request) {
        String path = request.getHttpURI().getPath();
        boolean elsewhere = ConsoleRoute.isConsole(path) || S3FrontDoor.isActuator(path);
        return !elsewhere || frontDoor.isVirtualHosted(Request.getServerName(request));
    }
}
