package dev.cairn.store.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * How an embedded store lies in its data directory ({@code cairn.data-dir}): the engine in
 * {@link #ENGINE_DIR}. The service and the backup tool both open a data directory this way, and
 * both refuse one that holds the engine's own files directly: an engine opened beside them would be
 * empty and serve nothing, as if the data were gone.
 */
public final class DataDirLayout {
    /** Where the engine lives inside a data directory. */
    public static final String ENGINE_DIR = "engine";
    /**
     * The names of an engine directory's files (docs/format/manifest.md): CURRENT names the
     * manifest; logs, tables and value files are numbered; the catalogue has a directory. The
     * engine's API does not list them, so the documented format is the source.
     */
    private static final Pattern ENGINE_FILE = Pattern.compile("CURRENT|MANIFEST-\\d+|\\d+\\.(log|sst|vlog)|catalogue");
    /** The engine's lock file, left in an engine directory that was only opened. */
    private static final String LOCK = "LOCK";
    private static final int NAMES_SHOWN = 4;

    private DataDirLayout() {
    }

    public static Path engineDir(Path dataDir) {
        return dataDir.resolve(ENGINE_DIR);
    }

    /**
     * Refuses {@code dataDir} when it holds an engine itself (its CURRENT or a manifest) and its
     * {@link #ENGINE_DIR} holds nothing; the message names the files and where they belong.
     */
    public static void check(Path dataDir) {
        if (!Files.isDirectory(dataDir) || holdsAnything(engineDir(dataDir))) {
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
        String remedy = ENGINE_DIR.equals(String.valueOf(absolute.getFileName())) && absolute.getParent() != null
                ? "set cairn.data-dir to " + absolute.getParent() + ", the directory above it"
                : "move them into " + engineDir(absolute) + ", or set cairn.data-dir to the directory that holds " + ENGINE_DIR + "/";
        throw new MisplacedEngineException(absolute + " holds engine files (" + shown
                + ") but the service reads its engine from " + engineDir(absolute) + ": " + remedy);
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
