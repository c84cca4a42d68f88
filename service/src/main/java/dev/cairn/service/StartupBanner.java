package dev.cairn.service;

import dev.cairn.service.config.CairnProperties;
import java.io.PrintStream;
import java.util.Map;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Prints the endpoint and the credentials to use once the server listens. Written to standard
 * output, not the log: a generated secret is shown once, on the start that generated it.
 */
@Component
class StartupBanner implements ApplicationListener<WebServerInitializedEvent> {
    private final Credentials credentials;
    private final CairnProperties props;

    StartupBanner(Credentials credentials, CairnProperties props) {
        this.credentials = credentials;
        this.props = props;
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getParent() != null) {
            return;
        }
        String address = event.getApplicationContext().getEnvironment().getProperty("server.address", "localhost");
        String scheme = event.getApplicationContext().getEnvironment().getProperty("server.ssl.bundle") != null
                ? "https" : "http";
        PrintStream out = System.out;
        out.println();
        out.println("Cairn is serving S3 at " + scheme + "://" + address + ":" + event.getWebServer().getPort()
                + "  (region " + props.getRegion() + ", data in " + props.getDataDir().toAbsolutePath().normalize() + ")");
        if (props.getTls().getHttpPort() != null) {
            out.println("  and plain HTTP on " + props.getTls().getHttpAddress() + ":" + props.getTls().getHttpPort());
        }
        if (credentials.generatedNow()) {
            Map.Entry<String, String> pair = credentials.secretsByAccessKey().entrySet().iterator().next();
            out.println("  generated development credentials, kept in " + credentials.generatedFile() + ":");
            out.println("    AWS_ACCESS_KEY_ID=" + pair.getKey());
            out.println("    AWS_SECRET_ACCESS_KEY=" + pair.getValue());
        } else if (credentials.generatedFile() != null) {
            out.println("  access key " + credentials.secretsByAccessKey().keySet().iterator().next()
                    + "; its secret is in " + credentials.generatedFile());
        } else if (!credentials.secretsByAccessKey().isEmpty()) {
            out.println("  admin access keys: " + credentials.secretsByAccessKey().keySet());
        }
        if (props.getAuth().getKeysFile() != null) {
            out.println("  access keys with roles from " + props.getAuth().getKeysFile() + " (bin/cairn keys list)");
        }
        out.println();
    }
}
