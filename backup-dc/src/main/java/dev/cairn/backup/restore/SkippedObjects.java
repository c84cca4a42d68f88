package dev.cairn.backup.restore;

import dev.cairn.backup.run.Json;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The objects a restore with {@code --skip-damaged} left out, in a file beside its state file
 * (one JSON object a line, each forced to disk before the batch holding it is recorded done), so
 * a resumed or repeated restore still reports every one. Thread-safe.
 */
final class SkippedObjects {
    private final Path file;
    private final Set<SkippedObject> skipped = new LinkedHashSet<>();

    SkippedObjects(Path file) {
        this.file = file;
    }

    /** Reads what an earlier run of this restore recorded; {@code fresh}: forget it instead. */
    synchronized void load(boolean fresh) throws IOException {
        skipped.clear();
        if (fresh) {
            Files.deleteIfExists(file);
            return;
        }
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    skipped.add(Json.read(line.getBytes(StandardCharsets.UTF_8), SkippedObject.class, file.toString()));
                }
            }
        }
    }

    synchronized void add(SkippedObject s) throws IOException {
        if (!skipped.add(s)) {
            return;
        }
        byte[] line = (new String(Json.write(s), StandardCharsets.UTF_8).replace("\n", "") + "\n")
                .getBytes(StandardCharsets.UTF_8);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            out.write(java.nio.ByteBuffer.wrap(line));
            out.force(true);
        }
    }

    synchronized List<SkippedObject> all() {
        return List.copyOf(new ArrayList<>(skipped));
    }
}
