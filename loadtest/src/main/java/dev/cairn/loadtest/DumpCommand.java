package dev.cairn.loadtest;

import dev.cairn.engine.fs.LocalFileSystem;
import dev.cairn.engine.tool.Dumper;
import dev.cairn.loadtest.version.ManifestVersion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code dump}: prints engine files readably, one file or every engine file of a directory.
 *
 * <p>Thread-safety: picocli fills and calls one instance once, from one thread.
 */
@Command(name = "dump", mixinStandardHelpOptions = true, versionProvider = ManifestVersion.class,
        description = "Prints a Cairn engine file (commit log, SSTable, value file, manifest) readably,"
                + " or every engine file of a directory in name order.")
final class DumpCommand implements Callable<Integer> {

    @Parameters(paramLabel = "PATH", description = "an engine file or an engine directory")
    Path path;

    @Override
    public Integer call() throws IOException {
        Dumper.dump(new LocalFileSystem(), path, System.out);
        System.out.flush();
        return 0;
    }
}
