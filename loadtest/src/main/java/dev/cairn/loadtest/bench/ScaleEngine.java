package dev.cairn.loadtest.bench;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.SyncPolicy;
import dev.cairn.engine.fs.FileSystem;
import java.io.IOException;
import java.nio.file.Path;

/**
 * How the scale benchmark and its crash writer open the engine: the defaults, every write
 * durable, and no row cache, so that a GET the block cache cannot answer goes to the files.
 *
 * <p>Thread-safety: stateless.
 */
final class ScaleEngine {

    static final String TABLE = "objects";

    private ScaleEngine() {
    }

    static Engine open(Path directory, FileSystem fileSystem, long blockCacheBytes) throws IOException {
        return Engine.open(EngineOptions.builder(directory)
                .fileSystem(fileSystem)
                .syncPolicy(SyncPolicy.EVERY_WRITE)
                .blockCacheBytes(blockCacheBytes)
                .rowCacheBytes(0)
                .build());
    }
}
