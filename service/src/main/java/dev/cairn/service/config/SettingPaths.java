package dev.cairn.service.config;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Checks the settings that name a file or a directory before anything opens them, so that a
 * wrong path stops the start with one line naming the setting and the path instead of a failure
 * deep inside whatever reads it first. Directories the service creates may be missing if they can
 * be created; files the backup job writes later may be missing if their directory is there.
 */
public final class SettingPaths {
    private SettingPaths() {
    }

    /**
     * Checks every path among the Cairn settings, and those of {@code server.ssl.*} that
     * {@code spring} (a look-up in Spring's environment) holds as plain files.
     */
    public static void check(CairnProperties props, Function<String, String> spring) {
        if (props.getDataDir() != null) {
            directoryToCreate("cairn.data-dir", props.getDataDir());
        }
        if (CairnProperties.STORE_EMBEDDED.equals(props.getStore()) && props.getEngine().getCapacityDir() != null) {
            directoryToCreate("cairn.engine.capacity-dir", props.getEngine().getCapacityDir());
        }
        AuthProperties auth = props.getAuth();
        file("cairn.auth.credentials-file", auth.getCredentialsFile());
        file("cairn.auth.keys-file", auth.getKeysFile());
        TlsProperties tls = props.getTls();
        file("cairn.tls.certificate", tls.getCertificate());
        file("cairn.tls.private-key", tls.getPrivateKey());
        for (String setting : new String[] {"server.ssl.key-store", "server.ssl.trust-store", "server.ssl.certificate",
                "server.ssl.certificate-private-key"}) {
            String location = spring.apply(setting);
            if (location != null && !location.isBlank() && !location.startsWith("classpath:")) {
                file(setting, Path.of(location.startsWith("file:") ? location.substring("file:".length()) : location));
            }
        }
        ConsoleProperties console = props.getConsole();
        if (console.isEnabled()) {
            fileWrittenLater("cairn.console.backup-metrics-file", console.getBackupMetricsFile());
            if (console.getBackupArchive() != null) {
                Path archive = BackupArchiveLocation.parse(console.getBackupArchive()).directory();
                if (archive != null) {
                    directoryWrittenLater("cairn.console.backup-archive", archive);
                }
            }
            file("cairn.console.backup-archive-access-key-file", console.getBackupArchiveAccessKeyFile());
            file("cairn.console.backup-archive-secret-key-file", console.getBackupArchiveSecretKeyFile());
        }
    }

    /** A file the service reads: it must be there, a file, and readable. Unset: nothing to check. */
    static void file(String setting, Path path) {
        if (path == null) {
            return;
        }
        if (!Files.exists(path)) {
            throw refused(setting, path, Files.exists(path, LinkOption.NOFOLLOW_LINKS)
                    ? "is a link to nothing" : "does not exist");
        }
        if (Files.isDirectory(path)) {
            throw refused(setting, path, "is a directory, not a file");
        }
        if (!Files.isRegularFile(path)) {
            throw refused(setting, path, "is not a regular file");
        }
        if (!Files.isReadable(path)) {
            throw refused(setting, path, "is not readable by this user");
        }
    }

    /** A directory the service writes into and creates when missing. */
    static void directoryToCreate(String setting, Path path) {
        if (Files.exists(path)) {
            writableDirectory(setting, path);
            return;
        }
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            throw refused(setting, path, "is a link to nothing");
        }
        Path existing = path.toAbsolutePath().getParent();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw refused(setting, path, "does not exist, nor does any directory above it");
        }
        if (!Files.isDirectory(existing)) {
            throw refused(setting, path, "cannot be created: " + existing + " is a file, not a directory");
        }
        if (!Files.isWritable(existing)) {
            throw refused(setting, path, "does not exist and cannot be created: " + existing + " is not writable by this user");
        }
    }

    private static void writableDirectory(String setting, Path path) {
        if (!Files.isDirectory(path)) {
            throw refused(setting, path, "is a file, not a directory");
        }
        if (!Files.isReadable(path) || !Files.isWritable(path) || !Files.isExecutable(path)) {
            throw refused(setting, path, "is not readable and writable by this user");
        }
    }

    /** A file another program writes (the backup job): it may not be there yet, but its directory must be. */
    static void fileWrittenLater(String setting, Path path) {
        if (path == null) {
            return;
        }
        if (Files.exists(path)) {
            file(setting, path);
            return;
        }
        Path parent = path.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw refused(setting, path, "does not exist, nor does its directory " + parent);
        }
    }

    /** A directory another program fills (the backup job's archive): it may not be there yet, but its parent must be. */
    static void directoryWrittenLater(String setting, Path path) {
        if (Files.exists(path)) {
            if (!Files.isDirectory(path)) {
                throw refused(setting, path, "is a file, not a directory");
            }
            if (!Files.isReadable(path) || !Files.isExecutable(path)) {
                throw refused(setting, path, "is not readable by this user");
            }
            return;
        }
        Path parent = path.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw refused(setting, path, "does not exist, nor does its directory " + parent);
        }
    }

    private static InvalidSettingException refused(String setting, Path path, String problem) {
        String shown = path.isAbsolute() ? path.toString() : path + " (" + path.toAbsolutePath().normalize() + ")";
        return InvalidSettingException.of(setting, shown + " " + problem);
    }
}
