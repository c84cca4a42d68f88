package dev.cairn.loadtest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.loadtest.Main;
import dev.cairn.loadtest.dataset.KeyRegistry;
import dev.cairn.loadtest.run.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

/**
 * The load generator end to end against a real Cairn service and a real Redis, both started
 * here as child processes on free loopback ports and always stopped. Tests that overwrite
 * objects run after those that verify reads; the last one stops the service mid-run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("integration")
class LoadtestCommandTest {

    private static final int OBJECTS = 400;
    private static final String BUCKET = "loadtest-it";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private ChildProcess redis;
    private ChildProcess cairn;
    private Path files;

    private record Run(int status, String out, String err) {
    }

    @BeforeAll
    void startServersAndLoad() throws Exception {
        redis = Servers.redis(Files.createDirectories(dir.resolve("redis")));
        try {
            cairn = Servers.cairn(dir.resolve("cairn"));
            files = dir.resolve("files");
            Run load = loadtest("load", "--dataset", "it", "--count", "" + OBJECTS, "--object-size", "2KiB",
                    "--duplicate-fraction", "0.25", "--threads", "4", "--to-directory", files.toString(), "--public-read");
            assertEquals(0, load.status(), load.err() + "\n" + cairn.logTail());
            assertTrue(load.out().contains("loaded " + OBJECTS + " objects"), load.out());
        } catch (Exception | Error e) {
            stopServers();
            throw e;
        }
    }

    @AfterAll
    void stopServers() throws InterruptedException {
        if (cairn != null) {
            cairn.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private String redisAddress() {
        return "127.0.0.1:" + redis.port();
    }

    private String endpoint() {
        return "http://127.0.0.1:" + cairn.port();
    }

    /** Runs {@code cairn loadtest <args>} in-process against the servers of this class. */
    private Run loadtest(String command, String... args) {
        List<String> all = new ArrayList<>(List.of("loadtest", command, "--redis", redisAddress()));
        if (!command.equals("report") && !command.equals("compare")) {
            boolean http = Arrays.asList(args).contains("--http");
            boolean endpointGiven = Arrays.asList(args).contains("--endpoint");
            if (!http && !endpointGiven && !(command.equals("load") && cairn == null)) {
                all.addAll(List.of("--endpoint", endpoint()));
            }
            all.addAll(List.of("--bucket", BUCKET, "--access-key", Servers.ACCESS_KEY, "--secret-key", Servers.SECRET_KEY));
        } else {
            all = new ArrayList<>(List.of("loadtest", command));
        }
        all.addAll(Arrays.asList(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        picocli.CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int status = cli.execute(all.toArray(String[]::new));
        return new Run(status, out.toString(), err.toString());
    }

    private JsonNode run(String name, String... args) throws IOException {
        Path out = dir.resolve(name + ".json");
        List<String> all = new ArrayList<>(List.of("--dataset", "it", "--out", out.toString(), "--label", name));
        all.addAll(Arrays.asList(args));
        Run r = loadtest("run", all.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        JsonNode result = JSON.readTree(out.toFile());
        assertEquals(RunResult.FORMAT, result.path("format").asText());
        return result;
    }

    private static long opCount(JsonNode result) {
        long n = 0;
        for (JsonNode o : result.path("perOperation")) {
            n += o.path("count").asLong() + o.path("errorCount").asLong();
        }
        return n;
    }

    @Test
    @Order(1)
    void everyKeyIsRegisteredInRedis() {
        try (KeyRegistry registry = KeyRegistry.connect(redisAddress())) {
            assertEquals(OBJECTS, registry.spec("it").count());
            assertEquals(OBJECTS, registry.registeredKeys("it"));
            assertEquals(OBJECTS, registry.keys("it", OBJECTS).length);
        }
        try (Stream<Path> walk = Files.walk(files)) {
            assertEquals(OBJECTS, walk.filter(Files::isRegularFile).count());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Order(2)
    void aCountBoundedRunWritesItsResultAndReport() throws IOException {
        Path html = dir.resolve("c.html");
        JsonNode r = run("c", "-w", "c", "--ops", "300", "-d", "120s", "-t", "4", "--html", html.toString());
        assertEquals("count", r.path("stopReason").asText());
        assertEquals(300, r.path("operations").asLong());
        assertEquals(300, r.path("perOperation").path("read").path("count").asLong());
        assertEquals(0, r.path("errors").asLong());
        assertTrue(r.path("verifiedReads").asBoolean(), "reads of unmodified objects are verified");
        assertEquals("zipfian", r.path("config").path("distribution").asText());
        assertEquals(4, r.path("config").path("threads").asInt());
        assertEquals("it", r.path("dataset").path("name").asText());
        JsonNode read = r.path("perOperation").path("read");
        assertTrue(read.path("p50Ms").asDouble() > 0 && read.path("p50Ms").asDouble() <= read.path("p99Ms").asDouble()
                && read.path("p99Ms").asDouble() <= read.path("maxMs").asDouble(), read.toString());
        assertEquals(300, RunResult.decode(read.path("histogram").asText()).getTotalCount());
        long timelineOps = 0;
        for (JsonNode s : r.path("timeline")) {
            timelineOps += s.path("counts").path("read").asLong();
        }
        assertEquals(300, timelineOps, "the timeline accounts for every operation");
        assertSelfContainedHtml(Files.readString(html));

        Path report = dir.resolve("report.html");
        Run rep = loadtest("report", dir.resolve("c.json").toString(), "--out", report.toString());
        assertEquals(0, rep.status(), rep.err());
        assertTrue(rep.out().contains("p99.9 ms"), rep.out());
        assertSelfContainedHtml(Files.readString(report));
    }

    private static void assertSelfContainedHtml(String html) {
        assertTrue(html.startsWith("<!DOCTYPE html>"), html.substring(0, 40));
        assertTrue(html.contains("<svg") && html.contains("<polyline"), "charts are inline SVG");
        assertFalse(html.contains("<script") || html.contains("src=") || html.contains("<link"), "no external resources");
        assertTrue(html.trim().endsWith("</html>"));
    }

    @Test
    @Order(3)
    void theTimeBoundStopsARunTheCountBoundWouldNot() throws IOException {
        JsonNode r = run("timed", "-w", "c", "--ops", "100000000", "-d", "2s", "-t", "2", "--interval", "250ms");
        assertEquals("time", r.path("stopReason").asText());
        assertTrue(r.path("operations").asLong() < 100_000_000L);
        assertTrue(r.path("elapsedSeconds").asDouble() >= 2.0, r.path("elapsedSeconds").toString());
        assertTrue(r.path("timeline").size() >= 2, "sampled every interval");
    }

    @Test
    @Order(4)
    void anOpenLoopRunIssuesExactlyItsCount() throws IOException {
        JsonNode r = run("open", "-w", "c", "--rate", "150", "--ops", "150", "-d", "60s", "-t", "4");
        assertEquals("open", r.path("config").path("loop").asText());
        assertEquals("count", r.path("stopReason").asText());
        assertEquals(150, r.path("operations").asLong());
        assertEquals(150, opCount(r));
        // 150 operations due at 150/s: the last is due at about one second, so the run cannot end sooner.
        assertTrue(r.path("elapsedSeconds").asDouble() >= 149.0 / 150, r.path("elapsedSeconds").toString());
    }

    @Test
    @Order(4)
    void aWarmUpRunsFirstAndIsNotRecorded() throws IOException {
        long before = System.nanoTime();
        JsonNode r = run("warm", "-w", "c", "--rate", "100", "--warmup", "1s", "--ops", "50", "-d", "60s", "-t", "4");
        double wallSeconds = (System.nanoTime() - before) / 1e9;
        assertEquals(1.0, r.path("config").path("warmupSeconds").asDouble());
        assertEquals(50, r.path("operations").asLong());
        assertEquals(50, opCount(r));
        // The recorded run alone lasts about half a second; the warm-up's second came before it.
        assertTrue(r.path("elapsedSeconds").asDouble() < wallSeconds - 0.9,
                r.path("elapsedSeconds") + " s recorded of " + wallSeconds + " s");
    }

    @Test
    @Order(5)
    void theHttpTargetReadsWhatWasLoadedAndTheDirectoryTraversalIsMeasured() throws IOException {
        JsonNode r = run("traversal", "--http", endpoint() + "/" + BUCKET + "/", "-w", "c", "--ops", "100000000",
                "-d", "10s", "-t", "2", "--interval", "200ms", "--traversal", "--traversal-directory", files.toString(),
                "--traversal-delay", "1s", "--traversal-threads", "1");
        assertEquals(0, r.path("errors").asLong(), r.path("perOperation").toString());
        assertTrue(r.path("verifiedReads").asBoolean());
        JsonNode t = r.path("traversal");
        assertTrue(t.path("started").asBoolean(), t.toString());
        assertTrue(t.path("completed").asBoolean(), "400 small files are read well within 9 s, on a loaded machine too: " + t);
        assertEquals(OBJECTS, t.path("objects").asLong());
        assertEquals(OBJECTS * 2048L, t.path("bytes").asLong());
        assertTrue(t.path("startSeconds").asDouble() >= 1.0);
        assertTrue(r.path("phases").path("before").path("read").path("count").asLong() > 0);
        long traversed = 0;
        List<String> phases = new ArrayList<>();
        for (JsonNode s : r.path("timeline")) {
            traversed += s.path("traversalObjects").asLong();
            if (!phases.contains(s.path("phase").asText())) {
                phases.add(s.path("phase").asText());
            }
        }
        assertEquals(OBJECTS, traversed);
        assertEquals("before", phases.get(0));
        assertTrue(phases.contains("during"), phases.toString());
    }

    @Test
    @Order(6)
    void anS3TraversalListsAndReadsTheBucket() throws IOException {
        JsonNode r = run("s3traversal", "-w", "c", "--ops", "100000000", "-d", "3s", "-t", "1", "--interval", "250ms",
                "--traversal", "--traversal-delay", "500ms", "--traversal-threads", "2");
        JsonNode t = r.path("traversal");
        assertTrue(t.path("objects").asLong() > 0, t.toString());
        assertTrue(t.path("errors").isEmpty(), t.toString());
        assertTrue(t.path("source").asText().contains(BUCKET));
    }

    @Test
    @Order(7)
    void failuresOfAnUnreachableTargetAreCountedByKind() throws IOException {
        try (java.net.Socket held = ChildProcess.closedPort()) {
            failuresOfAnUnreachableTargetAreCountedByKind(held.getLocalPort());
        }
    }

    private void failuresOfAnUnreachableTargetAreCountedByKind(int closed) throws IOException {
        JsonNode http = run("closed-http", "--http", "http://127.0.0.1:" + closed + "/", "-w", "c", "--ops", "40",
                "-d", "60s", "-t", "2");
        assertEquals(40, http.path("errors").asLong());
        assertEquals(0, http.path("perOperation").path("read").path("count").asLong());
        assertEquals(40, http.path("perOperation").path("read").path("errors").path("connect").asLong(),
                http.path("perOperation").toString());
        JsonNode s3 = run("closed-s3", "--endpoint", "http://127.0.0.1:" + closed, "-w", "write-only", "--ops", "20",
                "-d", "60s", "-t", "2");
        assertEquals(20, s3.path("perOperation").path("update").path("errorCount").asLong(), s3.toString());
        assertEquals(20, s3.path("perOperation").path("update").path("errors").path("connect").asLong(),
                s3.path("perOperation").toString());
    }

    @Test
    @Order(8)
    void anUnreachableRedisIsExplained() throws IOException {
        try (java.net.Socket held = ChildProcess.closedPort()) {
            anUnreachableRedisIsExplained(held.getLocalPort());
        }
    }

    private void anUnreachableRedisIsExplained(int closed) throws IOException {
        List<String> args = List.of("loadtest", "run", "--redis", "127.0.0.1:" + closed, "--dataset", "it", "--http",
                "http://127.0.0.1:1/", "--ops", "1", "-d", "1s");
        StringWriter err = new StringWriter();
        picocli.CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err));
        cli.setOut(new PrintWriter(new StringWriter()));
        assertEquals(1, cli.execute(args.toArray(String[]::new)));
        assertTrue(err.toString().contains("cannot reach Redis at 127.0.0.1:" + closed), err.toString());
        assertTrue(err.toString().contains("redis-server"), err.toString());
    }

    @Test
    @Order(9)
    void everyWorkloadRunsAndInsertsAreRegistered() throws IOException {
        for (String w : List.of("a", "b", "d", "e", "f", "write-only", "write-heavy", "read-heavy", "read-only", "mixed")) {
            JsonNode r = run("w-" + w, "-w", w, "--ops", "80", "-d", "60s", "-t", "2");
            assertEquals(0, r.path("errors").asLong(), w + ": " + r.path("perOperation"));
            assertEquals(80, opCount(r), w);
            assertEquals("count", r.path("stopReason").asText(), w);
        }
        try (KeyRegistry registry = KeyRegistry.connect(redisAddress())) {
            long count = registry.spec("it").count();
            assertTrue(count > OBJECTS, "workloads d and e inserted keys: " + count);
            assertEquals(count, registry.registeredKeys("it"));
            assertTrue(registry.overwritten("it"));
        }
        JsonNode mixed = run("w-mixed-only-scratch", "-w", "mixed", "--copy-proportion", "0.4", "--delete-proportion", "0.3",
                "--multipart-proportion", "0.3", "--ops", "90", "-d", "60s", "-t", "3");
        assertEquals(0, mixed.path("errors").asLong(), mixed.path("perOperation").toString());
        for (String op : List.of("copy", "delete", "multipart")) {
            assertTrue(mixed.path("perOperation").path(op).path("count").asLong() > 0, op + ": " + mixed.path("perOperation"));
        }
        Run refused = loadtest("run", "--http", endpoint() + "/" + BUCKET + "/", "--dataset", "it",
                "-w", "c", "--copy-proportion", "1", "--ops", "10", "--out", dir.resolve("refused.json").toString());
        assertNotEquals(0, refused.status(), refused.err());
        assertTrue(refused.err().contains("copy requests"), refused.err());
        Run cmp = loadtest("compare", dir.resolve("w-read-only.json").toString(), dir.resolve("w-b.json").toString(),
                "--html", dir.resolve("cmp.html").toString());
        assertEquals(0, cmp.status(), cmp.err());
        assertTrue(cmp.out().contains("w-read-only / w-b"), cmp.out());
        assertSelfContainedHtml(Files.readString(dir.resolve("cmp.html")));
    }

    @Test
    @Order(10)
    void stoppingTheTargetMidRunShowsAsErrors() throws Exception {
        long before = countGets(cairn.log());
        CompletableFuture<JsonNode> running = CompletableFuture.supplyAsync(() -> {
            try {
                return run("stopped", "-w", "read-only", "--ops", "100000000", "-d", "12s", "-t", "2", "--timeout", "2s");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (countGets(cairn.log()) < before + 20 && System.nanoTime() < deadline && !running.isDone()) {
            Thread.sleep(100);
        }
        assertFalse(running.isDone(), "the run ended before the target was stopped");
        cairn.close();
        JsonNode r = running.get(90, TimeUnit.SECONDS);
        JsonNode read = r.path("perOperation").path("read");
        assertTrue(read.path("count").asLong() > 0, read.toString());
        assertTrue(read.path("errorCount").asLong() > 0, "requests after the stop fail and are counted: " + read);
        for (java.util.Iterator<String> kinds = read.path("errors").fieldNames(); kinds.hasNext(); ) {
            String kind = kinds.next();
            assertTrue(List.of("connect", "io", "timeout").contains(kind), kind);
        }
    }

    private static long countGets(Path log) throws IOException {
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(l -> l.contains(" GetObject ")).count();
        } catch (java.io.UncheckedIOException e) {
            return 0;
        }
    }
}
