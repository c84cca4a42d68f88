package dev.cairn.backup.target;

import java.io.IOException;
import java.nio.file.Path;

/** Opens the target that {@link TargetOptions} names. */
public final class Targets {
    private Targets() {
    }

    /** {@code forReading}: a directory is neither created nor required to be writable. */
    public static Target open(TargetOptions o, boolean forReading) throws IOException {
        String t = o.target;
        if (t.startsWith("dir:")) {
            Path root = Path.of(t.substring("dir:".length()));
            return forReading ? DirectoryTarget.forReading(root) : new DirectoryTarget(root);
        }
        if (t.startsWith("s3://")) {
            String rest = t.substring("s3://".length());
            int slash = rest.indexOf('/');
            String bucket = slash < 0 ? rest : rest.substring(0, slash);
            String prefix = slash < 0 ? "" : rest.substring(slash + 1);
            if (bucket.isEmpty()) {
                throw new IllegalArgumentException("--target " + t + ": no bucket");
            }
            return new S3Target(S3Clients.create(o.endpoint, o.region, o.accessKeyFile, o.secretKeyFile),
                    bucket, prefix, o.endpoint);
        }
        throw new IllegalArgumentException("--target " + t + ": expected dir:/path or s3://bucket/prefix");
    }
}
