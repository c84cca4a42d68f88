package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The embedded store on the real engine over an in-memory file system, counting the rows it leaves. */
class EmbeddedObjectStoreOnMemFileSystemTest extends ObjectStoreContractTest {
    private EngineProcess engine;

    @Override
    protected ObjectStore open() throws IOException {
        engine = new EngineProcess();
        return new EmbeddedObjectStore(engine.engine());
    }

    @Override
    protected ObjectStore reopenedWith(Clock clock) throws IOException {
        store.close();
        return new EmbeddedObjectStore(engine.engine(), clock);
    }

    @AfterEach
    void closeEngine() throws IOException {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void bucketsSurvivePowerLoss() throws IOException {
        store.createBucket("kept", dev.cairn.store.BucketAcl.PUBLIC_READ);
        EmbeddedObjectStore again = new EmbeddedObjectStore(engine.restart());
        assertEquals(BucketAcl.PUBLIC_READ, again.bucket("kept").acl());
    }

    @Test
    void deletingEverythingLeavesNoRows() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        byte[] big = new byte[EmbeddedObjectStore.CHUNK_BYTES * 3];
        BytesContent c = BytesContent.of(big);
        store.putObject(PutRequest.of("b", "big", c, c.md5()));
        store.putObject(PutRequest.of("b", "small", BytesContent.of("s"), "x"));
        UploadInfo u = store.createUpload("b", "mp", ObjectAttributes.EMPTY);
        store.putPart("b", "mp", u.uploadId(), 1, BytesContent.of("p"));
        UploadInfo done = store.createUpload("b", "done", ObjectAttributes.EMPTY);
        PartInfo part = store.putPart("b", "done", done.uploadId(), 1, BytesContent.of("whole"));
        store.completeUpload(CompleteRequest.of("b", "done", done.uploadId(),
                List.of(new CompletedPart(1, part.etag())), 0));
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

    @Test
    void conditionalOverwritesCheckTheCurrentEtag() throws IOException {
        store.createBucket("c", BucketAcl.PRIVATE);
        BytesContent v1 = BytesContent.of("one");
        BytesContent v2 = BytesContent.of(new byte[EmbeddedObjectStore.CHUNK_BYTES + 1]);
        StoreException absent = org.junit.jupiter.api.Assertions.assertThrows(StoreException.class, () ->
                store.putObject(PutRequest.of("c", "k", v1, v1.md5()).withIfMatch("*")));
        assertEquals(StoreException.Reason.NO_SUCH_KEY, absent.reason());
        store.putObject(PutRequest.of("c", "k", v1, v1.md5()));
        StoreException stale = org.junit.jupiter.api.Assertions.assertThrows(StoreException.class, () ->
                store.putObject(PutRequest.of("c", "k", v2, v2.md5()).withIfMatch("other")));
        assertEquals(StoreException.Reason.PRECONDITION_FAILED, stale.reason());
        assertEquals(v1.sha256(), store.headObject("c", "k").sha256());
        assertEquals(1, engine.size("refs"), "the refused large write released its content");
        store.putObject(PutRequest.of("c", "k", v2, v2.md5()).withIfMatch(v1.md5()));
        assertEquals(v2.sha256(), store.headObject("c", "k").sha256());
    }

    @Test
    void partSizesAreThoseOfTheCurrentMultipartVersion() throws IOException {
        store.createBucket("p", BucketAcl.PRIVATE);
        UploadInfo u = store.createUpload("p", "k", ObjectAttributes.EMPTY);
        PartInfo a = store.putPart("p", "k", u.uploadId(), 1, BytesContent.of("aaaa"));
        PartInfo b = store.putPart("p", "k", u.uploadId(), 2, BytesContent.of("bb"));
        ObjectInfo done = store.completeUpload(CompleteRequest.of("p", "k", u.uploadId(),
                List.of(new CompletedPart(1, a.etag()), new CompletedPart(2, b.etag())), 0));
        org.junit.jupiter.api.Assertions.assertArrayEquals(new long[] {4, 2}, store.partSizes("p", "k", done));
        ObjectInfo plain = store.putObject(PutRequest.of("p", "k", BytesContent.of("x"), "x"));
        org.junit.jupiter.api.Assertions.assertNull(store.partSizes("p", "k", plain));
        org.junit.jupiter.api.Assertions.assertNull(store.partSizes("p", "k", done), "an old version read earlier");
        assertEquals(0, engine.size("layouts"));
    }
}
