package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.archive.ManifestHeader;
import dev.cairn.backup.archive.ManifestWriter;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogOrderTest {
    @TempDir
    Path dir;

    private static byte[] manifest(String id, String parent, long started) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ManifestHeader h = new ManifestHeader(id, parent, started, started + 10, "test source",
                List.of(new BucketInfo("a", 5, BucketAcl.PRIVATE)));
        try (ManifestWriter w = new ManifestWriter(out, h)) {
            w.finish(started + 10, started + 10);
        }
        return out.toByteArray();
    }

    @Test
    void twoBackupsBegunInOneSecondSortByTheirStartNotTheirIdsRandomSuffix() throws IOException {
        DirectoryTarget target = new DirectoryTarget(dir);
        long second = 1_790_000_000_000L;
        // The later backup draws the smaller suffix: sorting by id would call the first one the newest.
        target.put(ArchiveLayout.manifest("20260923T001320Z-ffff"), manifest("20260923T001320Z-ffff", null, second + 100));
        target.put(ArchiveLayout.manifest("20260923T001320Z-0000"), manifest("20260923T001320Z-0000",
                "20260923T001320Z-ffff", second + 600));
        assertEquals("20260923T001320Z-0000", Catalog.latest(target).id());
        assertEquals(List.of("20260923T001320Z-ffff", "20260923T001320Z-0000"),
                Catalog.backups(target).stream().map(Catalog.Backup::id).toList());
    }
}
