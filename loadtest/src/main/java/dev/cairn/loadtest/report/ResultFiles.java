package dev.cairn.loadtest.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.cairn.loadtest.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads and writes result files. Thread-safety: stateless. */
public final class ResultFiles {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultFiles() {
    }

    public static void write(JsonNode result, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        JSON.writeValue(file.toFile(), result);
    }

    /** Reads a result file; fails with a clear message when it is not one. */
    public static JsonNode read(Path file) throws IOException {
        JsonNode node;
        try {
            node = JSON.readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(file + " is not JSON: " + e.getOriginalMessage(), e);
        }
        if (node == null || !RunResult.FORMAT.equals(node.path("format").asText())) {
            throw new IOException(file + " is not a loadtest result file (format " + RunResult.FORMAT + ")");
        }
        return node;
    }
}
