package dev.cairn.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

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
