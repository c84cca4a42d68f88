package dev.cairn.service;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.StatisticsHandler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.embedded.jetty.JettyServerCustomizer;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;
import org.springframework.boot.web.embedded.jetty.JettyWebServer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring Boot's Jetty factory, made as Spring Boot makes it, except that the {@link StatisticsHandler}
 * it puts around everything for the graceful shutdown is swapped for {@link InFlightRequests}
 * (Spring adds it after every customizer has run, so only the factory can swap it).
 */
@Configuration(proxyBeanMethods = false)
public class JettyFactoryConfiguration {
    @Bean
    public JettyServletWebServerFactory jettyServletWebServerFactory(ObjectProvider<JettyServerCustomizer> customizers) {
        JettyServletWebServerFactory factory = new InFlightCountingFactory();
        factory.getServerCustomizers().addAll(customizers.orderedStream().toList());
        return factory;
    }

    static final class InFlightCountingFactory extends JettyServletWebServerFactory {
        @Override
        protected JettyWebServer getJettyWebServer(Server server) {
            swapStatisticsHandler(server);
            return super.getJettyWebServer(server);
        }
    }

    /** Replaces a plain {@link StatisticsHandler} at the top of the server's handlers, if there is one. */
    static void swapStatisticsHandler(Server server) {
        if (server.getHandler() instanceof StatisticsHandler statistics && statistics.getClass() == StatisticsHandler.class) {
            Handler inner = statistics.getHandler();
            statistics.setHandler((Handler) null);
            server.setHandler(new InFlightRequests(inner));
        }
    }
}
