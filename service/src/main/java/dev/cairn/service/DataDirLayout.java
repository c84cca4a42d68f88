package dev.cairn.service;

import dev.cairn.service.config.InvalidSettingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Refuses a data directory that holds the engine's own files (docs/format/manifest.md) directly
 * instead of under {@code engine/}: the service would open an empty engine beside them and serve
 * nothing, as if the data were gone.
 */
final class DataDirLayout {
    /** What an engine directory holds: CURRENT names the manifest; logs, tables and value files are numbered; the catalogue has a directory. */
    private static final Pattern ENGINE_FILE = Pattern.compile("CURRENT|MANIFEST-\\d+|\\d+\\.(log|sst|vlog)|catalogue");
    /** The engine's lock file, left in an engine directory that was only opened. */
    private static final String LOCK = "LOCK";
    private static final int NAMES_SHOWN = 4;

    private DataDirLayout() {
    }

    static void check(Path dataDir) {
        Path engineDir = dataDir.resolve(ServiceConfiguration.ENGINE_DIR);
        if (!Files.isDirectory(dataDir) || holdsAnything(engineDir)) {
            return;
        }
        List<String> engineFiles = names(dataDir).stream().filter(n -> ENGINE_FILE.matcher(n).matches()).sorted().toList();
        boolean anEngine = engineFiles.stream().anyMatch(n -> n.equals("CURRENT") || n.startsWith("MANIFEST-"));
        if (!anEngine) {
            return;
        }
        String shown = String.join(", ", engineFiles.subList(0, Math.min(NAMES_SHOWN, engineFiles.size())))
                + (engineFiles.size() > NAMES_SHOWN ? ", …" : "");
        Path absolute = dataDir.toAbsolutePath().normalize();
        String remedy = ServiceConfiguration.ENGINE_DIR.equals(String.valueOf(absolute.getFileName())) && absolute.getParent() != null
                ? "set cairn.data-dir to " + absolute.getParent() + ", the directory above it"
                : "move them into " + absolute.resolve(ServiceConfiguration.ENGINE_DIR)
                        + ", or set cairn.data-dir to the directory that holds engine/";
        throw InvalidSettingException.of("cairn.data-dir", absolute + " holds engine files (" + shown
                + ") but the service reads its engine from " + absolute.resolve(ServiceConfiguration.ENGINE_DIR)
                + ": " + remedy);
    }

    private static boolean holdsAnything(Path engineDir) {
        return Files.isDirectory(engineDir) && names(engineDir).stream().anyMatch(n -> !n.equals(LOCK));
    }

    private static List<String> names(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }
}
