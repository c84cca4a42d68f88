package dev.cairn.store.cassandra;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.VersionId;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Version ids of the Cassandra store (docs/cassandra-internals.md, "Versioning"): derived from write ids,
 * ordered newest first, and named by the object cell's trailing version flag.
 */
class VersionRowsTest {
    private static final UUID GEN = new UUID(1, 2);

    private static WriteId wid(long micros, long random) {
        return new WriteId(ByteBuffer.allocate(WriteId.LENGTH).putLong(micros).putLong(random).array());
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    @Test
    void idsComeFromWriteIdsAndSortNewestFirst() {
        WriteId older = wid(1_000_000, 0x0102030405060708L);
        WriteId newer = wid(1_000_001, 0);
        String a = VersionRows.idOf(older);
        String b = VersionRows.idOf(newer);
        assertTrue(b.compareTo(a) < 0, b + " sorts before " + a);
        assertTrue(Arrays.compareUnsigned(VersionRows.sortOf(newer), VersionRows.sortOf(older)) < 0);
        assertArrayEquals(VersionRows.sortOf(older), VersionId.decode(a));
        assertEquals(1_000_000, VersionId.micros(VersionRows.sortOf(older)));
        assertArrayEquals(new byte[] {1, 2, 3, 4}, Arrays.copyOfRange(VersionRows.sortOf(older), 8, 12));
    }

    @Test
    void aCellWithAnIdEndsWithItsAclAndTheFlag() {
        WriteId w = wid(5_000_000, 42);
        ObjectInfo plain = new ObjectInfo("k", "ab".repeat(32), 3, "etag", ObjectAttributes.EMPTY, 5000, 0, Map.of());
        ObjectInfo versioned = plain.withVersionId(VersionRows.idOf(w));
        byte[] without = bytes(RowFormat.encodeObject(w, GEN, plain));
        byte[] with = bytes(RowFormat.encodeObject(w, GEN, versioned));
        assertEquals(without.length + 2, with.length);
        assertArrayEquals(without, Arrays.copyOf(with, without.length));
        assertEquals(BucketAcl.PRIVATE.code(), with[without.length]);
        assertEquals(RowFormat.VERSION_WITH_ID, with[without.length + 1]);
        assertEquals(versioned, RowFormat.decodeObject("k", ByteBuffer.wrap(with)).value());
        assertNull(RowFormat.decodeObject("k", ByteBuffer.wrap(without)).value().versionId());
        // The version null is written without the flag.
        assertArrayEquals(without, bytes(RowFormat.encodeObject(w, GEN, plain.withVersionId(VersionId.NULL))));

        ObjectInfo open = versioned.withAttributes(versioned.attributes().withAcl(BucketAcl.PUBLIC_READ));
        assertEquals(open, RowFormat.decodeObject("k", RowFormat.encodeObject(w, GEN, open)).value());
        byte[] bad = with.clone();
        bad[bad.length - 1] = 7;
        assertThrows(IllegalStateException.class, () -> RowFormat.decodeObject("k", ByteBuffer.wrap(bad)));
    }

    @Test
    void aMarkerRowHoldsItsWriteIdAndTime() {
        WriteId w = wid(7_000_000, 9);
        byte[] row = bytes(VersionRows.encodeMarker(w, 7000, true));
        assertEquals(VersionRows.FORMAT, row[0]);
        assertEquals(VersionRows.FLAG_MARKER | VersionRows.FLAG_NULL_ID, row[1]);
        assertArrayEquals(w.bytes(), Arrays.copyOfRange(row, 2, 18));
        assertEquals(7000, ByteBuffer.wrap(row, 18, 8).getLong());
        byte[] object = bytes(VersionRows.encodeObject(ByteBuffer.wrap(new byte[] {5, 6}), false));
        assertArrayEquals(new byte[] {1, 0, 5, 6}, object);
    }
}
