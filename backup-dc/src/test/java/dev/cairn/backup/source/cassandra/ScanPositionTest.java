package dev.cairn.backup.source.cassandra;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.cassandra.CassandraScanner;
import org.junit.jupiter.api.Test;

class ScanPositionTest {

    @Test
    void aPositionInObjectsKeepsItsFormerForm() {
        byte[] key = CassandraScanner.compositeKey("b", "k");
        ScanPosition p = new ScanPosition(-42, key);
        assertEquals("-42:0001620000016b00", p.encode());
        ScanPosition back = ScanPosition.parse(p.encode());
        assertEquals(-42, back.token());
        assertArrayEquals(key, back.compositeKey());
        assertNull(back.sort());
        assertFalse(back.inVersions());
    }

    @Test
    void aPositionInVersionsNamesTheVersionsPlace() {
        byte[] key = CassandraScanner.compositeKey("bucket", "ünï/key");
        byte[] sort = {(byte) 0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, (byte) 0xff};
        ScanPosition p = new ScanPosition(Long.MIN_VALUE + 1, key, sort);
        assertTrue(p.encode().startsWith("v-9223372036854775807:"), p.encode());
        ScanPosition back = ScanPosition.parse(p.encode());
        assertTrue(back.inVersions());
        assertEquals(Long.MIN_VALUE + 1, back.token());
        assertArrayEquals(key, back.compositeKey());
        assertArrayEquals(sort, back.sort());
    }

    @Test
    void malformedPositionsAreRefused() {
        for (String bad : new String[] {"", "v", "12", "x:00", "v12:00", "v12:00:", "v:00:01", "12:0g"}) {
            assertThrows(IllegalArgumentException.class, () -> ScanPosition.parse(bad), bad);
        }
    }
}
