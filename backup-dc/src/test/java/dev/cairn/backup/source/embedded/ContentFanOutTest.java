package dev.cairn.backup.source.embedded;

import dev.cairn.store.embedded.ScanPriority;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.source.BackupSource;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The hand-over from a reading thread to the hashing threads: a source that reads spans ahead
 * (asks for up to three buffers before it passes the first one's contents) and one that passes
 * contents in a buffer of its own both reach the sink whole, buffers being reused; a failure of
 * the reading or of the sink ends the run with its error; an interrupt ends it.
 */
class ContentFanOutTest {
    private static final int CONTENTS_PER_SPAN = 7;

    private static byte[] content(int i) {
        Random r = new Random(i);
        byte[] b = new byte[1 + r.nextInt(200_000)];
        r.nextBytes(b);
        return b;
    }

    /** Reads {@code spans} spans, up to {@code ahead} of them before the first is passed, then one content in a buffer of its own per span. */
    private static ContentFanOut.Scan readingAhead(int spans, int ahead) {
        return sink -> {
            ArrayDeque<Object[]> open = new ArrayDeque<>();
            byte[] own = new byte[ContentFanOut.BATCH_BYTES];
            int next = 0;
            while (next < spans || !open.isEmpty()) {
                while (next < spans && open.size() <= ahead) {
                    int first = next * CONTENTS_PER_SPAN;
                    int length = 0;
                    for (int i = 0; i < CONTENTS_PER_SPAN; i++) {
                        length += content(first + i).length;
                    }
                    byte[] buffer = sink.spanBuffer(length);
                    assertNotNull(buffer);
                    int at = 0;
                    for (int i = 0; i < CONTENTS_PER_SPAN; i++) {
                        byte[] c = content(first + i);
                        System.arraycopy(c, 0, buffer, at, c.length);
                        at += c.length;
                    }
                    open.addLast(new Object[] {buffer, first, next});
                    next++;
                }
                Object[] span = open.pollFirst();
                byte[] buffer = (byte[]) span[0];
                int first = (int) span[1];
                int at = 0;
                for (int i = 0; i < CONTENTS_PER_SPAN; i++) {
                    int len = content(first + i).length;
                    sink.accept("c" + (first + i), buffer, at, len);
                    at += len;
                }
                sink.spanVisited();
                byte[] alone = content(1_000_000 + (int) span[2]);
                System.arraycopy(alone, 0, own, 0, alone.length);
                sink.accept("own" + span[2], own, 0, alone.length);
                Arrays.fill(own, (byte) 0); // the source's own buffer is its own again after the call
            }
        };
    }

    @Test
    void spansReadAheadAndContentOfTheSourcesOwnBufferReachTheSinkWhole() throws IOException {
        int spans = 120;
        Map<String, byte[]> received = new ConcurrentHashMap<>();
        ContentFanOut.run(2, ScanPriority.NORMAL, readingAhead(spans, 2), (sha, buffer, offset, length) -> {
            if (sha.hashCode() % 5 == 0) {
                Thread.yield(); // a slower worker, so that buffers are taken back while others are busy
            }
            assertFalse(received.containsKey(sha), "once: " + sha);
            received.put(sha, Arrays.copyOfRange(buffer, offset, offset + length));
        });
        assertEquals(spans * (CONTENTS_PER_SPAN + 1), received.size());
        for (int s = 0; s < spans; s++) {
            for (int i = 0; i < CONTENTS_PER_SPAN; i++) {
                int c = s * CONTENTS_PER_SPAN + i;
                assertArrayEquals(content(c), received.get("c" + c), "content " + c);
            }
            assertArrayEquals(content(1_000_000 + s), received.get("own" + s), "own " + s);
        }
    }

    @Test
    void aFailedReadEndsTheRunWithItsError() {
        AtomicInteger passed = new AtomicInteger();
        ContentFanOut.Scan failing = sink -> {
            readingAhead(10, 2).run(sink);
            throw new IOException("read error on the checkpoint's device");
        };
        IOException e = assertThrows(IOException.class, () -> ContentFanOut.run(2, ScanPriority.NORMAL, failing,
                (sha, buffer, offset, length) -> passed.incrementAndGet()));
        assertEquals("read error on the checkpoint's device", e.getMessage());
    }

    @Test
    void aFailingSinkStopsTheReading() {
        AtomicInteger read = new AtomicInteger();
        ContentFanOut.Scan endless = sink -> {
            for (int i = 0; ; i++) {
                byte[] b = sink.spanBuffer(16);
                read.incrementAndGet();
                sink.accept("c" + i, b, 0, 16);
                sink.spanVisited();
            }
        };
        IOException e = assertThrows(IOException.class, () -> ContentFanOut.run(2, ScanPriority.NORMAL, endless,
                (sha, buffer, offset, length) -> {
                    if (sha.equals("c50")) {
                        throw new IOException("target full");
                    }
                }));
        assertEquals("target full", e.getMessage());
        assertTrue(read.get() < 1_000_000, "the reading stopped");
    }

    @Test
    void anInterruptEndsTheRun() throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        ContentFanOut.Scan blocked = sink -> {
            sink.spanBuffer(16);
            reading.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException ie) {
                throw new InterruptedIOException("reading interrupted");
            }
        };
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                ContentFanOut.run(2, ScanPriority.NORMAL, blocked, (sha, buffer, offset, length) -> { });
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        caller.start();
        assertTrue(reading.await(60, TimeUnit.SECONDS), "the scan started");
        caller.interrupt();
        caller.join(60_000);
        assertFalse(caller.isAlive(), "the run ended");
        assertTrue(thrown.get() instanceof InterruptedIOException, "interrupted: " + thrown.get());
    }

    @Test
    void aSpanVisitedThatWasNeverAskedForIsAnError() {
        ContentFanOut.Scan wrong = BackupSource.ContentSink::spanVisited;
        assertThrows(IllegalStateException.class, () -> ContentFanOut.run(2, ScanPriority.NORMAL, wrong, (sha, buffer, offset, length) -> { }));
    }
}
