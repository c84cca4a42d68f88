package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

class ImageWorkloadTest {

    private static final long SEED = 7;
    private static final Pattern KEY_SHAPE = Pattern.compile("img/\\d{5}/[a-z2-7]{26}\\.jpg");

    private final ImageWorkload workload = new ImageWorkload(SEED, ImageSizeDistribution.images());

    @Test
    void keysAreImagePathsOfFortyBytes() {
        for (long i : new long[] {0, 1, 1599, 1600, 99_999, 1_000_000}) {
            String key = new String(workload.key(i), StandardCharsets.US_ASCII);
            assertEquals(ImageWorkload.KEY_BYTES, key.length(), key);
            assertTrue(KEY_SHAPE.matcher(key).matches(), key);
            assertEquals(i / ImageWorkload.OBJECTS_PER_DIRECTORY, Long.parseLong(key.substring(4, 9)), key);
        }
        assertThrows(IllegalArgumentException.class, () -> workload.key(-1));
    }

    @Test
    void keysAreDistinct() {
        Set<String> keys = new HashSet<>();
        for (long i = 0; i < 100_000; i++) {
            assertTrue(keys.add(new String(workload.key(i), StandardCharsets.US_ASCII)), "duplicate key at " + i);
        }
    }

    @Test
    void everythingIsDeterministicFromTheSeed() {
        ImageWorkload again = new ImageWorkload(SEED, ImageSizeDistribution.images());
        ImageWorkload other = new ImageWorkload(SEED + 1, ImageSizeDistribution.images());
        for (long i = 0; i < 50; i++) {
            assertArrayEquals(workload.key(i), again.key(i));
            assertArrayEquals(workload.value(i, 0), again.value(i, 0));
            assertArrayEquals(workload.value(i, 1), again.value(i, 1));
            assertFalse(Arrays.equals(workload.key(i), other.key(i)));
            assertFalse(Arrays.equals(workload.value(i, 0), other.value(i, 0)));
            assertFalse(Arrays.equals(workload.value(i, 0), workload.value(i, 1)));
        }
    }

    @Test
    void valuesHaveTheirDrawnSizeAndDoNotCompress() {
        long total = 0;
        long compressed = 0;
        byte[] buffer = new byte[(1 << 20) + 1024];
        for (long i = 0; i < 20; i++) {
            byte[] value = workload.value(i, 0);
            assertEquals(workload.valueSize(i, 0), value.length);
            Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
            deflater.setInput(value);
            deflater.finish();
            compressed += deflater.deflate(buffer);
            deflater.end();
            total += value.length;
        }
        assertTrue(compressed > total * 0.99, "compressed " + compressed + " of " + total);
    }

    @Test
    void looksLikeRecognisesTheRightVersionOnly() {
        byte[] value = workload.value(3, 1);
        assertTrue(workload.looksLike(value, 3, 1));
        assertFalse(workload.looksLike(workload.value(3, 0), 3, 1));
        assertFalse(workload.looksLike(workload.value(4, 1), 3, 1));
        assertFalse(workload.looksLike(null, 3, 1));
        value[0] ^= 1;
        assertFalse(workload.looksLike(value, 3, 1));
    }

    @Test
    void looksLikeHandlesValuesShorterThanEightBytes() {
        ImageWorkload tiny = new ImageWorkload(SEED, new ImageSizeDistribution(3, 5, 2, 6));
        byte[] value = tiny.value(1, 0);
        assertTrue(value.length < 8);
        assertTrue(tiny.looksLike(value, 1, 0));
        value[value.length - 1] ^= 1;
        assertFalse(tiny.looksLike(value, 1, 0));
    }
}
