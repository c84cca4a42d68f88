package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class LocalFileSystemContractTest extends FileSystemContractTest {

    @TempDir
    Path tempDir;

    @Override
    protected FileSystem newFileSystem() {
        return new LocalFileSystem();
    }

    @Override
    protected Path emptyDirectory(FileSystem fs) throws IOException {
        return tempDir;
    }
}
