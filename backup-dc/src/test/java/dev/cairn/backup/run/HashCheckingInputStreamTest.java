package dev.cairn.backup.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.Hex;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.MessageDigest;
import org.junit.jupiter.api.Test;

class HashCheckingInputStreamTest {
    private static final byte[] CONTENT = "twenty bytes of data".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private static String sha(byte[] b) throws Exception {
        return Hex.encode(MessageDigest.getInstance("SHA-256").digest(b));
    }

    private static HashCheckingInputStream over(byte[] bytes, long size) throws Exception {
        return new HashCheckingInputStream(new ByteArrayInputStream(bytes), sha(CONTENT), size, "test");
    }

    @Test
    void readerThatStopsAtTheSizeIsCheckedToo() throws Exception {
        byte[] flipped = CONTENT.clone();
        flipped[3] ^= 1;
        IOException e = assertThrows(IOException.class, () -> over(flipped, CONTENT.length).readNBytes(CONTENT.length));
        assertTrue(e.getMessage().contains("hashes to"), e.getMessage());
        assertArrayEquals(CONTENT, over(CONTENT, CONTENT.length).readNBytes(CONTENT.length));
    }

    @Test
    void shortAndLongStreamsFail() throws Exception {
        byte[] shorter = java.util.Arrays.copyOf(CONTENT, CONTENT.length - 1);
        assertThrows(IOException.class, () -> over(shorter, CONTENT.length).readAllBytes());
        byte[] longer = java.util.Arrays.copyOf(CONTENT, CONTENT.length + 1);
        assertThrows(IOException.class, () -> over(longer, CONTENT.length).readAllBytes());
        assertArrayEquals(CONTENT, over(CONTENT, CONTENT.length).readAllBytes());
    }
}
