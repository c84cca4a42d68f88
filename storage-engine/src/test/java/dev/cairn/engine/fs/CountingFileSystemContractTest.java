package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.file.Path;

/** The decorator must keep the contract of what it decorates. */
class CountingFileSystemContractTest extends FileSystemContractTest {

    @Override
    protected FileSystem newFileSystem() {
        return new CountingFileSystem(new MemFileSystem());
    }

    @Override
    protected Path emptyDirectory(FileSystem fs) throws IOException {
        Path dir = Path.of("/mem/contract");
        fs.createDirectories(dir);
        return dir;
    }
}
