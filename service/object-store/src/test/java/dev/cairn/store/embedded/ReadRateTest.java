package dev.cairn.store.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class ReadRateTest {

    @Test
    void aThrottledStreamDeliversEveryByteAndCannotOutrunItsRate() throws Exception {
        ReadRate rate = new ReadRate(1 << 20);
        byte[] data = new byte[3 << 20];
        long start = System.nanoTime();
        try (InputStream in = rate.throttle(new ByteArrayInputStream(data))) {
            assertEquals(data.length, in.readAllBytes().length);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // 3 MiB at 1 MiB/s with at most one second of burst: never under 2 s.
        assertTrue(seconds >= 1.9, "read 3 MiB in " + seconds + " s at 1 MiB/s");
    }
}
