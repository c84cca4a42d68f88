package dev.cairn.service.bench;

import java.nio.ByteBuffer;
import java.util.Random;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The machine's HTTP ceiling for the service benchmark: a bare Jetty handler answering every
 * request with the same 20 KB from memory. Not a test; run by hand next to the service:
 * {@code java -cp <test classpath> dev.cairn.service.bench.BareJettyCeiling 9200}.
 */
public final class BareJettyCeiling {
    private BareJettyCeiling() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 9200;
        byte[] body = new byte[20 * 1024];
        new Random(1).nextBytes(body);
        Server server = new Server(new QueuedThreadPool(200));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
                response.write(true, ByteBuffer.wrap(body), callback);
                return true;
            }
        });
        server.start();
        System.out.println("bare Jetty serving 20 KB at http://127.0.0.1:" + port + "/");
        server.join();
    }
}
