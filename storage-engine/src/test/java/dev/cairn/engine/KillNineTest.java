package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

/**
 * A child JVM writes concurrently and is killed with SIGKILL mid-write, several times over the
 * same directory. After each kill the engine opens cleanly and every acknowledged write is there.
 */
@Tag("integration")
class KillNineTest {
    private static final int THREADS = 8;
    private static final int SLOTS_PER_THREAD = 50;

    @TempDir
    Path dir;

    @Test
    void acknowledgedWritesSurviveKillNine() throws Exception {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("KillNineTest seed=" + seed);
        Random random = new Random(seed);
        Map<Integer, Integer> acked = new HashMap<>();
        int firstVersion = 0;
        for (int round = 0; round < 4; round++) {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), CrashingWriter.class.getName(),
                    dir.toString(), String.valueOf(THREADS), String.valueOf(SLOTS_PER_THREAD),
                    String.valueOf(firstVersion)));
            Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String ready = lines.readLine();
                assertEquals("READY", ready, "child did not start");
                long killAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300 + random.nextInt(1200));
                String line;
                while (System.nanoTime() < killAt && (line = lines.readLine()) != null) {
                    record(acked, line);
                }
                // SIGKILL from outside, so the pipe stays open for what the child printed before dying.
                new ProcessBuilder("kill", "-9", String.valueOf(child.pid())).inheritIO().start().waitFor();
                child.waitFor(30, TimeUnit.SECONDS);
                // Acknowledgements already printed before the kill still count.
                while ((line = lines.readLine()) != null) {
                    record(acked, line);
                }
            } finally {
                child.destroyForcibly();
                child.waitFor(30, TimeUnit.SECONDS);
            }
            try (Engine engine = Engine.open(EngineOptions.builder(dir).build())) {
                Table table = engine.table("t");
                for (Map.Entry<Integer, Integer> e : acked.entrySet()) {
                    String key = "k" + e.getKey();
                    byte[] value = table.get(key.getBytes());
                    assertNotNull(value, "seed=" + seed + " round=" + round + ": acknowledged " + key + " is missing");
                    int version = EngineCrashTest.versionIn(value, key);
                    assertTrue(version >= e.getValue(), "seed=" + seed + " round=" + round + ": " + key
                            + " holds version " + version + " but " + e.getValue() + " was acknowledged");
                    assertTrue(java.util.Arrays.equals(value, EngineCrashTest.valueOf(key, version, null)),
                            key + " has wrong bytes");
                }
            }
            firstVersion += 1_000_000;
        }
        assertTrue(acked.size() > 0, "the child acknowledged nothing");
    }

    private static void record(Map<Integer, Integer> acked, String line) {
        if (line.startsWith("ACK ")) {
            String[] parts = line.split(" ");
            acked.merge(Integer.parseInt(parts[1]), Integer.parseInt(parts[2]), Math::max);
        }
    }
}
