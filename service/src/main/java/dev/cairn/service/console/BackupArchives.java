package dev.cairn.service.console;

import dev.cairn.service.config.BackupArchiveLocation;
import dev.cairn.service.config.ConsoleProperties;
import dev.cairn.service.config.InvalidSettingException;
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

    /** The source of the archive's run reports; null when no archive is set. */
    static BackupHistory.Source open(ConsoleProperties settings, Map<String, String> environment, Clock clock) {
        if (settings.getBackupArchive() == null) {
            return null;
        }
        BackupArchiveLocation at = BackupArchiveLocation.parse(settings.getBackupArchive());
        if (at.directory() != null) {
            return new DirectoryReports(at.directory());
        }
        S3ArchiveClient.CredentialSource credentials = credentials(settings, environment);
        S3ArchiveClient client = new S3ArchiveClient(settings.getBackupArchiveEndpoint(), at.bucket(),
                settings.getBackupArchiveRegion(), credentials, settings.getBackupArchiveTimeout(), clock);
        return new S3Reports(client, at.bucket(), at.prefix());
    }

    /** The key files, read at each request; else the environment's keys, which must be there at start. */
    static S3ArchiveClient.CredentialSource credentials(ConsoleProperties settings, Map<String, String> environment) {
        Path accessFile = settings.getBackupArchiveAccessKeyFile();
        Path secretFile = settings.getBackupArchiveSecretKeyFile();
        if (accessFile != null) {
            return () -> new S3ArchiveClient.Credentials(readKey(accessFile), readKey(secretFile), null);
        }
        String access = environment.get("AWS_ACCESS_KEY_ID");
        String secret = environment.get("AWS_SECRET_ACCESS_KEY");
        if (access == null || access.isBlank() || secret == null || secret.isBlank()) {
            throw new InvalidSettingException("invalid setting: cairn.console.backup-archive " + settings.getBackupArchive()
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
