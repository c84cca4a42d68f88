package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoredCopyTest {

    @Test
    void compositeChecksumsEndInAPartCount() {
        assertTrue(StoredCopy.isComposite("AAAAAA==-3"));
        assertTrue(StoredCopy.isComposite("abc-10000"));
        assertFalse(StoredCopy.isComposite("AAAAAA=="));
        assertFalse(StoredCopy.isComposite("abc-"), "no count after the dash");
        assertFalse(StoredCopy.isComposite("-3"), "nothing before the dash");
        assertFalse(StoredCopy.isComposite("ab-c3"));
        assertFalse(StoredCopy.isComposite("ab-3x"));
    }

    @Test
    void aCopyKeepsOnlyFullObjectChecksums() {
        ObjectInfo src = new ObjectInfo("k", "00", 5, "etag-2", ObjectAttributes.EMPTY, 0, 2,
                Map.of("CRC32", "AAAAAA==-2", "CRC64NVME", "AAAAAAAAAAA=", "SHA256", "x-2"));
        assertEquals(Map.of("CRC64NVME", "AAAAAAAAAAA="), StoredCopy.fullObjectChecksums(src));
    }

    @Test
    void theContentIsTheStoredOneByDigest() throws Exception {
        InMemoryObjectStore store = new InMemoryObjectStore();
        store.createBucket("b", BucketAcl.PRIVATE);
        BytesContent bytes = BytesContent.of("hello, copy");
        ObjectInfo src = store.putObject(PutRequest.of("b", "k", bytes, bytes.md5()));

        ContentSource content = StoredCopy.content(store, src);
        assertEquals(src.sha256(), content.sha256());
        assertEquals(src.size(), content.size());
        assertEquals(src.etag(), content.md5(), "a one-part object's ETag is its MD5");
        try (InputStream in = content.open()) {
            assertArrayEquals(bytes.bytes(), in.readAllBytes());
        }
        ObjectInfo multipart = new ObjectInfo("m", src.sha256(), src.size(), "abc-2", ObjectAttributes.EMPTY, 0, 2, Map.of());
        assertNull(StoredCopy.content(store, multipart).md5(), "a multipart ETag is not the MD5 of the bytes");
    }

    @Test
    void contentReclaimedUnderTheCopyIsContentGone() {
        InMemoryObjectStore store = new InMemoryObjectStore();
        ObjectInfo gone = new ObjectInfo("k", "ab".repeat(32), 3, "e", ObjectAttributes.EMPTY, 0, 0, Map.of());
        StoreException e = assertThrows(StoreException.class, () -> StoredCopy.content(store, gone).open());
        assertEquals(StoreException.Reason.CONTENT_GONE, e.reason());
    }
}
