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
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Runs the benchmark in-process on a few hundred objects: the plumbing, not the performance. */
class EngineBenchmarkTest {

    private static final long SEED = 99;
    private static final List<String> REQUIRED = List.of("put_ops", "get_ops", "get_p50_ms", "get_p99_ms", "write_amp",
            "write_amp_proc", "space_amp", "reads_per_get", "index_bytes_per_key");
    private static final List<String> CONFIG = List.of("objects", "threads", "seed", "value_threshold", "sync_policy", "jdk");

    @TempDir
    Path dir;

    @Test
    void rocksdbRunPrintsATableAndAJsonLineLast() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int status = cli.execute("bench", "engine", "--skip-cairn", "--objects", "300", "--threads", "4",
                "--seed", Long.toString(SEED), "--get-seconds", "1", "--max-gets", "2000", "--settle-seconds", "10",
                "--dir", dir.toString());
        assertEquals(0, status, err.toString());
        String[] lines = out.toString().strip().split("\n");
        assertTrue(out.toString().contains("Cairn/RocksDB"), out.toString());

        JsonNode json = new ObjectMapper().readTree(lines[lines.length - 1]);
        for (String field : REQUIRED) {
            assertTrue(json.has(field), field);
            assertTrue(json.get(field).isNull(), field + " of a skipped store is null");
            assertTrue(json.has("ratio_" + field), "ratio_" + field);
            JsonNode rocksdb = json.get("rocksdb_" + field);
            assertTrue(rocksdb != null && rocksdb.isNumber(), "rocksdb_" + field + " = " + rocksdb);
        }
        for (String field : CONFIG) {
            assertTrue(json.has(field) && !json.get(field).isNull(), field);
        }
        assertEquals(300, json.get("objects").asLong());
        assertEquals(SEED, json.get("seed").asLong());
        assertEquals("EVERY_WRITE", json.get("sync_policy").asText());
        assertTrue(json.get("rocksdb_put_ops").asDouble() > 0);
        assertTrue(json.get("rocksdb_gets").asLong() > 0);
        assertTrue(json.get("rocksdb_space_amp_after_gc").asDouble() >= 1.0);
        assertFalse(Files.exists(dir.resolve("rocksdb")), "data is deleted unless --keep");
    }

    @Test
    void cairnRunCarriesEveryFigure() throws IOException {
        BenchConfig config = new BenchConfig(300, 4, SEED, 4096, 8 << 20, Duration.ofSeconds(1), 2000,
                Duration.ofSeconds(10));
        StringWriter log = new StringWriter();
        EngineBenchmark.Result result = new EngineBenchmark(config, new PrintWriter(log)).run(dir, true, false, false);
        JsonNode json = new ObjectMapper().readTree(result.jsonLine());
        for (String field : REQUIRED) {
            assertTrue(json.get(field).isNumber(), field + " = " + json.get(field));
            assertTrue(json.get("rocksdb_" + field).isNull(), "rocksdb_" + field);
        }
        StoreFigures cairn = result.cairn();
        assertEquals(300, cairn.objects());
        assertTrue(cairn.userBytesWritten() > cairn.liveUserBytes(), "load and overwrite both counted");
        assertTrue(cairn.fileSystemBytesWritten() >= cairn.liveUserBytes(), "every live byte was written at least once");
        assertTrue(cairn.diskBytesAfterGc() > 0);
    }
}
