package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.loadtest.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Runs the row cache benchmark in-process on a few hundred records: the plumbing, not the performance. */
class CacheBenchmarkTest {

    private static final long SEED = 7;
    private static final List<String> PER_SETUP = List.of("ops", "reads_per_s", "read_p50_ms", "read_p99_ms",
            "read_mean_ms", "memory_hit_ratio", "ssd_hit_ratio", "hit_ratio", "disk_reads_per_read", "reads", "updates",
            "memory_entries", "ssd_entries");

    @TempDir
    Path dir;

    @Test
    void printsATableAndAJsonLineLastWithEveryField() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int status = cli.execute("bench", "cache", "--objects", "600", "--threads", "4", "--seed", Long.toString(SEED),
                "--seconds", "1", "--rounds", "2", "--warmup-reads", "3000", "--read-shares", "0.9,0.5",
                "--memory-cache-bytes", "40000", "--ssd-cache-bytes", "200000", "--dir", dir.toString());
        assertEquals(0, status, err.toString());
        String[] lines = out.toString().strip().split("\n");
        assertTrue(out.toString().contains("memory + SSD"), out.toString());

        JsonNode json = new ObjectMapper().readTree(lines[lines.length - 1]);
        for (String field : List.of("memory_only_ops", "tiered_ops", "gain")) {
            assertTrue(json.get(field).isNumber() && json.get(field).asDouble() > 0, field + " = " + json.get(field));
        }
        for (String prefix : List.of("", "r90_", "r50_")) {
            for (String setup : List.of("memory_only_", "tiered_")) {
                for (String field : PER_SETUP) {
                    assertTrue(json.has(prefix + setup + field), prefix + setup + field);
                }
            }
        }
        assertTrue(json.get("r50_gain").isNumber());
        assertEquals(0.0, json.get("memory_only_ssd_hit_ratio").asDouble(), "no SSD tier, no SSD hits");
        assertEquals(0, json.get("memory_only_ssd_entries").asLong());
        assertTrue(json.get("tiered_ssd_entries").asLong() > 0, "the SSD tier was filled");
        assertTrue(json.get("memory_only_reads").asLong() > 0);
        assertTrue(json.get("r50_memory_only_updates").asLong() > 0, "a 50% mix updates");
        double hit = json.get("tiered_hit_ratio").asDouble();
        assertEquals(hit, json.get("tiered_memory_hit_ratio").asDouble() + json.get("tiered_ssd_hit_ratio").asDouble(), 1e-9);
        assertEquals(600, json.get("objects").asLong());
        assertEquals(SEED, json.get("seed").asLong());
        assertTrue(json.get("hot_set_request_share").asDouble() > 0);
        assertFalse(Files.exists(dir.resolve("build")), "the built data set is deleted unless --keep");
        assertFalse(Files.exists(dir.resolve("tiered")), "each configuration's copy is deleted");
    }

    @Test
    void rowsReadBackAsTheirOwnVersionOnly() {
        YcsbRows rows = new YcsbRows(SEED);
        assertEquals(YcsbRows.KEY_BYTES, rows.key(12345).length);
        assertEquals(3, rows.versionIn(rows.row(12, 3), 12));
        assertEquals(-1, rows.versionIn(rows.row(12, 3), 13), "another record's row");
        assertEquals(-1, rows.versionIn(null, 12));
        assertFalse(java.util.Arrays.equals(rows.key(1), rows.key(2)));
    }
}
