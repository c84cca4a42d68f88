package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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

/** The scale benchmark's smoke mode, in-process on two small counts: the plumbing, not the performance. */
class ScaleBenchmarkTest {

    private static final List<String> SIZE_FIELDS = List.of("load_ops", "load_p99_ms", "write_amp",
            "index_filter_bytes_per_object", "lsm_bytes_per_object", "open_after_close_ms", "close_ms");
    private static final List<String> GET_FIELDS = List.of("get_ops", "get_p50_ms", "get_p99_ms",
            "file_reads_per_get", "block_reads_per_get", "mean_value_bytes");

    @TempDir
    Path dir;

    static JsonNode runScale(Path dir, String... extra) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        List<String> args = new java.util.ArrayList<>(List.of("bench", "scale", "--threads", "4", "--seed", "7",
                "--get-seconds", "1", "--settle-seconds", "10", "--min-free-gb", "0", "--no-drop-caches",
                "--dir", dir.toString()));
        args.addAll(List.of(extra));
        int status = cli.execute(args.toArray(new String[0]));
        assertEquals(0, status, err.toString());
        String[] lines = out.toString().strip().split("\n");
        assertTrue(out.toString().contains("load obj/s"), out.toString());
        assertTrue(out.toString().contains("page cache NOT dropped"), out.toString());
        return new ObjectMapper().readTree(lines[lines.length - 1]);
    }

    @Test
    void smokeRunPrintsEveryFigurePerCountAndDeletesTheData() throws IOException {
        JsonNode json = runScale(dir, "--sizes", "1000,2000", "--crash-seconds", "0");
        assertEquals("scale", json.get("benchmark").asText());
        assertFalse(json.get("page_cache_dropped").asBoolean());
        JsonNode sizes = json.get("sizes");
        assertEquals(2, sizes.size());
        assertEquals(1000, sizes.get(0).get("objects").asLong());
        assertEquals(2000, sizes.get(1).get("objects").asLong());
        for (JsonNode size : sizes) {
            for (String field : SIZE_FIELDS) {
                assertTrue(size.get(field).isNumber(), field + " = " + size.get(field));
            }
            for (String phase : List.of("cold", "warm")) {
                for (String field : GET_FIELDS) {
                    assertTrue(size.get(phase).get(field).isNumber(), phase + "." + field + " = " + size.get(phase));
                }
                assertTrue(size.get(phase).get("gets").asLong() > 0);
            }
            assertTrue(size.get("write_amp").asDouble() >= 1.0, "every user byte is written at least once");
            assertTrue(size.get("index_filter_bytes_per_object").asDouble() > 0);
            assertTrue(size.get("kill_acked_writes").asLong() == 0 && size.get("open_after_kill_ms").isNull(),
                    "--crash-seconds 0 skips the kill -9 step");
        }
        // A warm GET reads the value file once, except for the 1% of values under 4 KiB kept in the LSM.
        assertTrue(sizes.get(1).get("warm").get("file_reads_per_get").asDouble() >= 0.9,
                sizes.get(1).get("warm").toString());
        assertTrue(Files.isDirectory(dir));
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "each count's data is deleted after its run");
        }
    }

    @Test
    void refusesACountThatWouldLeaveTooLittleFreeSpace() throws IOException {
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        int status = cli.execute("bench", "scale", "--sizes", "1000", "--min-free-gb", "1000000000",
                "--no-drop-caches", "--dir", dir.toString());
        assertNotEquals(0, status);
        assertTrue(err.toString().contains("must leave"), err.toString());
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "nothing written");
        }
    }
}
