package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;

class LocalFileSystemContractTest extends FileSystemContractTest {

    @TempDir
    Path tempDir;

    @Override
    protected FileSystem newFileSystem() {
        return new LocalFileSystem();
    }

    /** The file systems the engine's tests run on that punch holes (ext3, overlay and network ones may not). */
    private static final Set<String> PUNCHING = Set.of("ext4", "xfs", "btrfs", "tmpfs");

    @Override
    protected boolean punchesHoles(Path dir) throws IOException {
        return PUNCHING.contains(Files.getFileStore(dir).type());
    }

    @Override
    protected Path emptyDirectory(FileSystem fs) throws IOException {
        return tempDir;
    }
}
