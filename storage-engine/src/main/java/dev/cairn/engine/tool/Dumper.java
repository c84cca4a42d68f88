package dev.cairn.engine.tool;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.internal.CommitLogDump;
import dev.cairn.engine.internal.ManifestDump;
import dev.cairn.engine.sstable.SSTableDump;
import dev.cairn.engine.vlog.ValueFileDump;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Prints any engine file readably, choosing the reader by the file's name. The CLI
 * ({@code bin/cairn dump}) calls it; each file kind's reader lives beside its writer.
 */
public final class Dumper {
    private Dumper() {
    }

    /** Dumps one file, or every engine file of a directory in name order. */
    public static void dump(FileSystem fs, Path path, PrintStream out) throws IOException {
        if (!fs.exists(path)) {
            throw new IOException("no such file or directory: " + path);
        }
        List<String> children = fs.list(path);
        if (!children.isEmpty()) {
            for (String name : children.stream().sorted().toList()) {
                dumpFile(fs, path.resolve(name), out);
                out.println();
            }
            return;
        }
        dumpFile(fs, path, out);
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
