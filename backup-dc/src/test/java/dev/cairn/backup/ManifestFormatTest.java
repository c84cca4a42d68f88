package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.ManifestHeader;
import dev.cairn.backup.archive.ManifestReader;
import dev.cairn.backup.archive.ManifestWriter;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestFormatTest {
    private static BackupRow row(String bucket, String key, int i) {
        ObjectAttributes a = new ObjectAttributes("image/png", null, "inline", null, "en", "Thu, 01 Jan 2026 00:00:00 GMT",
                Map.of("k", "v" + i)).withAcl(i % 3 == 0 ? BucketAcl.PUBLIC_READ : BucketAcl.PRIVATE);
        return new BackupRow(bucket, new ObjectInfo(key, Seed.hash("SHA-256", new byte[] {(byte) i}), i, "etag" + i, a,
                1000L + i, i % 2, Map.of("CRC32C", "AAAA")));
    }

    private static byte[] manifest(List<BackupRow> rows) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ManifestHeader h = new ManifestHeader("id-2", "id-1", 1, 2, "test source",
                List.of(new BucketInfo("a", 5, BucketAcl.PRIVATE), new BucketInfo("b", 6, BucketAcl.PUBLIC_READ)));
        try (ManifestWriter w = new ManifestWriter(out, h)) {
            for (BackupRow r : rows) {
                w.add(r);
            }
            w.finish(1, 2);
        }
        return out.toByteArray();
    }

    private static List<BackupRow> read(byte[] bytes) throws IOException {
        List<BackupRow> rows = new ArrayList<>();
        try (ManifestReader r = new ManifestReader("m", new ByteArrayInputStream(bytes))) {
            for (BackupRow row = r.next(); row != null; row = r.next()) {
                rows.add(row);
            }
        }
        return rows;
    }

    @Test
    void roundTripsEveryField() throws IOException {
        List<BackupRow> rows = List.of(row("a", "x", 1), row("a", "é", 2), row("a", "😀", 3), row("b", "a", 4));
        assertEquals(rows, read(manifest(rows)));
        assertEquals("id-1", new ManifestReader("m", new ByteArrayInputStream(manifest(rows))).header().parentId());
    }

    @Test
    void aPrivateRowKeepsTheFirstLayoutAndAPublicOneCarriesItsAcl() throws IOException {
        byte[] privateOnly = manifest(List.of(row("a", "x", 1)));
        byte[] withPublic = manifest(List.of(row("a", "x", 3)));
        assertEquals(privateOnly.length + 1, withPublic.length, "the same fields' lengths, and one ACL byte");
        assertEquals(BucketAcl.PUBLIC_READ, read(withPublic).get(0).info().attributes().acl());
        assertEquals(BucketAcl.PRIVATE, read(privateOnly).get(0).info().attributes().acl());
    }

    @Test
    void refusesRowsOutOfOrder() {
        assertThrows(IllegalStateException.class, () -> manifest(List.of(row("b", "a", 1), row("a", "z", 2))));
    }

    @Test
    void everyFlippedByteAndEveryTruncationIsDetected() throws IOException {
        byte[] good = manifest(List.of(row("a", "x", 1), row("b", "y", 2)));
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x10;
            int at = i;
            assertThrows(Exception.class, () -> read(bad), "flip at " + at);
        }
        for (int n = 0; n < good.length; n++) {
            byte[] cut = Arrays.copyOf(good, n);
            IOException e = assertThrows(IOException.class, () -> read(cut), "cut at " + n);
            assertTrue(e.getMessage().startsWith("m"), e.getMessage());
        }
    }
}
