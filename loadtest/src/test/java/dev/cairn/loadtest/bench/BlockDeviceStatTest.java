package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BlockDeviceStatTest {

    @Test
    void parsesReadsAndSectorsReadAndWrittenFromAStatLine() {
        BlockDeviceStat stat = BlockDeviceStat.parse(
                "  165323     4508 12345678   68810  1929842  2108371 95037912  3201520        0  1290500  3378140"
                        + "        0        0        0        0   168230    108010\n");
        assertEquals(165323, stat.reads());
        assertEquals(12345678, stat.sectorsRead());
        assertEquals(12345678L * 512, stat.bytesRead());
        assertEquals(95037912, stat.sectorsWritten());
        assertEquals(95037912L * 512, stat.bytesWritten());
    }

    @Test
    void differenceIsWhatHappenedBetween() {
        BlockDeviceStat before = BlockDeviceStat.parse("10 0 80 0 4 0 64 0 0 0 0");
        BlockDeviceStat after = BlockDeviceStat.parse("25 3 200 0 9 1 100 0 0 0 0");
        assertEquals(new BlockDeviceStat(15, 120, 36), after.minus(before));
    }

    @Test
    void refusesWhatIsNotAStatLine() {
        assertThrows(IllegalArgumentException.class, () -> BlockDeviceStat.parse("12 3 4 5 6 7"));
        assertThrows(NumberFormatException.class, () -> BlockDeviceStat.parse("a b c d e f g"));
    }

    @Test
    void splitsDeviceNumbersAsGlibcDoes() {
        long vda = (254L << 8) | 0;  // 254:0, the old 16-bit encoding
        assertEquals(254, BlockDeviceStat.major(vda));
        assertEquals(0, BlockDeviceStat.minor(vda));
        long nvme = (259L << 8) | 3;
        assertEquals(259, BlockDeviceStat.major(nvme));
        assertEquals(3, BlockDeviceStat.minor(nvme));
        // Minor 300 and major 5000 need the high bits of the 64-bit encoding.
        long large = ((5000L & 0xfff) << 8) | ((5000L & ~0xfffL) << 32) | (300 & 0xff) | ((300L & ~0xffL) << 12);
        assertEquals(5000, BlockDeviceStat.major(large));
        assertEquals(300, BlockDeviceStat.minor(large));
    }
}
