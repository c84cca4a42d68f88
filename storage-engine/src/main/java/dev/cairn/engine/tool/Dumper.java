package dev.cairn.engine.tool;

import dev.cairn.engine.fs.FileSystem;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Prints any engine file readably, choosing the reader by the file's name. The CLI
 * ({@code bin/cairn dump}) calls it; each file kind's reader lives beside its writer.
 */
public final class Dumper {
    private Dumper() {
    }

    /** Dumps one file, or every engine file of a directory in name order. */
    public static void dump(FileSystem fs, Path path, PrintStream out) throws IOException {
        throw new IOException("don't know how to dump " + path + " (file kinds are being added)");
    }
}
