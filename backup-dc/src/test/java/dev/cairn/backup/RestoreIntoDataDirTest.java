package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.cli.ExitCode;
import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code restore --into embedded:DIR} writes the store the way the service keeps it in its data
 * directory {@code DIR} (the engine in {@code DIR/engine}), so the service started with
 * {@code cairn.data-dir=DIR} serves what was restored.
 */
class RestoreIntoDataDirTest {
    @TempDir
    Path dir;

    @Test
    void theEngineGoesWhereTheServiceReadsItInItsDataDirectory() throws Exception {
        try (SmallArchive archive = SmallArchive.backedUp(dir)) {
            Path data = dir.resolve("data");
            assertEquals(0, archive.cli("restore", "--target", archive.target(), "--into", "embedded:" + data));
            assertFalse(Files.exists(data.resolve("CURRENT")), "no engine files at the top of the data directory");
            // Opened as the service opens it: cairn.data-dir/engine.
            try (Engine engine = Engine.open(EngineOptions.builder(data.resolve("engine")).build());
                 EmbeddedObjectStore store = new EmbeddedObjectStore(engine)) {
                assertEquals(archive.snapshot, StoreFixture.snapshot(store));
            }
        }
    }

    @Test
    void aDirectoryHoldingEngineFilesItselfIsRefusedNamingItsParent() throws Exception {
        try (SmallArchive archive = SmallArchive.backedUp(dir)) {
            Path engineDir = dir.resolve("data").resolve("engine");
            try (Engine engine = Engine.open(EngineOptions.builder(engineDir).build())) {
                assertTrue(Files.exists(engineDir.resolve("CURRENT")));
            }
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream saved = System.err;
            int exit;
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            try {
                exit = archive.cli("restore", "--target", archive.target(), "--into", "embedded:" + engineDir);
            } finally {
                System.setErr(saved);
            }
            assertEquals(ExitCode.USAGE, exit);
            String message = err.toString(StandardCharsets.UTF_8);
            assertTrue(message.contains("cairn.data-dir") && message.contains(dir.resolve("data").toAbsolutePath().toString()),
                    message);
            assertTrue(message.contains("holds engine files (") && message.contains("CURRENT")
                    && message.contains("the service reads its engine from " + engineDir.toAbsolutePath().resolve("engine")),
                    "the service's own rule and words: " + message);
            assertFalse(Files.exists(engineDir.resolve("engine")), "nothing is created inside the engine directory");
        }
    }
}
