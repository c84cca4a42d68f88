package dev.cairn.store.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.ColumnValue;
import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Row;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.StoreLimits;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ObjectRowTest {

    private static String maybe(Random random, String value) {
        return random.nextInt(3) == 0 ? value : null;
    }

    private static ObjectInfo randomObject(Random random) {
        byte[] md5 = new byte[16];
        random.nextBytes(md5);
        int parts = random.nextInt(3) == 0 ? 1 + random.nextInt(10_000) : 0;
        String etag = switch (random.nextInt(4)) {
            case 0 -> "odd etag " + random.nextInt(100);
            case 1 -> HexFormat.of().formatHex(md5) + "-" + (parts + 1);
            default -> HexFormat.of().formatHex(md5) + (parts > 0 ? "-" + parts : "");
        };
        Map<String, String> user = new TreeMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            user.put("k" + random.nextInt(10), "välue " + random.nextInt(1000));
        }
        Map<String, String> checksums = new TreeMap<>();
        if (random.nextBoolean()) {
            byte[] crc = new byte[4];
            random.nextBytes(crc);
            checksums.put("CRC32C", Base64.getEncoder().encodeToString(crc));
        }
        if (random.nextInt(4) == 0) {
            checksums.put("SHA1", "not base64!");
        }
        byte[] sha = new byte[32];
        random.nextBytes(sha);
        ObjectAttributes attrs = new ObjectAttributes(maybe(random, "image/jpeg"), maybe(random, "no-cache"),
                maybe(random, "inline"), maybe(random, "gzip"), maybe(random, "en"), maybe(random, ""), user,
                random.nextBoolean() ? dev.cairn.store.BucketAcl.PUBLIC_READ : dev.cairn.store.BucketAcl.PRIVATE);
        return new ObjectInfo("key", Hex.encode(sha), random.nextLong() & Long.MAX_VALUE, etag, attrs,
                random.nextLong() & Long.MAX_VALUE, parts, checksums);
    }

    @Test
    void aMetadataNameAtThePortableLimitFitsAColumnName() throws CorruptionException {
        String name = "m".repeat(StoreLimits.PORTABLE.maxMetadataNameBytes() - ObjectRow.USER_METADATA_PREFIX.length());
        ObjectAttributes attrs = new ObjectAttributes(null, null, null, null, null, null, Map.of(name, "v"),
                dev.cairn.store.BucketAcl.PRIVATE);
        ObjectInfo info = new ObjectInfo("key", "00".repeat(32), 1, "etag", attrs, 1, 0, Map.of());
        assertEquals(info, ObjectRow.fromRow("key", ObjectRow.toRow(info)));
    }

    @Test
    void everyObjectSurvivesTheRow() throws CorruptionException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("ObjectRowTest seed " + seed);
        Random random = new Random(seed);
        int binaryEtags = 0;
        for (int i = 0; i < 5000; i++) {
            ObjectInfo info = randomObject(random);
            Row row = ObjectRow.toRow(info);
            assertEquals(info, ObjectRow.fromRow("key", row), "seed " + seed);
            if (row.get("etag").type() == ColumnValue.Type.FIXED) {
                binaryEtags++;
            }
        }
        assertTrue(binaryEtags > 2000, "seed " + seed + ": " + binaryEtags);
    }

    @Test
    void hashesAreBinaryAndNumbersAreIntegers() {
        ObjectInfo info = new ObjectInfo("k", "00".repeat(32), 1234, "0123456789abcdef0123456789abcdef",
                ObjectAttributes.EMPTY, 99, 0, Map.of());
        Row row = ObjectRow.toRow(info);
        assertEquals(ColumnValue.fixed(new byte[32]), row.get("content-sha256"));
        assertEquals(ColumnValue.uint(1234), row.get("content-length"));
        assertEquals(ColumnValue.uint(99), row.get("last-modified"));
        assertEquals(16, row.get("etag").length());
        assertEquals(4, row.size());
    }

    @Test
    void aRowMissingItsHashOrHoldingAStrayColumnIsCorruption() {
        Row base = ObjectRow.toRow(randomObject(new Random(1)));
        Row.Builder noHash = Row.builder();
        base.asMap().forEach((k, v) -> {
            if (!k.equals("content-sha256")) {
                noHash.put(k, v);
            }
        });
        assertThrows(CorruptionException.class, () -> ObjectRow.fromRow("key", noHash.build()));
        Row.Builder stray = Row.builder();
        base.asMap().forEach(stray::put);
        stray.text("colour", "red");
        assertThrows(CorruptionException.class, () -> ObjectRow.fromRow("key", stray.build()));
        Row.Builder wrongType = Row.builder();
        base.asMap().forEach(wrongType::put);
        wrongType.uint("content-type", 3);
        assertThrows(CorruptionException.class, () -> ObjectRow.fromRow("key", wrongType.build()));
    }
}
