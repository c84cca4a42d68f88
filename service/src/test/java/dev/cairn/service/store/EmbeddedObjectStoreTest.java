package dev.cairn.service.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded store on the real engine, in a temporary directory. */
class EmbeddedObjectStoreTest extends ObjectStoreContractTest {
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
        byte[] big = new byte[EmbeddedObjectStore.CHUNK_BYTES + 5];
        big[7] = 7;
        BytesContent c = BytesContent.of(big);
        store.putObject("kept", "big", ObjectAttributes.EMPTY, c, c.md5(), 0, Map.of(), false);
        UploadInfo u = store.createUpload("kept", "mp", ObjectAttributes.EMPTY);
        engine.flush();
        store.putPart("kept", "mp", u.uploadId(), 1, BytesContent.of("part"));
        engine.close();
        engine = Engine.open(options());
        store = new EmbeddedObjectStore(engine);
        assertEquals(BucketAcl.PUBLIC_READ, store.bucket("kept").acl());
        try (ObjectRead r = store.getObject("kept", "big"); InputStream in = r.open(0, r.size())) {
            assertArrayEquals(big, in.readAllBytes());
        }
        assertEquals(1, store.listParts("kept", "mp", u.uploadId(), 0, 10).size());
        assertEquals(true, store.isContentPublic(c.sha256()));
    }
}
