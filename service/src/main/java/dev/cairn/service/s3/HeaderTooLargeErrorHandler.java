package dev.cairn.service.s3;

import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The server's error handler. Jetty refuses a request whose header section exceeds its limit
 * while parsing it, before any filter runs, and answers through this handler: S3 clients get
 * S3's {@code RequestHeaderSectionTooLarge} error instead of Jetty's 431 page. Other errors
 * keep Jetty's answer. Thread-safe.
 */
public final class HeaderTooLargeErrorHandler extends ErrorHandler {

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!Integer.valueOf(431).equals(request.getAttribute(ERROR_STATUS))) {
            return super.handle(request, response, callback);
        }
        S3Error error = S3Error.REQUEST_HEADER_SECTION_TOO_LARGE;
        // The request never reached S3Filter, so it has no id yet: a random one still lets logs and clients agree.
        String requestId = String.format("%016X", ThreadLocalRandom.current().nextLong());
        response.setStatus(error.status());
        response.getHeaders().put("x-amz-request-id", requestId);
        response.getHeaders().put("x-amz-id-2", requestId);
        if (request.getMethod().equals("HEAD")) {
            callback.succeeded();
            return true;
        }
        byte[] body = Xml.plainDocument("Error").element("Code", error.code()).element("Message", error.message())
                .element("RequestId", requestId).toBytes();
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/xml");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }
}
