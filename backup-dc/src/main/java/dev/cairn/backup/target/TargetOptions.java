package dev.cairn.backup.target;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the archive lives, as command-line options. Each default is written once, here. */
public final class TargetOptions {
    public static final String DEFAULT_REGION = "us-east-1";

    @Option(names = "--target", required = true,
            description = "the archive: dir:/path or s3://bucket/prefix")
    public String target;

    @Option(names = "--target-endpoint", description = "S3 endpoint URL of an s3:// target, e.g. http://127.0.0.1:9000 "
            + "(requests are path-style when set); default: the SDK's own resolution")
    public String endpoint;

    @Option(names = "--target-access-key-file", description = "file holding the S3 access key; default: the SDK's "
            + "credential chain (environment, ~/.aws)")
    public Path accessKeyFile;

    @Option(names = "--target-secret-key-file", description = "file holding the S3 secret key")
    public Path secretKeyFile;

    @Option(names = "--target-region", defaultValue = DEFAULT_REGION, description = "S3 region (default: ${DEFAULT-VALUE})")
    public String region = DEFAULT_REGION;

    public Target open() throws java.io.IOException {
        return Targets.open(this, false);
    }

    /** The target, to be read only: a directory is neither created nor required to be writable. */
    public Target openForReading() throws java.io.IOException {
        return Targets.open(this, true);
    }
}
