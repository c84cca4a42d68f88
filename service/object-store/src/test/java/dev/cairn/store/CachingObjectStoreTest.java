package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
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
        store.putObject(PutRequest.of("b", "k", one, one.md5()));
        assertArrayEquals(one.bytes(), read("k"));
        assertArrayEquals(one.bytes(), read("k"));
        assertEquals(1, ((CachingObjectStore) store).cacheStats().hitCount());
        store.putObject(PutRequest.of("b", "k", two, two.md5()));
        assertArrayEquals(two.bytes(), read("k"));
        assertEquals(two.sha256(), store.headObject("b", "k").sha256());
        store.deleteObject("b", "k");
        assertNull(read("k"));
        assertNull(store.headObject("b", "k"));
    }

    @Test
    void inMemoryReadsAreCacheHitsOnlyAndNeverStale() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        BytesContent one = BytesContent.of("one");
        store.putObject(PutRequest.of("b", "k", one, one.md5()));
        assertNull(store.getObjectIfInMemory("b", "k"), "not read yet: nothing in memory");
        assertArrayEquals(one.bytes(), read("k"));
        try (ObjectRead hit = store.getObjectIfInMemory("b", "k")) {
            assertEquals(one.sha256(), hit.info().sha256());
            assertEquals(BucketAcl.PRIVATE, hit.info().acl());
        }

        store.setObjectAcl("b", "k", BucketAcl.PUBLIC_READ);
        assertNull(store.getObjectIfInMemory("b", "k"), "an ACL change drops the cached row");
        read("k");
        assertEquals(BucketAcl.PUBLIC_READ, store.getObjectIfInMemory("b", "k").info().acl());

        BytesContent two = BytesContent.of("two");
        store.putObject(PutRequest.of("b", "k", two, two.md5()));
        assertNull(store.getObjectIfInMemory("b", "k"), "an overwrite drops the cached object");
        read("k");
        assertEquals(two.sha256(), store.getObjectIfInMemory("b", "k").info().sha256());

        store.deleteObject("b", "k");
        assertNull(store.getObjectIfInMemory("b", "k"));
        read("k");
        assertNull(store.getObjectIfInMemory("b", "k"), "absence is not cached");
    }

    @Test
    void objectsTooLargeToCacheAreNeverInMemory() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        BytesContent big = BytesContent.of(new byte[(64 << 10) + 1]);
        store.putObject(PutRequest.of("b", "big", big, big.md5()));
        read("big");
        assertNull(store.getObjectIfInMemory("b", "big"));
    }

    @Test
    void hitsAreServedFromOffHeapBytesWithinTheCapacity() throws IOException {
        store.createBucket("b", BucketAcl.PRIVATE);
        byte[] bytes = new byte[40 << 10];
        new java.util.Random(3).nextBytes(bytes);
        BytesContent content = BytesContent.of(bytes);
        for (int i = 0; i < 40; i++) {
            store.putObject(PutRequest.of("b", "k" + i, content, content.md5()));
            assertArrayEquals(bytes, read("k" + i));
            assertTrue(((CachingObjectStore) store).offHeapBytes() <= 1 << 20, "off-heap bytes past the capacity");
        }
        assertArrayEquals(bytes, read("k39"));
        try (ObjectRead hit = store.getObjectIfInMemory("b", "k39")) {
            java.nio.ByteBuffer range = hit.inMemory(100, 1000);
            assertTrue(range.isReadOnly());
            assertEquals(1000, range.remaining());
            assertEquals(java.nio.ByteBuffer.wrap(bytes, 100, 1000), range);
            try (InputStream in = hit.open(40_000, 960)) {
                assertArrayEquals(java.util.Arrays.copyOfRange(bytes, 40_000, 40_960), in.readAllBytes());
            }
        }
    }

    @Test
    void offHeapCopiesCountUntilFreedAndPastTheBudgetThereAreNone() throws InterruptedException {
        DirectCopies copies = new DirectCopies(100);
        java.nio.ByteBuffer first = copies.copyOf(new byte[60]);
        assertTrue(first.isDirect() && first.isReadOnly());
        assertNull(copies.copyOf(new byte[60]), "past the budget");
        java.nio.ByteBuffer view = first.slice(10, 20);
        first = null;
        System.gc();
        assertEquals(60, copies.liveBytes(), "a view still holds it");
        assertEquals(20, view.remaining());
        view = null;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (copies.liveBytes() != 0) {
            assertTrue(System.nanoTime() < deadline, "a copy nothing holds is never counted as freed");
            System.gc();
            Thread.sleep(10);
        }
        assertTrue(copies.copyOf(new byte[60]).isDirect());
    }

    @Test
    void aStoreWithoutACacheHoldsNothingInMemory() throws IOException {
        ObjectStore plain = new InMemoryObjectStore();
        plain.createBucket("b", BucketAcl.PRIVATE);
        BytesContent one = BytesContent.of("one");
        plain.putObject(PutRequest.of("b", "k", one, one.md5()));
        plain.getObject("b", "k").close();
        assertNull(plain.getObjectIfInMemory("b", "k"));
    }
}
