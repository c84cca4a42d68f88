package dev.cairn.service.s3;

import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty core handler in front of the servlet context: answers S3 requests through
 * {@link S3FrontDoor} and passes the rest ({@code /actuator}, the console) on to Spring. S3 requests thus skip
 * the servlet layer (context scope, session and security handlers, request and response
 * wrappers) and the filter chain.
 *
 * <p>The handler declares itself non-blocking, so Jetty calls it on the thread that read the
 * request instead of handing every request to another thread. A GET or HEAD without a body is
 * first tried right there ({@link HttpExchange#mayBlock()} false): one the object cache answers
 * is served without a thread switch, its body written detached. Anything that would wait (a store
 * read, a blocking write, an error body) throws {@link WouldBlock} before the answer is committed,
 * and the request is served again from the start on a pool thread, as are all other requests.
 * There, handlers block the thread they run on, as servlets did, except that a body all in memory
 * is written detached: the thread goes free and the answer completes when Jetty has written it
 * ({@link JettyExchange#writeLastDetached}).
 */
public final class JettyS3Handler extends Handler.Wrapper {
    private final S3FrontDoor frontDoor;

    public JettyS3Handler(S3FrontDoor frontDoor, Handler next) {
        super(next);
        this.frontDoor = frontDoor;
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!isS3(request)) {
            onPoolThread(request, callback, () -> passOn(request, response, callback));
            return true;
        }
        if (mayAnswerInPlace(request)) {
            JettyExchange exchange = new JettyExchange(request, response, callback, false);
            try {
                serve(exchange);
                return true;
            } catch (WouldBlock e) {
                response.reset();
                frontDoor.handedOff();
            }
        }
        onPoolThread(request, callback, () -> serve(new JettyExchange(request, response, callback, true)));
        return true;
    }

    /** Only a GET or HEAD without a body: nothing to read, and most likely a cache hit. */
    private static boolean mayAnswerInPlace(Request request) {
        String method = request.getMethod();
        return (HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method))
                && request.getLength() <= 0
                && !request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
    }

    private void serve(JettyExchange exchange) {
        Throwable thrown = null;
        try {
            frontDoor.serve(exchange);
        } catch (WouldBlock e) {
            if (!exchange.mayBlock()) {
                throw e;
            }
            thrown = e;
        } catch (Throwable e) {
            thrown = e;
        }
        exchange.served(thrown);
    }

    private void passOn(Request request, Response response, Callback callback) {
        try {
            if (!super.handle(request, response, callback)) {
                Response.writeError(request, response, callback, 404);
            }
        } catch (Throwable e) {
            callback.failed(e);
        }
    }

    private static void onPoolThread(Request request, Callback callback, Runnable task) {
        try {
            request.getComponents().getExecutor().execute(task);
        } catch (RejectedExecutionException e) {
            callback.failed(e);
        }
    }

    /**
     * Whether a request is S3's: all are but the console's and the operations endpoint's paths
     * and a browser's request for its icon, and those too when virtual-hosted (a bucket's keys may start with anything).
     */
    private boolean isS3(Request request) {
        String path = request.getHttpURI().getPath();
        boolean elsewhere = ConsoleRoute.isConsole(path) || S3FrontDoor.isActuator(path) || FaviconRoute.isFavicon(request);
        return !elsewhere || frontDoor.isVirtualHosted(Request.getServerName(request));
    }
}
