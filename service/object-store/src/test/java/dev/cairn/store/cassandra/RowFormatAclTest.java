package dev.cairn.store.cassandra;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The object ACL in the Cassandra cell (docs/format/object-record.md): absent for private, one trailing byte else. */
class RowFormatAclTest {
    private static final WriteId WID = new WriteId(new byte[WriteId.LENGTH]);
    private static final UUID GEN = new UUID(1, 2);
    private static final ObjectInfo PRIVATE = new ObjectInfo("k", "cd".repeat(32), 9, "etag",
            new ObjectAttributes(null, "no-cache", null, null, null, null, Map.of("x", "y")), 77, 0, Map.of());

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    @Test
    void privateCellsKeepTheOldLayoutAndPublicOnesAddOneByte() {
        byte[] plain = bytes(RowFormat.encodeObject(WID, GEN, PRIVATE));
        ObjectInfo open = PRIVATE.withAttributes(PRIVATE.attributes().withAcl(BucketAcl.PUBLIC_READ));
        byte[] withAcl = bytes(RowFormat.encodeObject(WID, GEN, open));
        assertEquals(plain.length + 1, withAcl.length);
        assertArrayEquals(plain, Arrays.copyOf(withAcl, plain.length));
        assertEquals(1, withAcl[plain.length]);
        assertEquals(PRIVATE, RowFormat.decodeObject("k", ByteBuffer.wrap(plain)).value());
        assertEquals(open, RowFormat.decodeObject("k", ByteBuffer.wrap(withAcl)).value());
    }

    @Test
    void anUnknownAclCodeIsRefused() {
        byte[] plain = bytes(RowFormat.encodeObject(WID, GEN, PRIVATE));
        byte[] bad = Arrays.copyOf(plain, plain.length + 1);
        bad[plain.length] = 9;
        assertThrows(IllegalStateException.class, () -> RowFormat.decodeObject("k", ByteBuffer.wrap(bad)));
    }
}
