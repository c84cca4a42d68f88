package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
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
    void bucketDocumentsMakeAVersion5ManifestAndABackupWithoutThemStaysVersion4() throws IOException {
        List<BackupRow> rows = List.of(row("a", "x", 1), row("b", "y", 2));
        byte[] plain = manifest(rows);
        assertEquals(ManifestWriter.VERSION_WITH_PART_SIZES, plain[9], "no documents: the bytes of version 4");

        BucketInfo withCors = new BucketInfo("b", 6, BucketAcl.PUBLIC_READ, dev.cairn.store.Versioning.UNVERSIONED,
                Map.of("cors", "<C/>"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ManifestWriter w = new ManifestWriter(out, new ManifestHeader("id-2", "id-1", 1, 2, "test source",
                List.of(new BucketInfo("a", 5, BucketAcl.PRIVATE), withCors)))) {
            for (BackupRow r : rows) {
                w.add(r);
            }
            w.finish(1, 2);
        }
        byte[] bytes = out.toByteArray();
        assertEquals(ManifestWriter.VERSION_WITH_DOCUMENTS, bytes[9]);
        assertEquals(plain.length + 2 * 4 + 4 + 4 + 4 + 4, bytes.length,
                "two document counts, and one document: its kind and text, each a length and 4 bytes");
        ManifestReader reader = new ManifestReader("m", new ByteArrayInputStream(bytes));
        assertEquals(List.of(new BucketInfo("a", 5, BucketAcl.PRIVATE), withCors), reader.header().buckets());
        assertEquals(rows, read(bytes));
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

    private static BackupRow version(String bucket, String key, int i, boolean marker) {
        byte[] order = new byte[12];
        order[0] = (byte) (i >> 8);
        order[1] = (byte) i;
        String id = i == 7 ? VersionId.NULL : VersionId.encode(order);
        VersionRecord v = marker ? new VersionRecord(ObjectVersion.marker(key, id, 2000L + i, false), order)
                : new VersionRecord(ObjectVersion.of(row(bucket, key, i).info().withVersionId(id), false), order);
        return BackupRow.ofVersion(bucket, v);
    }

    private static byte[] versionedManifest(List<BackupRow> rows) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ManifestHeader h = new ManifestHeader("id-3", null, 1, 2, "test source",
                List.of(new BucketInfo("a", 5, BucketAcl.PRIVATE), new BucketInfo("v", 6, BucketAcl.PRIVATE, Versioning.SUSPENDED)));
        try (ManifestWriter w = new ManifestWriter(out, h)) {
            for (BackupRow r : rows) {
                w.add(r);
            }
            w.finish(0, 0);
        }
        return out.toByteArray();
    }

    @Test
    void versionRowsRoundTripInAVersion3Manifest() throws IOException {
        BackupRow legacy = BackupRow.ofVersion("v", new VersionRecord(
                ObjectVersion.of(row("v", "only", 9).info().withVersionId(VersionId.NULL), false), null));
        List<BackupRow> rows = List.of(row("a", "x", 1), version("v", "k", 1, true), version("v", "k", 2, false),
                version("v", "k", 7, false), legacy);
        byte[] bytes = versionedManifest(rows);
        assertEquals(4, bytes[9], "version 4");
        assertEquals(rows, read(bytes));
        ManifestHeader h = new ManifestReader("m", new ByteArrayInputStream(bytes)).header();
        assertEquals(Versioning.SUSPENDED, h.buckets().get(1).versioning());
        byte[] version3 = OlderManifests.rewrite(bytes, 3);
        assertEquals(3, version3[9]);
        assertEquals(rows, read(version3), "a version 3 manifest reads as before");
        assertEquals(4, manifest(List.of(row("a", "x", 1)))[9], "without versioning a manifest is version 4 too");
    }

    private static BackupRow multipart(String bucket, String key, int i, long... sizes) {
        ObjectInfo o = row(bucket, key, i).info();
        long total = Arrays.stream(sizes).sum();
        return new BackupRow(bucket, new ObjectInfo(key, o.sha256(), total, "etag-" + sizes.length, o.attributes(),
                o.lastModified(), sizes.length, o.checksums()), sizes);
    }

    private static BackupRow multipartVersion(String key, int i, long... sizes) {
        BackupRow v = version("v", key, i, false);
        ObjectInfo o = v.info();
        ObjectInfo m = new ObjectInfo(key, o.sha256(), Arrays.stream(sizes).sum(), "etag-" + sizes.length,
                o.attributes(), o.lastModified(), sizes.length, o.checksums(), o.versionId());
        return BackupRow.ofVersion("v", new VersionRecord(ObjectVersion.of(m, false), v.order(), sizes));
    }

    @Test
    void partSizesRoundTripInAVersion4Manifest() throws IOException {
        List<BackupRow> rows = List.of(multipart("a", "mp", 1, 5 << 20, 6 << 20, 17), row("a", "plain", 2),
                version("v", "k", 1, true), multipartVersion("k", 2, 100, 3), version("v", "k", 3, false));
        byte[] bytes = versionedManifest(rows);
        List<BackupRow> back = read(bytes);
        assertEquals(rows, back);
        assertArrayEquals(new long[] {5 << 20, 6 << 20, 17}, back.get(0).partSizes());
        assertArrayEquals(new long[] {100, 3}, back.get(3).version().partSizes(), "a version row's sizes are its record's");
        assertEquals(null, back.get(1).partSizes());

        List<BackupRow> older = read(OlderManifests.rewrite(bytes, 3));
        assertEquals(null, older.get(0).partSizes(), "a version 3 manifest has no part sizes: the row reads without");
        assertEquals(rows.get(0).info(), older.get(0).info());
        assertEquals(2, older.get(3).info().partCount());
        assertEquals(null, older.get(3).partSizes());
    }

    @Test
    void partSizesInAManifestVersionWithoutThemAreRefused() throws IOException {
        byte[] bytes = versionedManifest(List.of(multipart("a", "mp", 1, 10, 20, 3), version("v", "k", 1, false),
                multipartVersion("k", 2, 100, 3)));
        byte[] version3 = OlderManifests.rewrite(bytes, 3, true);
        IOException e3 = assertThrows(IOException.class, () -> read(version3));
        assertTrue(e3.getMessage().contains("row 1 carries part sizes, which manifest version 3 cannot hold"),
                e3.getMessage());
        byte[] plainRowsOnly = manifest(List.of(multipart("a", "mp", 1, 10, 20, 3)));
        for (int older = 2; older >= 1; older--) {
            byte[] damaged = OlderManifests.rewrite(plainRowsOnly, older, true);
            IOException e = assertThrows(IOException.class, () -> read(damaged));
            assertTrue(e.getMessage().contains("cannot hold"), e.getMessage());
        }
    }

    @Test
    void partSizesThatDoNotDescribeTheObjectAreRefused() throws IOException {
        assertThrows(IllegalArgumentException.class, () -> new BackupRow("a", row("a", "x", 1).info(), new long[] {1, 2}),
                "two sizes for one part");
        byte[] good = manifest(List.of(multipart("a", "mp", 1, 10, 20, 3)));
        int sizes = good.length - ManifestReader.TRAILER_BYTES - 8 * 3;
        byte[] bad = good.clone();
        bad[sizes + 7] ^= 1;
        java.security.MessageDigest md;
        try {
            md = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        md.update(bad, 0, bad.length - 32);
        System.arraycopy(md.digest(), 0, bad, bad.length - 32, 32);
        IOException e = assertThrows(IOException.class, () -> read(bad));
        assertTrue(e.getMessage().contains("part sizes sum to"), e.getMessage());
    }

    @Test
    void aBucketHoldsOneKindOfRowAndAKeysVersionsAscendByPlace() {
        assertThrows(IllegalStateException.class, () -> versionedManifest(List.of(row("v", "k", 1))));
        assertThrows(IllegalStateException.class, () -> versionedManifest(List.of(version("a", "k", 1, false))));
        assertThrows(IllegalStateException.class, () -> manifest(List.of(version("a", "k", 1, false))));
        assertThrows(IllegalStateException.class,
                () -> versionedManifest(List.of(version("v", "k", 2, false), version("v", "k", 1, false))));
        assertThrows(IllegalStateException.class,
                () -> versionedManifest(List.of(version("v", "k", 2, false), version("v", "k", 2, true))));
    }

    @Test
    void everyFlippedByteOfAVersionedManifestIsDetected() throws IOException {
        byte[] good = versionedManifest(List.of(version("v", "k", 1, true), version("v", "k", 2, false)));
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x10;
            int at = i;
            assertThrows(Exception.class, () -> read(bad), "flip at " + at);
        }
    }
}
