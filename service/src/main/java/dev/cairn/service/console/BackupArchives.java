package dev.cairn.service.console;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/** Opens the archive {@code cairn.console.backup-archive} names, as a source of run reports. */
final class BackupArchives {
    private BackupArchives() {
    }

    /**
     * Where an archive is: a directory, or a bucket and a prefix (empty or ending in {@code /}),
     * as backup-dc's {@code --target} names it.
     */
    record Location(Path directory, String bucket, String prefix) {
        static Location parse(String archive) {
            if (archive.startsWith("s3://")) {
                String rest = archive.substring("s3://".length());
                int slash = rest.indexOf('/');
                String bucket = slash < 0 ? rest : rest.substring(0, slash);
                String prefix = slash < 0 ? "" : rest.substring(slash + 1);
                if (bucket.isEmpty()) {
                    throw new IllegalArgumentException("invalid setting: cairn.console.backup-archive " + archive + " names no bucket");
                }
                return new Location(null, bucket, prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/");
            }
            String dir = archive.startsWith("dir:") ? archive.substring("dir:".length()) : archive;
            if (dir.isEmpty() || archive.contains("://")) {
                throw new IllegalArgumentException("invalid setting: cairn.console.backup-archive " + archive
                        + ": expected dir:/path, /path or s3://bucket/prefix");
            }
            return new Location(Path.of(dir), null, null);
        }
    }

    /** The source of the archive's run reports; null when no archive is set. */
    static BackupHistory.Source open(ConsoleSettings settings, Map<String, String> environment, Clock clock) {
        if (settings.getBackupArchive() == null) {
            return null;
        }
        Location at = Location.parse(settings.getBackupArchive());
        if (at.directory() != null) {
            return new DirectoryReports(at.directory());
        }
        S3ArchiveClient.CredentialSource credentials = credentials(settings, environment);
        S3ArchiveClient client = new S3ArchiveClient(settings.getBackupArchiveEndpoint(), at.bucket(),
                settings.getBackupArchiveRegion(), credentials, settings.getBackupArchiveTimeout(), clock);
        return new S3Reports(client, at.bucket(), at.prefix());
    }

    /** The key files, read at each request; else the environment's keys, which must be there at start. */
    static S3ArchiveClient.CredentialSource credentials(ConsoleSettings settings, Map<String, String> environment) {
        Path accessFile = settings.getBackupArchiveAccessKeyFile();
        Path secretFile = settings.getBackupArchiveSecretKeyFile();
        if (accessFile != null) {
            return () -> new S3ArchiveClient.Credentials(readKey(accessFile), readKey(secretFile), null);
        }
        String access = environment.get("AWS_ACCESS_KEY_ID");
        String secret = environment.get("AWS_SECRET_ACCESS_KEY");
        if (access == null || access.isBlank() || secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("invalid setting: cairn.console.backup-archive " + settings.getBackupArchive()
                    + " needs keys: set cairn.console.backup-archive-access-key-file and -secret-key-file, or"
                    + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment");
        }
        String token = environment.get("AWS_SESSION_TOKEN");
        S3ArchiveClient.Credentials fixed = new S3ArchiveClient.Credentials(access.strip(), secret.strip(),
                token == null || token.isBlank() ? null : token.strip());
        return () -> fixed;
    }

    private static String readKey(Path file) throws IOException {
        try {
            String key = Files.readString(file).strip();
            if (key.isEmpty()) {
                throw new IOException("key file " + file + " is empty");
            }
            return key;
        } catch (NoSuchFileException e) {
            throw new IOException("key file " + file + " does not exist");
        }
    }
}
