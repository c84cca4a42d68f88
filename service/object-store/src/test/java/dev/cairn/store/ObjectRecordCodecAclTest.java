package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.engine.CorruptionException;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The object ACL in the record bytes (docs/format/object-record.md): absent for private, one trailing byte else. */
class ObjectRecordCodecAclTest {
    private static final ObjectInfo PRIVATE = new ObjectInfo("k", "ab".repeat(32), 5, "0123456789abcdef0123456789abcdef",
            new ObjectAttributes("text/plain", null, null, null, null, null, Map.of("a", "b")), 1234, 0, Map.of("CRC32", "AAAAAA=="));

    @Test
    void aPrivateRecordIsTheLayoutWrittenBeforeAcls() throws CorruptionException {
        byte[] bytes = ObjectRecordCodec.encode(PRIVATE);
        // Built field by field as the document lists them, without any ACL.
        byte[] expected = new RowBytes.Writer().u8(1).raw(Hex.decode(PRIVATE.sha256())).varint(5).string(PRIVATE.etag())
                .varint(1234).varint(0).attributes(PRIVATE.attributes()).map(PRIVATE.checksums()).bytes();
        assertArrayEquals(expected, bytes);
        assertEquals(BucketAcl.PRIVATE, ObjectRecordCodec.decode("k", bytes, "t").acl());
    }

    @Test
    void aPublicRecordEndsWithItsAclCode() throws CorruptionException {
        ObjectInfo open = PRIVATE.withAttributes(PRIVATE.attributes().withAcl(BucketAcl.PUBLIC_READ));
        byte[] bytes = ObjectRecordCodec.encode(open);
        byte[] plain = ObjectRecordCodec.encode(PRIVATE);
        assertEquals(plain.length + 1, bytes.length);
        assertArrayEquals(plain, Arrays.copyOf(bytes, plain.length));
        assertEquals(1, bytes[bytes.length - 1]);
        assertEquals(open, ObjectRecordCodec.decode("k", bytes, "t"));
    }

    @Test
    void anUnknownAclCodeOrMoreTrailingBytesAreCorrupt() {
        byte[] plain = ObjectRecordCodec.encode(PRIVATE);
        byte[] unknown = Arrays.copyOf(plain, plain.length + 1);
        unknown[plain.length] = 7;
        assertThrows(CorruptionException.class, () -> ObjectRecordCodec.decode("k", unknown, "t"));
        byte[] zero = Arrays.copyOf(plain, plain.length + 1);
        assertThrows(CorruptionException.class, () -> ObjectRecordCodec.decode("k", zero, "t"));
        byte[] two = Arrays.copyOf(plain, plain.length + 2);
        two[plain.length] = 1;
        assertThrows(CorruptionException.class, () -> ObjectRecordCodec.decode("k", two, "t"));
    }
}
