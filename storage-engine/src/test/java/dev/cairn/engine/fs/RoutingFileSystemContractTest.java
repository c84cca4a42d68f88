package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;

/** The router must keep the contract, on a route and on the default file system alike. */
class RoutingFileSystemContractTest {

    private static RoutingFileSystem router() {
        return RoutingFileSystem.builder(new MemFileSystem())
                .route(Path.of("/mem/capacity"), new MemFileSystem())
                .route(Path.of("/mem/capacity/deeper"), new MemFileSystem())
                .build();
    }

    @Nested
    class OnARoute extends FileSystemContractTest {
        @Override
        protected FileSystem newFileSystem() {
            return router();
        }

        @Override
        protected Path emptyDirectory(FileSystem fs) throws IOException {
            Path dir = Path.of("/mem/capacity/contract");
            fs.createDirectories(dir);
            return dir;
        }
    }

    @Nested
    class OnTheDefault extends FileSystemContractTest {
        @Override
        protected FileSystem newFileSystem() {
            return router();
        }

        @Override
        protected Path emptyDirectory(FileSystem fs) throws IOException {
            Path dir = Path.of("/mem/fast/contract");
            fs.createDirectories(dir);
            return dir;
        }
    }
}
