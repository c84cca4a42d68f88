package dev.cairn.service.s3;

import java.util.Locale;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * Jetty's HTTP/1.1 connection factory, except that an {@code Expect} header naming anything but
 * {@code 100-continue} alone is ignored, as S3 ignores it, instead of Jetty's {@code 417} before
 * the request is handled. The header stays in the request as sent (a client may have signed it);
 * Jetty only no longer acts on it, so such a request gets no interim 100 either. Jetty 12 has no
 * setting for this: the parsed header reaches the connection's stream through the request
 * handler, which this factory's connections wrap. Thread-safe.
 */
public final class LenientExpectConnectionFactory extends HttpConnectionFactory {

    public LenientExpectConnectionFactory(HttpConfiguration config) {
        super(config);
    }

    /** A factory to put in place of {@code original}, with its configuration and settings. */
    public static LenientExpectConnectionFactory replacing(HttpConnectionFactory original) {
        LenientExpectConnectionFactory f = new LenientExpectConnectionFactory(original.getHttpConfiguration());
        f.setUseInputDirectByteBuffers(original.isUseInputDirectByteBuffers());
        f.setUseOutputDirectByteBuffers(original.isUseOutputDirectByteBuffers());
        return f;
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        LenientConnection connection = new LenientConnection(getHttpConfiguration(), connector, endPoint);
        connection.setUseInputDirectByteBuffers(isUseInputDirectByteBuffers());
        connection.setUseOutputDirectByteBuffers(isUseOutputDirectByteBuffers());
        return configure(connection, connector, endPoint);
    }

    /** Whether Jetty acts on this {@code Expect} value: exactly {@code 100-continue}. */
    static boolean isUnderstood(String value) {
        return value != null && value.trim().toLowerCase(Locale.ROOT).equals("100-continue");
    }

    private static final class LenientConnection extends HttpConnection {
        LenientConnection(HttpConfiguration config, Connector connector, EndPoint endPoint) {
            super(config, connector, endPoint);
        }

        @Override
        protected RequestHandler newRequestHandler() {
            return new RequestHandler() {
                @Override
                public void parsedHeader(HttpField field) {
                    if (field.getHeader() == HttpHeader.EXPECT && !isUnderstood(field.getValue())) {
                        // Without its known header the field is kept as any other, and not acted on.
                        super.parsedHeader(new HttpField((HttpHeader) null, field.getName(), field.getValue()));
                    } else {
                        super.parsedHeader(field);
                    }
                }
            };
        }
    }
}
