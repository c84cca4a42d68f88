package dev.cairn.service;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.service.config.InvalidSettingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service refuses a data directory that holds an engine's files itself instead of under engine/, and says where they belong. */
class DataDirLayoutTest {
    @TempDir
    Path tmp;

    /** A real engine with one row, written into {@code dir} itself. */
    private static void engineIn(Path dir) throws Exception {
        try (Engine engine = Engine.open(EngineOptions.builder(dir).build())) {
            engine.table("objects").put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
            engine.flush();
        }
    }

    @Test
    void engineFilesDirectlyInTheDataDirectoryAreRefusedWithWhereTheyBelong() throws Exception {
        Path data = tmp.resolve("restored");
        engineIn(data);
        String message = assertThrows(InvalidSettingException.class, () -> StartupChecks.checkDataDirLayout(data)).getMessage();
        assertTrue(message.startsWith("cairn.data-dir (CAIRN_DATADIR): " + data + " holds engine files (")
                && message.contains("CURRENT") && message.contains("MANIFEST-"), message);
        assertTrue(message.contains("the service reads its engine from " + data.resolve("engine")
                + ": move them into " + data.resolve("engine")), message);
    }

    @Test
    void anEmptyEngineDirectoryBesideThemChangesNothing() throws Exception {
        Path data = tmp.resolve("restored");
        engineIn(data);
        Files.createDirectory(data.resolve("engine"));
        Files.writeString(data.resolve("engine/LOCK"), "");
        assertThrows(InvalidSettingException.class, () -> StartupChecks.checkDataDirLayout(data));
    }

    @Test
    void aDataDirectoryThatIsTheEngineDirectoryIsToldToNameItsParent() throws Exception {
        Path engineDir = tmp.resolve("data/engine");
        engineIn(engineDir);
        String message = assertThrows(InvalidSettingException.class, () -> StartupChecks.checkDataDirLayout(engineDir)).getMessage();
        assertTrue(message.endsWith(": set cairn.data-dir to " + tmp.resolve("data") + ", the directory above it"), message);
    }

    @Test
    void theLayoutTheServiceWritesAndAFreshDirectoryPass() throws Exception {
        Path data = tmp.resolve("data");
        engineIn(data.resolve("engine"));
        Files.writeString(data.resolve("credentials.properties"), "a=b\n");
        assertDoesNotThrow(() -> StartupChecks.checkDataDirLayout(data));
        assertDoesNotThrow(() -> StartupChecks.checkDataDirLayout(tmp.resolve("fresh")));
        Files.createDirectory(tmp.resolve("empty"));
        assertDoesNotThrow(() -> StartupChecks.checkDataDirLayout(tmp.resolve("empty")));
    }

    @Test
    void filesThatOnlyLookNumberedAreNotAnEngine() throws Exception {
        Path data = Files.createDirectory(tmp.resolve("data"));
        Files.writeString(data.resolve("000001.log"), "an operator's own log");
        assertDoesNotThrow(() -> StartupChecks.checkDataDirLayout(data));
    }
}
