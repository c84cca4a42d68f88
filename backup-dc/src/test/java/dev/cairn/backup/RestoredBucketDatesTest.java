package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.store.embedded.EmbeddedStoreDir;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A restored bucket keeps the creation date, ACL and versioning its backup recorded. */
class RestoredBucketDatesTest {
    @TempDir
    Path dir;

    @Test
    void aRestoredBucketIsCreatedWhenTheOriginalWas() throws Exception {
        try (SmallArchive small = SmallArchive.backedUp(dir)) {
            Path data = dir.resolve("data");
            assertEquals(0, small.cli("restore", "--target", small.target(), "--into", "embedded:" + data));
            try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(data)) {
                assertEquals(small.source.store().listBuckets(), restored.store().listBuckets());
                assertEquals(SmallArchive.PHOTOS_CREATED, restored.store().bucket("photos").createdMillis());
            }
        }
    }
}
