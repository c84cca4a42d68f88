package dev.cairn.service.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every setting that names a file or a directory is checked before the start, and a refusal names the setting and the path. */
class SettingPathsTest {
    @TempDir
    Path tmp;
    private Path file;
    private Path dir;
    private Path missing;

    @BeforeEach
    void paths() throws Exception {
        file = Files.writeString(tmp.resolve("a-file"), "x");
        dir = Files.createDirectory(tmp.resolve("a-dir"));
        missing = tmp.resolve("missing");
    }

    /** The settings of files the service reads at start, each with its setter. */
    private static final Map<String, BiConsumer<CairnProperties, Path>> FILES = Map.of(
            "cairn.auth.keys-file", (p, v) -> p.getAuth().setKeysFile(v),
            "cairn.auth.credentials-file", (p, v) -> p.getAuth().setCredentialsFile(v),
            "cairn.tls.certificate", (p, v) -> p.getTls().setCertificate(v),
            "cairn.tls.private-key", (p, v) -> p.getTls().setPrivateKey(v),
            "cairn.console.backup-archive-access-key-file", (p, v) -> p.getConsole().setBackupArchiveAccessKeyFile(v),
            "cairn.console.backup-archive-secret-key-file", (p, v) -> p.getConsole().setBackupArchiveSecretKeyFile(v));

    private CairnProperties props() {
        CairnProperties p = new CairnProperties();
        p.setDataDir(tmp.resolve("data"));
        return p;
    }

    private String refusal(CairnProperties p) {
        return refusal(p, Map.of());
    }

    private String refusal(CairnProperties p, Map<String, String> spring) {
        return assertThrows(InvalidSettingException.class, () -> SettingPaths.check(p, spring::get)).getMessage();
    }

    @Test
    void aMissingKeyFileIsNamedWithItsSettingAndItsEnvironmentVariable() {
        CairnProperties p = props();
        p.getAuth().setKeysFile(missing);
        assertEquals("cairn.auth.keys-file (CAIRN_AUTH_KEYSFILE): " + missing + " does not exist", refusal(p));
    }

    @Test
    void eachFileSettingRefusesAMissingFileADirectoryAndADanglingLink() throws Exception {
        Path dangling = Files.createSymbolicLink(tmp.resolve("dangling"), missing);
        FILES.forEach((setting, set) -> {
            for (Map.Entry<Path, String> wrong : Map.of(missing, "does not exist", dir, "is a directory, not a file",
                    dangling, "is a link to nothing").entrySet()) {
                CairnProperties p = props();
                set.accept(p, wrong.getKey());
                String message = refusal(p);
                assertTrue(message.startsWith(setting + " (") && message.contains(wrong.getKey() + " " + wrong.getValue()), message);
            }
            CairnProperties p = props();
            set.accept(p, file);
            assertDoesNotThrow(() -> SettingPaths.check(p, k -> null), setting);
        });
    }

    @Test
    void anUnreadableFileIsRefused() throws Exception {
        Assumptions.assumeFalse("root".equals(System.getProperty("user.name")), "root reads every file");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("-w-------"));
        CairnProperties p = props();
        p.getAuth().setKeysFile(file);
        assertTrue(refusal(p).endsWith(file + " is not readable by this user"));
    }

    @Test
    void theDataAndCapacityDirectoriesMayBeMissingButNotFilesNorBelowAFile() {
        CairnProperties p = props();
        p.getEngine().setCapacityDir(tmp.resolve("not/yet/there"));
        assertDoesNotThrow(() -> SettingPaths.check(p, k -> null));

        CairnProperties dataIsAFile = props();
        dataIsAFile.setDataDir(file);
        assertEquals("cairn.data-dir (CAIRN_DATADIR): " + file + " is a file, not a directory", refusal(dataIsAFile));

        CairnProperties belowAFile = props();
        belowAFile.getEngine().setCapacityDir(file.resolve("capacity"));
        assertEquals("cairn.engine.capacity-dir (CAIRN_ENGINE_CAPACITYDIR): " + file.resolve("capacity") + " cannot be created: "
                + file + " is a file, not a directory", refusal(belowAFile));
    }

    @Test
    void aRelativePathIsShownAlsoAbsolute() {
        CairnProperties p = props();
        p.getAuth().setCredentialsFile(Path.of("no-such-credentials.properties"));
        assertTrue(refusal(p).contains("no-such-credentials.properties ("
                + Path.of("no-such-credentials.properties").toAbsolutePath() + ") does not exist"));
    }

    @Test
    void whatTheBackupJobWritesMayBeMissingButItsDirectoryMustBeThere() {
        CairnProperties later = props();
        later.getConsole().setBackupMetricsFile(dir.resolve("backup.prom"));
        later.getConsole().setBackupArchive("dir:" + dir.resolve("archive"));
        assertDoesNotThrow(() -> SettingPaths.check(later, k -> null));

        CairnProperties metricsNowhere = props();
        metricsNowhere.getConsole().setBackupMetricsFile(missing.resolve("backup.prom"));
        assertTrue(refusal(metricsNowhere).startsWith("cairn.console.backup-metrics-file (CAIRN_CONSOLE_BACKUPMETRICSFILE): "
                + missing.resolve("backup.prom") + " does not exist, nor does its directory " + missing));

        CairnProperties metricsIsADirectory = props();
        metricsIsADirectory.getConsole().setBackupMetricsFile(dir);
        assertTrue(refusal(metricsIsADirectory).endsWith(dir + " is a directory, not a file"));

        CairnProperties archiveIsAFile = props();
        archiveIsAFile.getConsole().setBackupArchive(file.toString());
        assertEquals("cairn.console.backup-archive (CAIRN_CONSOLE_BACKUPARCHIVE): " + file + " is a file, not a directory",
                refusal(archiveIsAFile));

        CairnProperties archiveNowhere = props();
        archiveNowhere.getConsole().setBackupArchive("dir:" + missing.resolve("archive"));
        assertTrue(refusal(archiveNowhere).contains("does not exist, nor does its directory " + missing));

        CairnProperties inABucket = props();
        inABucket.getConsole().setBackupArchive("s3://backups/cairn/");
        assertDoesNotThrow(() -> SettingPaths.check(inABucket, k -> null));
    }

    @Test
    void theConsolesFilesAreNotCheckedWhenTheConsoleIsOff() {
        CairnProperties p = props();
        p.getConsole().setEnabled(false);
        p.getConsole().setBackupArchiveAccessKeyFile(missing);
        p.getConsole().setBackupArchiveSecretKeyFile(missing);
        assertDoesNotThrow(() -> SettingPaths.check(p, k -> null));
    }

    @Test
    void springsOwnKeyStoresAreCheckedWhenTheyAreFiles() {
        assertEquals("server.ssl.key-store (SERVER_SSL_KEYSTORE): " + missing + " does not exist",
                refusal(props(), Map.of("server.ssl.key-store", "file:" + missing)));
        assertTrue(refusal(props(), Map.of("server.ssl.trust-store", dir.toString())).endsWith("is a directory, not a file"));
        assertDoesNotThrow(() -> SettingPaths.check(props(), Map.of("server.ssl.key-store", "classpath:keystore.p12")::get));
    }
}
