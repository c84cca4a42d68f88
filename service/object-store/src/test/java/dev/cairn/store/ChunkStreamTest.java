package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChunkStreamTest {
    private static final int CHUNK = 7;

    private static byte[] content(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    private static ChunkStream stream(byte[] content, long start, long end, List<Integer> fetched) {
        return new ChunkStream(CHUNK, start, end, index -> {
            fetched.add(index);
            return Arrays.copyOfRange(content, index * CHUNK, Math.min(content.length, (index + 1) * CHUNK));
        });
    }

    @Test
    void everyRangeReadsBackExactlyFetchingEachChunkOnce() throws IOException {
        byte[] content = content(50);
        for (int start = 0; start <= content.length; start++) {
            for (int end = start; end <= content.length; end++) {
                List<Integer> fetched = new ArrayList<>();
                try (InputStream in = stream(content, start, end, fetched)) {
                    assertArrayEquals(Arrays.copyOfRange(content, start, end), in.readAllBytes(), start + ".." + end);
                }
                assertEquals(fetched.stream().distinct().count(), fetched.size(), "a chunk fetched twice");
            }
        }
    }

    @Test
    void aShortChunkIsAnErrorNotALoop() {
        ChunkStream in = new ChunkStream(CHUNK, 0, 20, index -> new byte[2]);
        assertThrows(IOException.class, in::readAllBytes);
    }
}
