package dev.cairn.service;

import dev.cairn.service.config.CairnProperties;
import dev.cairn.service.config.TlsProperties;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * HTTPS on Jetty. Spring Boot builds the HTTPS connector on {@code server.port} from the SSL bundle
 * named by {@code server.ssl.bundle} (see {@link TlsEnvironment}); S3 requests on it pass the same
 * handlers as on plain HTTP, since {@code JettyS3Handler} sits on the server, not on a connector.
 * This configuration adds what Spring Boot does not do for Jetty: it swaps the certificate into the
 * running connector when the bundle is reloaded (new handshakes get it, open connections keep
 * theirs), and it adds the optional plain HTTP connector on a loopback address
 * ({@code cairn.tls.http-port}).
 */
@Configuration(proxyBeanMethods = false)
public class TlsConfiguration {
    private static final Logger LOG = LoggerFactory.getLogger(TlsConfiguration.class);

    @Bean
    public TlsConnectors tlsConnectors(CairnProperties props, SslBundles bundles, Environment environment) {
        props.getTls().validate();
        boolean sslEnabled = environment.getProperty("server.ssl.enabled", Boolean.class, true);
        String bundle = sslEnabled ? environment.getProperty("server.ssl.bundle") : null;
        return new TlsConnectors(props.getTls(), bundles, bundle);
    }

    /**
     * Runs before the other Jetty customizers, so that the plain connector it adds gets the same
     * connector settings as the HTTPS one ({@code ServiceConfiguration.jettyTuning}).
     */
    public static final class TlsConnectors implements WebServerFactoryCustomizer<JettyServletWebServerFactory>, Ordered {
        private final TlsProperties tls;
        private final SslBundles bundles;
        private final String bundleName;

        TlsConnectors(TlsProperties tls, SslBundles bundles, String bundleName) {
            this.tls = tls;
            this.bundles = bundles;
            this.bundleName = bundleName;
        }

        @Override
        public void customize(JettyServletWebServerFactory factory) {
            if (bundleName == null) {
                return;
            }
            factory.addServerCustomizers(server -> {
                SslContextFactory.Server ssl = sslContextFactory(server);
                LOG.info("TLS on port {} with {}", factory.getPort(), describe(bundles.getBundle(bundleName)));
                bundles.addBundleUpdateHandler(bundleName, updated -> reload(ssl, updated));
                if (tls.getHttpPort() != null) {
                    ServerConnector plain = new ServerConnector(server, new HttpConnectionFactory(new HttpConfiguration()));
                    plain.setHost(tls.getHttpAddress());
                    plain.setPort(tls.getHttpPort());
                    plain.setName("plain-loopback");
                    server.addConnector(plain);
                }
            });
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }
    }

    private static SslContextFactory.Server sslContextFactory(Server server) {
        for (Connector c : server.getConnectors()) {
            SslConnectionFactory ssl = c.getConnectionFactory(SslConnectionFactory.class);
            if (ssl != null) {
                return ssl.getSslContextFactory();
            }
        }
        throw new IllegalStateException("server.ssl.bundle is set but Jetty has no HTTPS connector");
    }

    /** Replaces the key and trust stores of the running connector; on failure the old ones stay. */
    static void reload(SslContextFactory.Server ssl, SslBundle bundle) {
        try {
            ssl.reload(f -> {
                f.setKeyStore(bundle.getStores().getKeyStore());
                if (bundle.getStores().getKeyStorePassword() != null) {
                    f.setKeyStorePassword(bundle.getStores().getKeyStorePassword());
                }
                if (bundle.getKey().getPassword() != null) {
                    f.setKeyManagerPassword(bundle.getKey().getPassword());
                }
                f.setTrustStore(bundle.getStores().getTrustStore());
            });
            LOG.info("TLS certificate reloaded: {}", describe(bundle));
        } catch (Exception e) {
            LOG.error("TLS certificate reload failed; the previous certificate is still served", e);
        }
    }

    /** The leaf certificate's subject, serial and expiry, for the log. */
    static String describe(SslBundle bundle) {
        KeyStore keys = bundle.getStores().getKeyStore();
        try {
            for (String alias : Collections.list(keys.aliases())) {
                if (keys.getCertificate(alias) instanceof X509Certificate x) {
                    return "certificate " + x.getSubjectX500Principal().getName() + ", serial "
                            + x.getSerialNumber().toString(16) + ", valid until " + x.getNotAfter().toInstant();
                }
            }
        } catch (KeyStoreException e) {
            return "an unreadable certificate (" + e.getMessage() + ")";
        }
        return "no certificate";
    }
}
