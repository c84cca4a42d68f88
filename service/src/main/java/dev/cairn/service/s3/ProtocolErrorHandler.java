package dev.cairn.service.s3;

import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The server's error handler, in front of the one it replaces. Jetty refuses a request it
 * cannot parse (a header section or request line over its limit, malformed syntax) before any
 * filter runs, and answers through this handler: S3 clients get S3 XML errors with a request id
 * instead of Jetty's HTML pages. Other errors go to the handler replaced. They are counted in the S3 metrics (errors by code) but, having no
 * S3 request, not in the access log. Thread-safe.
 */
public final class ProtocolErrorHandler implements Request.Handler {
    private final Request.Handler fallback;
    private final S3Metrics metrics;

    public ProtocolErrorHandler(Request.Handler fallback, S3Metrics metrics) {
        this.fallback = fallback != null ? fallback : new ErrorHandler();
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Object status = request.getAttribute(ErrorHandler.ERROR_STATUS);
        S3Error error;
        String message;
        if (Integer.valueOf(431).equals(status) || Integer.valueOf(414).equals(status)) {
            error = S3Error.REQUEST_HEADER_SECTION_TOO_LARGE;
            message = error.message();
        } else if (Integer.valueOf(400).equals(status)) {
            error = S3Error.INVALID_REQUEST;
            Object reason = request.getAttribute(ErrorHandler.ERROR_MESSAGE);
            message = reason instanceof String s && !s.isBlank() ? s : error.message();
        } else {
            return fallback.handle(request, response, callback);
        }
        // The request never reached S3FrontDoor, so it has no id yet: a random one still lets logs and clients agree.
        String requestId = String.format("%016X", ThreadLocalRandom.current().nextLong());
        response.setStatus(error.status());
        response.getHeaders().put("x-amz-request-id", requestId);
        response.getHeaders().put("x-amz-id-2", requestId);
        if ("HEAD".equals(request.getMethod())) {
            metrics.record(Operation.UNSUPPORTED, 0, 0, 0, error.code());
            callback.succeeded();
            return true;
        }
        byte[] body = Xml.plainDocument("Error").element("Code", error.code()).element("Message", message)
                .element("RequestId", requestId).toBytes();
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/xml");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        metrics.record(Operation.UNSUPPORTED, 0, 0, body.length, error.code());
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }
}
