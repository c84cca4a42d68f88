package dev.cairn.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        picocli.CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int status = cli.execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void helpExitsZeroEverywhere() {
        for (String[] args : new String[][] {{"--help"}, {"bench", "--help"}, {"bench", "engine", "--help"},
            {"dump", "--help"}}) {
            Run run = run(args);
            assertEquals(0, run.status(), String.join(" ", args) + ": " + run.err());
            assertTrue(run.out().startsWith("Usage: cairn"), run.out());
        }
        assertTrue(run("bench", "engine", "--help").out().contains("--objects"));
    }

    @Test
    void badUsageExitsTwo() {
        assertEquals(2, run().status());
        assertEquals(2, run("bench").status());
        assertEquals(2, run("no-such-command").status());
        assertEquals(2, run("bench", "engine", "--objects", "many").status());
        assertEquals(2, run("bench", "engine", "--skip-cairn", "--skip-rocksdb").status());
    }

    @Test
    void dumpPrintsAnEngineDirectory(@TempDir Path dir) throws IOException {
        try (Engine engine = Engine.open(EngineOptions.builder(dir).build())) {
            engine.table("objects").put("img/00000/a.jpg".getBytes(StandardCharsets.UTF_8), new byte[10_000]);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream original = System.out;
        Run run;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            run = run("dump", dir.toString());
        } finally {
            System.setOut(original);
        }
        assertEquals(0, run.status(), run.err());
        String printed = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("MANIFEST"), printed);
    }

    @Test
    void dumpOfAMissingPathFailsWithAMessage() {
        Run run = run("dump", "/nonexistent/cairn/000001.sst");
        assertEquals(1, run.status());
        assertTrue(run.err().startsWith("cairn dump: "), run.err());
    }

    @Test
    void invalidBenchmarkSettingsFailWithAMessage() {
        Run run = run("bench", "engine", "--objects", "0");
        assertEquals(1, run.status());
        assertTrue(run.err().contains("objects must be at least 1"), run.err());
    }
}
