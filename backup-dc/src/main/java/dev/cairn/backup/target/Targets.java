package dev.cairn.backup.target;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opens the target that {@link TargetOptions} names. */
public final class Targets {
    private Targets() {
    }

    /** {@code forReading}: a directory is neither created nor required to be writable. */
    public static Target open(TargetOptions o, boolean forReading) throws IOException {
        check(o);
        String t = o.target;
        if (t.startsWith("dir:")) {
            Path root = Path.of(t.substring("dir:".length()));
            return forReading ? DirectoryTarget.forReading(root) : new DirectoryTarget(root);
        }
        String rest = t.substring("s3://".length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1);
        return new S3Target(S3Clients.create(o.endpoint, o.region, o.accessKeyFile, o.secretKeyFile),
                bucket, prefix, o.endpoint);
    }

    /**
     * The options' own errors — the target's form, key files given alone or unreadable — found
     * without contacting anything: {@link #open} checks them first, and {@code schedule} at its start.
     */
    public static void check(TargetOptions o) {
        String t = o.target;
        if (t == null || !(t.startsWith("dir:") || t.startsWith("s3://"))) {
            throw new IllegalArgumentException("--target " + t + ": expected dir:/path or s3://bucket/prefix");
        }
        if (t.startsWith("dir:") && t.length() == "dir:".length()) {
            throw new IllegalArgumentException("--target " + t + ": no directory");
        }
        if (t.startsWith("s3://") && (t.length() == "s3://".length() || t.charAt("s3://".length()) == '/')) {
            throw new IllegalArgumentException("--target " + t + ": no bucket");
        }
        if ((o.accessKeyFile == null) != (o.secretKeyFile == null)) {
            throw new IllegalArgumentException("give both --target-access-key-file and --target-secret-key-file, or neither");
        }
        for (Path file : new Path[] {o.accessKeyFile, o.secretKeyFile}) {
            if (file != null && (!Files.isRegularFile(file) || !Files.isReadable(file))) {
                throw new IllegalArgumentException(file + ": no such key file, or not readable");
            }
        }
    }
}
