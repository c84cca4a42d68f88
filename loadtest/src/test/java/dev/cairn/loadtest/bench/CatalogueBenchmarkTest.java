package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.engine.Row;
import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.Table;
import dev.cairn.loadtest.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Runs the catalogue benchmark in-process on a few hundred rows: the plumbing, not the performance. */
class CatalogueBenchmarkTest {

    private static final long SEED = 5;
    private static final List<String> PER_SIDE = List.of("encoded_bytes_per_row", "table_bytes", "table_bytes_per_row",
            "directory_bytes", "put_ops", "get_ops", "gets", "schemas");

    @TempDir
    Path dir;

    @Test
    void printsATableAndAJsonLineLastWithEveryField() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int status = cli.execute("bench", "catalogue", "--objects", "800", "--threads", "3", "--seed",
                Long.toString(SEED), "--get-seconds", "1", "--dir", dir.toString());
        assertEquals(0, status, err.toString());
        String[] lines = out.toString().strip().split("\n");
        assertTrue(out.toString().contains("self-describing"), out.toString());

        JsonNode json = new ObjectMapper().readTree(lines[lines.length - 1]);
        for (String field : List.of("size_ratio", "encoded_size_ratio", "throughput_ratio", "put_throughput_ratio",
                "get_throughput_ratio")) {
            assertTrue(json.get(field).isNumber() && json.get(field).asDouble() > 0, field + " = " + json.get(field));
        }
        for (String side : List.of("catalogued_", "self_describing_")) {
            for (String field : PER_SIDE) {
                assertTrue(json.get(side + field).isNumber(), side + field);
            }
        }
        double size = json.get("size_ratio").asDouble();
        assertEquals(json.get("catalogued_table_bytes").asDouble() / json.get("self_describing_table_bytes").asDouble(),
                size, 1e-9);
        assertTrue(size < 1, "names are not stored in catalogued rows: " + size);
        assertTrue(json.get("encoded_size_ratio").asDouble() < size, "keys are the same in both, so dilute the ratio");
        assertEquals(Math.min(json.get("put_throughput_ratio").asDouble(), json.get("get_throughput_ratio").asDouble()),
                json.get("throughput_ratio").asDouble(), 1e-9);
        assertTrue(json.get("catalogued_schemas").asInt() > 1);
        assertEquals(0, json.get("self_describing_schemas").asInt());
        assertEquals(800, json.get("objects").asLong());
        assertFalse(Files.exists(dir.resolve("catalogued")), "data is deleted unless --keep");
    }

    @Test
    void metadataRowsVaryTheirColumnsWithinTheCatalogueLimit() throws IOException {
        ObjectMetadataRows rows = new ObjectMetadataRows(SEED);
        Set<List<String>> schemas = new HashSet<>();
        try (Engine selfDescribing = Engine.open(EngineOptions.builder(dir.resolve("self")).catalogueRows(false).build())) {
            Table table = selfDescribing.table(CatalogueBenchmark.TABLE);
            for (long i = 0; i < 5000; i++) {
            Row row = rows.row(i);
            schemas.add(row.columnNames());
            assertEquals(32, row.get("content-sha256").length());
            assertEquals(16, row.get("etag").length());
            assertNotNull(row.get("content-type"));
            assertEquals(row, table.decodeRow(table.encodeRow(row)));
            }
            assertEquals(0, selfDescribing.stats().schemas(), "self-describing rows take no catalogue id");
        }
        assertTrue(schemas.size() > 8 && schemas.size() <= 64, schemas.size() + " column sets");
        assertEquals(rows.row(77), rows.row(77));
    }
}
