package dev.cairn.benchsupport;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.ServerConnector;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Not part of the service: the memory benchmark (service/src/test/bench/memory.sh) adds it to
 * the service it starts, through the launcher's {@code loader.path}, and it fixes the send
 * buffer of every connection the service accepts at {@code bench.send-buffer} bytes. Over
 * loopback the kernel grows a connection's send buffer up to 4 MiB, so an answer of a few
 * hundred KiB never waits on a slow reader; across a network, a reader slower than the link
 * keeps the sender's window, and so its buffer, far smaller. Outside the service's package, so
 * that no test's component scan meets it.
 */
@AutoConfiguration
public class BenchSendBuffer {

    @Bean
    public WebServerFactoryCustomizer<JettyServletWebServerFactory> benchSendBuffer(Environment env) {
        int bytes = env.getRequiredProperty("bench.send-buffer", Integer.class);
        return factory -> factory.addServerCustomizers(server -> {
            for (Connector c : server.getConnectors()) {
                if (c instanceof ServerConnector connector) {
                    connector.setAcceptedSendBufferSize(bytes);
                }
            }
        });
    }
}
