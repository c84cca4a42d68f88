package dev.cairn.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The service reaches the engine only through its public API package, {@code dev.cairn.engine}. */
class ModuleWallTest {
    private static final Pattern ENGINE_REFERENCE = Pattern.compile("dev\\.cairn\\.engine\\.([a-z_][a-z0-9_]*)\\.");

    @Test
    void serviceSourcesUseOnlyThePublicEnginePackage() throws IOException {
        Path main = Path.of("src/main/java");
        assertTrue(Files.isDirectory(main), "run from the service module: " + Path.of("").toAbsolutePath());
        List<String> violations = new ArrayList<>();
        int files = 0;
        try (Stream<Path> walk = Files.walk(main)) {
            for (Path p : walk.filter(f -> f.toString().endsWith(".java")).toList()) {
                files++;
                String src = Files.readString(p);
                Matcher m = ENGINE_REFERENCE.matcher(src);
                while (m.find()) {
                    violations.add(main.relativize(p) + ": dev.cairn.engine." + m.group(1));
                }
            }
        }
        assertTrue(files > 10, "found only " + files + " source files");
        assertEquals(List.of(), violations, "service code must use only dev.cairn.engine's public types");
    }

    @Test
    void theCheckSeesASubpackageReference() {
        assertTrue(ENGINE_REFERENCE.matcher("import dev.cairn.engine.internal.DbImpl;").find());
        assertTrue(ENGINE_REFERENCE.matcher("new dev.cairn.engine.sstable.Block()").find());
        assertTrue(!ENGINE_REFERENCE.matcher("import dev.cairn.engine.Engine;").find());
        assertTrue(!ENGINE_REFERENCE.matcher("dev.cairn.engine.EngineOptions.DEFAULT_MEMTABLE_BYTES").find());
    }
}
