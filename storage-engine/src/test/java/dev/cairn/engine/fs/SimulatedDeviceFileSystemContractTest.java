package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.file.Path;

/** The decorator must keep the contract of what it decorates. */
class SimulatedDeviceFileSystemContractTest extends FileSystemContractTest {

    @Override
    protected FileSystem newFileSystem() {
        return new SimulatedDeviceFileSystem(new MemFileSystem(), DeviceProfile.HDD_7200.withWriteBandwidth(150_000_000), nanos -> { });
    }

    @Override
    protected Path emptyDirectory(FileSystem fs) throws IOException {
        Path dir = Path.of("/mem/contract");
        fs.createDirectories(dir);
        return dir;
    }
}
