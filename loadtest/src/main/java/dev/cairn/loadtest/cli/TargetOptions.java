package dev.cairn.loadtest.cli;

import dev.cairn.loadtest.targets.HttpTarget;
import dev.cairn.loadtest.targets.S3Endpoint;
import dev.cairn.loadtest.targets.S3Target;
import dev.cairn.loadtest.targets.Target;
import java.net.URI;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The target: an S3 endpoint ({@code --endpoint} with credentials and bucket) or a web server
 * ({@code --http} base URL). Thread-safety: one per command.
 */
public final class TargetOptions {

    /** The default bucket. */
    public static final String DEFAULT_BUCKET = "loadtest";

    @Option(names = "--endpoint", description = "S3 endpoint URL, e.g. http://127.0.0.1:9000.")
    URI endpoint;

    @Option(names = "--http", description = "Base URL of a web server serving the dataset's files (GET key = base + key).")
    URI http;

    @Option(names = "--bucket", defaultValue = DEFAULT_BUCKET, description = "S3 bucket (default: ${DEFAULT-VALUE}).")
    String bucket;

    @Option(names = "--region", defaultValue = S3Endpoint.DEFAULT_REGION, description = "S3 region (default: ${DEFAULT-VALUE}).")
    String region;

    @Option(names = "--access-key", defaultValue = "${env:AWS_ACCESS_KEY_ID}",
            description = "S3 access key (default: $AWS_ACCESS_KEY_ID).")
    String accessKey;

    @Option(names = "--secret-key", defaultValue = "${env:AWS_SECRET_ACCESS_KEY}",
            description = "S3 secret key (default: $AWS_SECRET_ACCESS_KEY).")
    String secretKey;

    @Option(names = "--path-style", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Path-style bucket addressing (default: on; --no-path-style for virtual-hosted).")
    boolean pathStyle;

    @Option(names = "--timeout", defaultValue = "30s", converter = Units.DurationConverter.class,
            description = "Connect and read timeout of each request (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    boolean isSet() {
        return endpoint != null || http != null;
    }

    S3Endpoint s3(URI at, String inBucket) {
        return new S3Endpoint(at, region, accessKey, secretKey, pathStyle, inBucket);
    }

    S3Target s3Target(int connections) {
        return new S3Target(s3(endpoint, bucket), connections, timeoutMillis());
    }

    int timeoutMillis() {
        return Math.toIntExact(timeout.toMillis());
    }

    /** The run's target; exactly one of --endpoint and --http must be given. */
    Target target(int connections) {
        if ((endpoint == null) == (http == null)) {
            throw new IllegalArgumentException("give exactly one target: --endpoint (S3) or --http (web server)");
        }
        return endpoint != null ? s3Target(connections) : new HttpTarget(http, timeoutMillis());
    }
}
