package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.embedded.DataDirLayout;
import dev.cairn.backup.Seed;
import dev.cairn.backup.store.EmbeddedStoreDir;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.CompletedPart;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint's reads of multipart objects' part layouts count against its read rate, as its rows do. */
class CheckpointReaderTest {
    private static final long[] PART_SIZES = {100, 100, 7};
    private static final int MULTIPART_OBJECTS = 50;
    /** High enough that no read waits: the rate only counts what it is charged. */
    private static final long RATE = 1L << 30;

    @TempDir
    Path dir;

    @Test
    void partLayoutReadsAreChargedToTheReadRate() throws IOException {
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(dir)) {
            s.store().createBucket("b", BucketAcl.PRIVATE);
            for (int i = 0; i < MULTIPART_OBJECTS; i++) {
                putMultipart(s.store(), "b", "k" + i);
            }
        }
        try (CheckpointReader reader = CheckpointReader.open(dir.resolve(DataDirLayout.ENGINE_DIR), true, RATE, false, "test store")) {
            List<ObjectInfo> rows = new ArrayList<>();
            reader.scan(reader.splits().get(0), null, (bucket, row, position) -> rows.add(row));
            assertEquals(MULTIPART_OBJECTS, rows.size());
            long afterRows = reader.bytesCharged();
            for (ObjectInfo row : rows) {
                assertArrayEquals(PART_SIZES, reader.partSizes("b", row, null));
            }
            long layouts = reader.bytesCharged() - afterRows;
            assertTrue(layouts >= MULTIPART_OBJECTS * 8L * PART_SIZES.length,
                    "the layout reads were charged " + layouts + " bytes, less than their part sizes alone");
        }
    }

    private static void putMultipart(ObjectStore store, String bucket, String key) throws IOException {
        String upload = store.createUpload(bucket, key, ObjectAttributes.EMPTY).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        for (int n = 1; n <= PART_SIZES.length; n++) {
            byte[] b = Seed.bytes((int) PART_SIZES[n - 1], n);
            parts.add(new CompletedPart(n, store.putPart(bucket, key, upload, n, Seed.content(b)).etag()));
        }
        store.completeUpload(bucket, key, upload, parts, 0);
    }
}
