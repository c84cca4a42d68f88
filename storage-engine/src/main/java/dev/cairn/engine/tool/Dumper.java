package dev.cairn.engine.tool;

import dev.cairn.engine.cache.SegmentDump;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.internal.CommitLogDump;
import dev.cairn.engine.internal.ManifestDump;
import dev.cairn.engine.row.CatalogueDump;
import dev.cairn.engine.sstable.SSTableDump;
import dev.cairn.engine.vlog.ValueFileDump;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Prints any engine file readably, choosing the reader by the file's name: commit log, manifest,
 * SSTable, value file, SSD cache segment, schema catalogue segment. The CLI
 * ({@code bin/cairn dump}) calls it; each file kind's reader lives beside its writer.
 */
public final class Dumper {
    private Dumper() {
    }

    /** Dumps one file, or every file of a directory and its subdirectories in name order. */
    public static void dump(FileSystem fs, Path path, PrintStream out) throws IOException {
        if (!fs.exists(path)) {
            throw new IOException("no such file or directory: " + path);
        }
        Path name = path.getFileName();
        List<String> children = name != null && isEngineFile(name.toString()) ? List.of() : listIfDirectory(fs, path);
        if (!children.isEmpty()) {
            for (String child : children.stream().sorted().toList()) {
                dump(fs, path.resolve(child), out);
                out.println();
            }
            return;
        }
        dumpFile(fs, path, out);
    }

    private static boolean isEngineFile(String name) {
        return name.endsWith(".sst") || name.endsWith(".vlog") || name.endsWith(".log") || name.endsWith(".seg")
                || name.endsWith(".cat") || name.startsWith("MANIFEST-") || name.equals("CURRENT")
                || name.equals("LOCK");
    }

    private static List<String> listIfDirectory(FileSystem fs, Path path) {
        try {
            return fs.list(path);
        } catch (IOException notADirectory) {
            return List.of();
        }
    }

    private static void dumpFile(FileSystem fs, Path file, PrintStream out) throws IOException {
        String name = file.getFileName().toString();
        if (name.endsWith(".sst")) {
            SSTableDump.dump(fs, file, out);
        } else if (name.endsWith(".vlog")) {
            ValueFileDump.dump(fs, file, out);
        } else if (name.endsWith(".log")) {
            CommitLogDump.dump(fs, file, out);
        } else if (name.startsWith("MANIFEST-")) {
            ManifestDump.dump(fs, file, out);
        } else if (name.endsWith(".seg")) {
            SegmentDump.dump(fs, file, out);
        } else if (name.endsWith(".cat")) {
            CatalogueDump.dump(fs, file, out);
        } else if (name.equals("CURRENT")) {
            byte[] bytes;
            try (var reader = fs.openRead(file)) {
                bytes = reader.readFully(0, (int) reader.size());
            }
            out.printf("CURRENT -> %s%n", new String(bytes, StandardCharsets.UTF_8).trim());
        } else if (name.equals("LOCK")) {
            out.printf("LOCK (held by a running engine, empty)%n");
        } else {
            out.printf("%s: not an engine file%n", file);
        }
    }
}
