package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.Row;
import dev.cairn.engine.Table;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded store on the real engine, in a temporary directory. */
class EmbeddedObjectStoreTest extends ObjectStoreContractTest {
    /** The first byte of a typed catalogued engine row (docs/format/row.md); the engine's row codec is not exported. */
    private static final byte TYPED_CATALOGUED_ROW = 0x03;

    @TempDir
    Path dir;
    private Engine engine;

    @Override
    protected ObjectStore open() throws IOException {
        engine = Engine.open(options());
        return new EmbeddedObjectStore(engine);
    }

    private EngineOptions options() {
        return EngineOptions.builder(dir.resolve("engine")).memtableBytes(4L << 20).build();
    }

    @AfterEach
    void closeEngine() throws IOException {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void everythingSurvivesReopeningTheEngine() throws IOException {
        store.createBucket("kept", BucketAcl.PUBLIC_READ);
        store.setBucketDocument(BucketDocument.of("kept", BucketDocument.CORS, "<CORSConfiguration/>"));
        store.createBucket("versioned", BucketAcl.PRIVATE);
        store.setBucketVersioning("versioned", Versioning.ENABLED);
        store.setBucketDocument(BucketDocument.of("versioned", BucketDocument.CORS, "<a/>"));
        byte[] big = new byte[EmbeddedObjectStore.CHUNK_BYTES + 5];
        big[7] = 7;
        BytesContent c = BytesContent.of(big);
        store.putObject(PutRequest.of("kept", "big", c, c.md5()));
        UploadInfo u = store.createUpload("kept", "mp", ObjectAttributes.EMPTY);
        engine.flush();
        store.putPart("kept", "mp", u.uploadId(), 1, BytesContent.of("part"));
        engine.close();
        engine = Engine.open(options());
        store = new EmbeddedObjectStore(engine);
        assertEquals(BucketAcl.PUBLIC_READ, store.bucket("kept").acl());
        assertEquals(Map.of(BucketDocument.CORS, "<CORSConfiguration/>"), store.bucket("kept").documents());
        assertEquals(Versioning.UNVERSIONED, store.bucket("kept").versioning());
        assertEquals(new BucketInfo("versioned", store.bucket("versioned").createdMillis(), BucketAcl.PRIVATE,
                Versioning.ENABLED, Map.of(BucketDocument.CORS, "<a/>")), store.bucket("versioned"));
        try (ObjectRead r = store.getObject("kept", "big"); InputStream in = r.open(0, r.size())) {
            assertArrayEquals(big, in.readAllBytes());
        }
        assertEquals(1, store.listParts("kept", "mp", u.uploadId(), 0, 10).size());
        assertEquals(true, store.isContentPublic(c.sha256()));
    }

    private static byte[] objectKey(String bucket, String key) {
        byte[] b = bucket.getBytes(StandardCharsets.UTF_8);
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[b.length + 1 + k.length];
        System.arraycopy(b, 0, out, 0, b.length);
        System.arraycopy(k, 0, out, b.length + 1, k.length);
        return out;
    }

    @Test
    void objectMetadataIsACataloguedEngineRow() throws IOException {
        store.createBucket("rows", BucketAcl.PRIVATE);
        ObjectAttributes attrs = new ObjectAttributes("image/png", "max-age=60", null, "gzip", null, null,
                Map.of("camera", "Pixel 8"));
        BytesContent c = BytesContent.of("pixels");
        ObjectInfo put = store.putObject(PutRequest.of("rows", "a.png", c, c.md5()).withAttributes(attrs)
                .withChecksums(Map.of("CRC32", "AAAAAA==")));
        Table objects = engine.table("objects");
        byte[] stored = objects.get(objectKey("rows", "a.png"));
        assertEquals(TYPED_CATALOGUED_ROW, stored[0]);
        Row row = objects.getRow(objectKey("rows", "a.png"));
        assertEquals(c.sha256(), Hex.encode(row.get("content-sha256").bytes()));
        assertEquals(6, row.get("content-length").asLong());
        assertEquals(16, row.get("etag").length());
        assertEquals("image/png", row.get("content-type").asText());
        assertEquals("Pixel 8", row.get("x-amz-meta-camera").asText());
        assertEquals(4, row.get("x-amz-checksum-crc32").length());
        engine.close();
        engine = Engine.open(options());
        store = new EmbeddedObjectStore(engine);
        assertEquals(put, store.headObject("rows", "a.png"));
        assertEquals(put, store.listObjects("rows", new ListQuery("", null, null, 10)).objects().get(0));
    }

    @Test
    void anObjectWrittenInTheServicesOwnLayoutStaysReadable() throws IOException {
        store.createBucket("old", BucketAcl.PRIVATE);
        ObjectInfo info = new ObjectInfo("k", "ab".repeat(32), 5, "0123456789abcdef0123456789abcdef-2",
                new ObjectAttributes("text/plain", null, null, null, "en", null, Map.of("a", "b")), 1_700_000_000_000L,
                2, Map.of("SHA1", "x"));
        engine.table("objects").put(objectKey("old", "k"), dev.cairn.store.ObjectRecordCodec.encode(info));
        ObjectInfo read = store.headObject("old", "k");
        assertNotNull(read);
        assertEquals(info, read);
    }

    @Override
    protected ObjectStore reopenedWith(Clock clock) throws IOException {
        store.close();
        return new EmbeddedObjectStore(engine, clock);
    }
}
