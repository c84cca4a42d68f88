package dev.cairn.store;

import dev.cairn.engine.TieredCache;
import dev.cairn.engine.TieredCacheOptions;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on the service's Cassandra stack: the row cache over the Cassandra store, against the local test cluster. */
@Tag("integration")
class RowCachingCassandraObjectStoreContractTest extends CassandraObjectStoreContractTest {
    @TempDir
    Path dir;

    @Override
    protected ObjectStore open() throws IOException {
        TieredCache cache = TieredCache.open(TieredCacheOptions.builder(dir.resolve("cache")).memoryBytes(1 << 20).build());
        return new RowCachingObjectStore(super.open(), cache, 64 << 10, true);
    }
}
