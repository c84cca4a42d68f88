package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hot object cache keeps the store's contract, over the in-memory store. */
class CachingObjectStoreTest extends ObjectStoreContractTest {
    @Override
    protected ObjectStore open() {
        return new CachingObjectStore(new InMemoryObjectStore(), 1 << 20, 64 << 10);
    }

    private byte[] read(String key) throws IOException {
        try (ObjectRead r = store.getObject("b", key)) {
            if (r == null) {
                return null;
            }
            try (InputStream in = r.open(0, r.size())) {
                return in.readAllBytes();
            }
        }
    }

    @Test
    void writesAndDeletesAreSeenThroughTheCache() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        BytesContent one = BytesContent.of("one");
        BytesContent two = BytesContent.of("two");
        store.putObject("b", "k", ObjectAttributes.EMPTY, one, one.md5(), 0, Map.of(), false);
        assertArrayEquals(one.bytes(), read("k"));
        assertArrayEquals(one.bytes(), read("k"));
        assertEquals(1, ((CachingObjectStore) store).cacheStats().hitCount());
        store.putObject("b", "k", ObjectAttributes.EMPTY, two, two.md5(), 0, Map.of(), false);
        assertArrayEquals(two.bytes(), read("k"));
        assertEquals(two.sha256(), store.headObject("b", "k").sha256());
        store.deleteObject("b", "k");
        assertNull(read("k"));
        assertNull(store.headObject("b", "k"));
    }
}
