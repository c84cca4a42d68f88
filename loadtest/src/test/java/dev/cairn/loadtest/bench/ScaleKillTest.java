package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scale benchmark's kill -9 step: a child writer killed with SIGKILL, every acknowledged write found. */
@Tag("integration")
class ScaleKillTest {

    @TempDir
    Path dir;

    @Test
    void killedWritersAcknowledgedObjectsAreAllThereAfterTheOpen() throws IOException {
        JsonNode size = ScaleBenchmarkTest.runScale(dir, "--sizes", "1000", "--crash-seconds", "2").get("sizes").get(0);
        long acked = size.get("kill_acked_writes").asLong();
        assertTrue(acked > 0, "the writer acknowledged writes before the kill: " + size);
        assertEquals(acked, size.get("kill_acked_writes_found").asLong());
        assertTrue(size.get("open_after_kill_ms").isNumber());
    }
}
