package dev.cairn.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service as {@code bin/cairn serve} runs it, in a child JVM, refusing to start: it prints one
 * line that names the setting and the path, no stack trace, and exits non-zero.
 */
@Tag("integration")
class StartupRefusalTest {
    @TempDir
    Path tmp;

    private record Exit(int code, List<String> lines) {
    }

    private Exit serve(Map<String, String> environment, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), CairnApplication.class.getName(),
                "--server.port=0", "--server.address=127.0.0.1"));
        command.addAll(List.of(args));
        Path log = Files.createTempFile(tmp, "serve", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(tmp.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process p = builder.start();
        try {
            boolean exited = p.waitFor(60, TimeUnit.SECONDS);
            String output = Files.readString(log);
            assertTrue(exited, () -> "the service did not stop within 60 s:\n" + output);
            return new Exit(p.exitValue(), output.lines().filter(l -> !l.isBlank()).toList());
        } finally {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMissingKeyFileIsOneLineNamingTheFileAndTheSetting() throws Exception {
        Path keys = tmp.resolve("missing-keys");
        Exit exit = serve(Map.of("CAIRN_AUTH_KEYSFILE", keys.toString()), "--cairn.data-dir=" + tmp.resolve("data"));
        assertEquals(List.of("cairn: cairn.auth.keys-file (CAIRN_AUTH_KEYSFILE): " + keys + " does not exist"), exit.lines());
        assertNotEquals(0, exit.code());
    }

    @Test
    void anInvalidValueIsOneLineToo() throws Exception {
        Exit exit = serve(Map.of(), "--cairn.data-dir=" + tmp.resolve("data"), "--cairn.limits.max-parts=0");
        assertEquals(List.of("cairn: invalid setting: cairn.limits.max-parts must be in [1, 10000]"), exit.lines());
        assertNotEquals(0, exit.code());
    }

    @Test
    void engineFilesDirectlyInTheDataDirectoryStopTheStartWithWhereTheyBelong() throws Exception {
        Path restored = tmp.resolve("restored");
        try (Engine engine = Engine.open(EngineOptions.builder(restored).build())) {
            engine.table("objects").put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
        }
        Exit exit = serve(Map.of("CAIRN_DATA_DIR", restored.toString()));
        assertEquals(1, exit.lines().size(), () -> String.join("\n", exit.lines()));
        String line = exit.lines().get(0);
        assertTrue(line.startsWith("cairn: cairn.data-dir (CAIRN_DATA_DIR): " + restored + " holds engine files (")
                && line.contains("the service reads its engine from " + restored.resolve("engine")), line);
        assertNotEquals(0, exit.code());
        assertTrue(!Files.exists(restored.resolve("engine")), "nothing was created beside the engine's files");
    }
}
