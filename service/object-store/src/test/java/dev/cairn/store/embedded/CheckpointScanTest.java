package dev.cairn.store.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.CompleteRequest;
import dev.cairn.store.CompletedPart;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint's scans hand multipart rows over with their part sizes, and charge those reads to the read rate. */
class CheckpointScanTest {
    private static final long[] PART_SIZES = {100, 100, 7};
    private static final long[] OLDER_PART_SIZES = {50, 3};
    private static final int MULTIPART_OBJECTS = 50;
    /** High enough that no read waits: the rate only counts what it is charged. */
    private static final long RATE = 1L << 30;
    /** Less than a row with its layout costs: its record estimate and three parts' 8 bytes. */
    private static final long ROW_WITHOUT_LAYOUT_BYTES = 160 + 8 * PART_SIZES.length;

    @TempDir
    Path dir;

    @Test
    void multipartRowsComeWithTheirPartSizesWhoseReadsAreChargedToTheReadRate() throws IOException {
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(dir)) {
            s.store().createBucket("b", BucketAcl.PRIVATE);
            for (int i = 0; i < MULTIPART_OBJECTS; i++) {
                putMultipart(s.store(), "b", "k" + i, PART_SIZES);
            }
        }
        try (CheckpointScan scan = open()) {
            List<long[]> sizes = new ArrayList<>();
            scan.scan("b", null, (row, partSizes) -> sizes.add(partSizes));
            assertEquals(MULTIPART_OBJECTS, sizes.size());
            sizes.forEach(s -> assertArrayEquals(PART_SIZES, s));
            assertTrue(scan.bytesCharged() >= MULTIPART_OBJECTS * ROW_WITHOUT_LAYOUT_BYTES,
                    "the scan was charged " + scan.bytesCharged() + " bytes, no more than its rows without their layouts");
        }
    }

    @Test
    void everyMultipartVersionComesWithItsOwnPartSizes() throws IOException {
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(dir)) {
            s.store().createBucket("v", BucketAcl.PRIVATE);
            s.store().setBucketVersioning("v", Versioning.ENABLED);
            putMultipart(s.store(), "v", "k", OLDER_PART_SIZES);
            putMultipart(s.store(), "v", "k", PART_SIZES);
            s.store().deleteObject("v", "k");
        }
        try (CheckpointScan scan = open()) {
            List<VersionRecord> versions = new ArrayList<>();
            scan.scanVersions("v", Versioning.ENABLED, null, null, versions::add);
            assertEquals(3, versions.size(), versions.toString());
            assertTrue(versions.get(0).version().deleteMarker());
            assertNull(versions.get(0).partSizes());
            assertArrayEquals(PART_SIZES, versions.get(1).partSizes());
            assertArrayEquals(OLDER_PART_SIZES, versions.get(2).partSizes());
        }
    }

    private CheckpointScan open() throws IOException {
        return CheckpointScan.open(DataDirLayout.engineDir(dir), new ScanOptions(true, RATE, ScanPriority.NORMAL));
    }

    private static void putMultipart(ObjectStore store, String bucket, String key, long[] partSizes) throws IOException {
        String upload = store.createUpload(bucket, key, ObjectAttributes.EMPTY).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        Random random = new Random(key.hashCode());
        for (int n = 1; n <= partSizes.length; n++) {
            byte[] b = new byte[(int) partSizes[n - 1]];
            random.nextBytes(b);
            parts.add(new CompletedPart(n, store.putPart(bucket, key, upload, n, BytesContent.of(b)).etag()));
        }
        store.completeUpload(CompleteRequest.of(bucket, key, upload, parts, 0));
    }
}
