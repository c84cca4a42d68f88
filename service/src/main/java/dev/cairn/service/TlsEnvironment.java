package dev.cairn.service;

import dev.cairn.service.config.TlsProperties;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Turns {@code cairn.tls.*} into Spring Boot's SSL settings: a PEM bundle named {@value #BUNDLE}
 * that is reloaded when its files change ({@code reload-on-update}) and whose key is checked
 * against the certificate ({@code verify-keys}), served on {@code server.port}
 * ({@code server.ssl.bundle}). Settings written directly under {@code spring.ssl.*} or
 * {@code server.ssl.*} take precedence. Runs after the configuration files are read.
 */
public class TlsEnvironment implements EnvironmentPostProcessor, Ordered {
    /** The name of the SSL bundle built from {@code cairn.tls.*}. */
    public static final String BUNDLE = "cairn";
    static final String SOURCE = "cairnTls";
    private static final String PREFIX = "spring.ssl.bundle.pem." + BUNDLE + ".";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        TlsProperties tls = Binder.get(environment).bind("cairn.tls", TlsProperties.class)
                .orElseGet(TlsProperties::new);
        if (!tls.isEnabled()) {
            return;
        }
        tls.validate();
        Map<String, Object> mapped = new LinkedHashMap<>();
        mapped.put(PREFIX + "keystore.certificate", location(tls.getCertificate()));
        mapped.put(PREFIX + "keystore.private-key", location(tls.getPrivateKey()));
        if (tls.getPrivateKeyPassword() != null) {
            mapped.put(PREFIX + "keystore.private-key-password", tls.getPrivateKeyPassword());
        }
        mapped.put(PREFIX + "keystore.verify-keys", "true");
        mapped.put(PREFIX + "reload-on-update", "true");
        mapped.put("server.ssl.bundle", BUNDLE);
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE, mapped));
    }

    private static String location(Path file) {
        return "file:" + file.toAbsolutePath().normalize();
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
