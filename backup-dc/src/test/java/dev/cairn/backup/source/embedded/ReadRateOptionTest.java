package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ReadRateOptionTest {

    @Test
    void parsesRatesWithBinarySuffixes() {
        assertEquals(0, ReadRateOption.parse("0"));
        assertEquals(1000, ReadRateOption.parse("1000"));
        assertEquals(512L << 10, ReadRateOption.parse("512K"));
        assertEquals(50L << 20, ReadRateOption.parse("50m"));
        assertEquals(2L << 30, ReadRateOption.parse("2G"));
        assertThrows(IllegalArgumentException.class, () -> ReadRateOption.parse("-5M"));
        assertThrows(IllegalArgumentException.class, () -> ReadRateOption.parse("fast"));
    }
}
