package dev.cairn.engine.sstable;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class SSTableOptionsTest {

    @Test
    void defaults() {
        SSTableOptions o = SSTableOptions.DEFAULTS;
        assertEquals(SSTableOptions.DEFAULT_BLOCK_BYTES, o.blockBytes());
        assertEquals(SSTableOptions.DEFAULT_BLOOM_BITS_PER_KEY, o.bloomBitsPerKey());
        assertEquals(SSTableOptions.DEFAULT_RESTART_INTERVAL, o.restartInterval());
        assertEquals(4096, o.blockBytes());
        assertEquals(10, o.bloomBitsPerKey());
        assertEquals(16, o.restartInterval());
    }

    @Test
    void roundTripsThroughItsBuilder() {
        SSTableOptions o = SSTableOptions.builder().blockBytes(8192).bloomBitsPerKey(0).restartInterval(4).build();
        assertEquals(o, o.toBuilder().build());
    }

    @Test
    void invalidValuesFailNamingTheOption() {
        assertMessage("blockBytes", () -> SSTableOptions.builder().blockBytes(255).build());
        assertMessage("blockBytes", () -> SSTableOptions.builder().blockBytes((1 << 20) + 1).build());
        assertMessage("bloomBitsPerKey", () -> SSTableOptions.builder().bloomBitsPerKey(-1).build());
        assertMessage("bloomBitsPerKey", () -> SSTableOptions.builder().bloomBitsPerKey(65).build());
        assertMessage("restartInterval", () -> SSTableOptions.builder().restartInterval(0).build());
    }

    private static void assertMessage(String option, Runnable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::run);
        assertTrue(e.getMessage().contains(option), e.getMessage());
    }
}
