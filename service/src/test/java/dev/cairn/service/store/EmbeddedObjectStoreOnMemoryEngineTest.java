package dev.cairn.service.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The embedded store's logic over the engine's contract held in memory. */
class EmbeddedObjectStoreOnMemoryEngineTest extends ObjectStoreContractTest {
    private MemoryEngine engine;

    @Override
    protected ObjectStore open() throws IOException {
        engine = new MemoryEngine();
        return new EmbeddedObjectStore(engine);
    }

    @Test
    void bucketsSurviveReopening() throws IOException {
        store.createBucket("kept", dev.cairn.service.store.BucketAcl.PUBLIC_READ);
        EmbeddedObjectStore again = new EmbeddedObjectStore(engine);
        assertEquals(BucketAcl.PUBLIC_READ, again.bucket("kept").acl());
    }

    @Test
    void deletingEverythingLeavesNoRows() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        byte[] big = new byte[EmbeddedObjectStore.CHUNK_BYTES * 3];
        BytesContent c = BytesContent.of(big);
        store.putObject("b", "big", ObjectAttributes.EMPTY, c, c.md5(), 0, Map.of(), false);
        store.putObject("b", "small", ObjectAttributes.EMPTY, BytesContent.of("s"), "x", 0, Map.of(), false);
        UploadInfo u = store.createUpload("b", "mp", ObjectAttributes.EMPTY);
        store.putPart("b", "mp", u.uploadId(), 1, BytesContent.of("p"));
        UploadInfo done = store.createUpload("b", "done", ObjectAttributes.EMPTY);
        PartInfo part = store.putPart("b", "done", done.uploadId(), 1, BytesContent.of("whole"));
        store.completeUpload("b", "done", done.uploadId(), List.of(new CompletedPart(1, part.etag())), 0);
        assertEquals(1, engine.size("layouts"));
        store.deleteObject("b", "done");
        store.deleteObject("b", "big");
        store.deleteObject("b", "small");
        store.deleteBucket("b");
        for (String table : new String[] {"buckets", "objects", "blobs", "chunks", "refs", "uploads", "parts",
                "intents", "layouts"}) {
            assertEquals(0, engine.size(table), table);
        }
    }
}
