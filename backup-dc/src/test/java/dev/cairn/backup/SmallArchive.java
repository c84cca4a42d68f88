package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.TreeMap;

/**
 * A few objects in two buckets of an embedded store under {@code dir/source}, backed up through
 * the command line into {@code dir/archive}; for restore tests that need a small archive.
 */
final class SmallArchive implements AutoCloseable {
    static final int OBJECTS = 30;
    /** 2021-03-04T05:06:07.089Z. */
    static final long PHOTOS_CREATED = 1_614_834_367_089L;

    final Path dir;
    final EmbeddedStoreDir source;
    final TreeMap<String, String> snapshot;

    private SmallArchive(Path dir, EmbeddedStoreDir source, TreeMap<String, String> snapshot) {
        this.dir = dir;
        this.source = source;
        this.snapshot = snapshot;
    }

    static SmallArchive backedUp(Path dir) throws IOException {
        EmbeddedStoreDir source = EmbeddedStoreDir.open(dir.resolve("source"));
        try {
            ObjectStore store = source.store();
            // Created long before the backup, as a restore must show them.
            store.createBucket("photos", BucketAcl.PUBLIC_READ, PHOTOS_CREATED);
            store.createBucket("docs", BucketAcl.PRIVATE, PHOTOS_CREATED + 86_400_000L);
            for (int i = 0; i < OBJECTS; i++) {
                Seed.put(store, i % 3 == 0 ? "docs" : "photos", "k" + i, Seed.bytes(100 + i * 37, i), Seed.attributes(i));
            }
            SmallArchive a = new SmallArchive(dir, source, StoreFixture.snapshot(store));
            assertEquals(0, a.cli("run", "--source", "embedded", "--target", a.target()));
            return a;
        } catch (IOException | RuntimeException | Error e) {
            source.close();
            throw e;
        }
    }

    String target() {
        return "dir:" + dir.resolve("archive");
    }

    Path archive() {
        return dir.resolve("archive");
    }

    int cli(String... args) {
        ObjectStore store = source.store();
        return Main.commandLine(options -> new ObjectStoreSource(store, "test store", 50, null)).execute(args);
    }

    @Override
    public void close() throws IOException {
        source.close();
    }
}
