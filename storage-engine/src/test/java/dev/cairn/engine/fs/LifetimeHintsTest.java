package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LifetimeHintsTest {

    private static Path createFile(Path directory, String name) throws IOException {
        Path path = directory.resolve(name);
        try (WritableFile file = new LocalFileSystem().create(path, WriteLifetime.NOT_SET)) {
            file.append(new byte[] {1, 2, 3}, 0, 3);
        }
        return path;
    }

    @Test
    void everyHintReadsBackWhereTheFilesystemSupportsThem(@TempDir Path directory) throws IOException {
        assumeTrue(LifetimeHints.isAvailable(), "not Linux, or libc unavailable");
        Path path = createFile(directory, "segment");
        assumeTrue(LifetimeHints.apply(path, WriteLifetime.MEDIUM), "this kernel or filesystem refuses hints");
        assertEquals(Optional.of(WriteLifetime.MEDIUM), LifetimeHints.readHint(path));
        for (WriteLifetime lifetime : WriteLifetime.values()) {
            assertTrue(LifetimeHints.apply(path, lifetime), lifetime.toString());
            assertEquals(Optional.of(lifetime), LifetimeHints.readHint(path));
        }
    }

    @Test
    void theHintBelongsToTheFileNotTheDescriptor(@TempDir Path directory) throws IOException {
        assumeTrue(LifetimeHints.isAvailable());
        Path a = createFile(directory, "a");
        Path b = createFile(directory, "b");
        assumeTrue(LifetimeHints.apply(a, WriteLifetime.SHORT));
        assumeTrue(LifetimeHints.apply(b, WriteLifetime.EXTREME));
        assertEquals(Optional.of(WriteLifetime.SHORT), LifetimeHints.readHint(a));
        assertEquals(Optional.of(WriteLifetime.EXTREME), LifetimeHints.readHint(b));
    }

    @Test
    void aMissingFileIsRefusedQuietly(@TempDir Path directory) {
        assertFalse(LifetimeHints.apply(directory.resolve("absent"), WriteLifetime.LONG));
        assertEquals(Optional.empty(), LifetimeHints.readHint(directory.resolve("absent")));
    }
}
