package dev.cairn.backup.restore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.run.HashCheckingInputStream;
import dev.cairn.backup.source.SourceTestContent;
import dev.cairn.store.ContentSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PartStreamsTest {
    private static final byte[] BLOB = "0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII);

    /** The blob as the archive serves it: hash-checked, counting opens; {@code stored} may differ from what the row says. */
    private static ContentSource blob(byte[] stored, AtomicInteger opens) {
        String sha = SourceTestContent.sha256(BLOB);
        return new ContentSource() {
            @Override
            public String sha256() {
                return sha;
            }

            @Override
            public long size() {
                return BLOB.length;
            }

            @Override
            public String md5() {
                return null;
            }

            @Override
            public InputStream open() {
                opens.incrementAndGet();
                return new HashCheckingInputStream(new ByteArrayInputStream(stored), sha, BLOB.length, "test blob");
            }
        };
    }

    private static byte[] read(PartStreams streams, long offset, long length) throws IOException {
        try (InputStream in = streams.part(offset, length).newStream()) {
            return in.readAllBytes();
        }
    }

    @Test
    void partsInOrderReadTheBlobOnce() throws IOException {
        AtomicInteger opens = new AtomicInteger();
        try (PartStreams streams = new PartStreams(blob(BLOB, opens))) {
            assertArrayEquals(Arrays.copyOfRange(BLOB, 0, 8), read(streams, 0, 8));
            assertArrayEquals(Arrays.copyOfRange(BLOB, 8, 15), read(streams, 8, 7));
            assertArrayEquals(Arrays.copyOfRange(BLOB, 15, 20), read(streams, 15, 5));
            assertEquals(1, opens.get());
            assertEquals(0, streams.reopened());
        }
    }

    @Test
    void aPartAskedForAgainIsReadAnewAndTheRestFollowsIt() throws IOException {
        AtomicInteger opens = new AtomicInteger();
        try (PartStreams streams = new PartStreams(blob(BLOB, opens))) {
            read(streams, 0, 8);
            try (InputStream half = streams.part(8, 7).newStream()) {
                half.read(new byte[3]);
            }
            assertArrayEquals(Arrays.copyOfRange(BLOB, 8, 15), read(streams, 8, 7));
            assertArrayEquals(Arrays.copyOfRange(BLOB, 15, 20), read(streams, 15, 5));
            assertEquals(2, opens.get());
            assertEquals(1, streams.reopened());
        }
    }

    @Test
    void aDamagedBlobFailsOnItsLastPart() throws IOException {
        byte[] damaged = BLOB.clone();
        damaged[3] ^= 1;
        try (PartStreams streams = new PartStreams(blob(damaged, new AtomicInteger()))) {
            read(streams, 0, 10);
            IOException e = assertThrows(IOException.class, () -> read(streams, 10, 10));
            assertTrue(e.getMessage().contains("test blob"), e.getMessage());
        }
    }
}
