package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

@Tag("integration")
class SpaceReservationTest {

    @Test
    void reservedBlocksAreAllocatedWithoutChangingTheBytesAFileHolds(@TempDir Path directory) throws Exception {
        Path path = directory.resolve("segment");
        byte[] first = "first".getBytes(StandardCharsets.US_ASCII);
        byte[] second = "second".getBytes(StandardCharsets.US_ASCII);
        try (WritableFile file = new LocalFileSystem().create(path, WriteLifetime.SHORT)) {
            file.append(first, 0, first.length);
            long before = allocatedBytes(path);
            boolean reserved = file.reserve(4 << 20);
            assumeTrue(reserved, "this file system does not reserve space; see the log");
            assertTrue(allocatedBytes(path) >= before + (3 << 20), "blocks set aside: " + allocatedBytes(path));
            assertEquals(first.length, Files.size(path));
            file.append(second, 0, second.length);
            file.sync();
            assertEquals(first.length + second.length, file.size());
        }
        assertArrayEquals("firstsecond".getBytes(StandardCharsets.US_ASCII), Files.readAllBytes(path));
    }

    @Test
    void aMissingFileOrNothingToReserveIsRefusedQuietly(@TempDir Path directory) throws IOException {
        assertFalse(SpaceReservation.reserve(directory.resolve("absent"), 4096));
        Path empty = Files.createFile(directory.resolve("empty"));
        assertFalse(SpaceReservation.reserve(empty, 0));
        assertEquals(0, Files.size(empty));
    }

    /** st_blocks × 512, as stat(1) reports it: Java's attribute views do not carry it. */
    private static long allocatedBytes(Path path) throws IOException, InterruptedException {
        Process stat = new ProcessBuilder("stat", "-c", "%b %B", path.toString()).redirectErrorStream(true).start();
        String[] out = new String(stat.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim().split(" ");
        assertEquals(0, stat.waitFor(), String.join(" ", out));
        return Long.parseLong(out[0]) * Long.parseLong(out[1]);
    }
}
