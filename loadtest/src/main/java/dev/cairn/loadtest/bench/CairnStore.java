package dev.cairn.loadtest.bench;

import dev.cairn.engine.fs.CountingFileSystem;
import dev.cairn.engine.fs.IoCounters;
import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.SyncPolicy;
import dev.cairn.engine.Table;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.IOException;
import java.nio.file.Path;

/** Cairn's engine with every write durable, its I/O counted. Thread-safety: as {@link BenchStore}. */
final class CairnStore implements BenchStore {

    static final String TABLE = "objects";
    /** The fraction of garbage at which the benchmark's reclamation pass rewrites a value file. */
    static final double GC_GARBAGE_RATIO = 0.5;

    private final CountingFileSystem fileSystem;
    private final Engine engine;
    private final Table table;

    private CairnStore(CountingFileSystem fileSystem, Engine engine) throws IOException {
        this.fileSystem = fileSystem;
        this.engine = engine;
        this.table = engine.table(TABLE);
    }

    static CairnStore open(Path directory, BenchConfig config) throws IOException {
        CountingFileSystem fileSystem = new CountingFileSystem(new LocalFileSystem());
        EngineOptions options = EngineOptions.builder(directory)
                .fileSystem(fileSystem)
                .syncPolicy(SyncPolicy.EVERY_WRITE)
                .valueThreshold(config.valueThreshold())
                .blockCacheBytes(config.blockCacheBytes())
                .build();
        Engine engine = Engine.open(options);
        try {
            return new CairnStore(fileSystem, engine);
        } catch (IOException | RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    @Override
    public void put(byte[] key, byte[] value) throws IOException {
        table.put(key, value);
    }

    @Override
    public byte[] get(byte[] key) throws IOException {
        return table.get(key);
    }

    @Override
    public void flush() throws IOException {
        engine.flush();
    }

    @Override
    public void compactAndCollectGarbage() throws IOException {
        engine.compactAll();
        engine.collectValueGarbage(GC_GARBAGE_RATIO);
    }

    @Override
    public long indexAndFilterBytes() {
        return engine.stats().indexAndFilterBytes();
    }

    @Override
    public IoCounters fileSystemCounts() {
        return fileSystem.snapshot();
    }

    @Override
    public void close() throws IOException {
        engine.close();
    }
}
