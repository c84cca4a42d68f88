package dev.cairn.loadtest.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Reads {@link CrashWriter}'s standard output: {@code open} once the engine is open, then
 * {@code acked <index>} per acknowledged write. Lines cut short by the kill are ignored.
 *
 * <p>Thread-safety: {@link #run} on one thread; the other methods from any thread.
 */
final class CrashWriterOutput implements Runnable {

    private final InputStream in;
    private final long firstIndex;
    private final CountDownLatch opened = new CountDownLatch(1);
    private final java.util.BitSet acknowledged = new java.util.BitSet();
    private volatile boolean seenOpen;

    CrashWriterOutput(InputStream in, long firstIndex) {
        this.in = in;
        this.firstIndex = firstIndex;
    }

    @Override
    public void run() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                accept(line);
            }
        } catch (IOException e) {
            // The process is gone; what was read is what counts.
        } finally {
            opened.countDown();
        }
    }

    void accept(String line) {
        if (line.equals("open")) {
            seenOpen = true;
            opened.countDown();
        } else if (line.startsWith("acked ")) {
            long index;
            try {
                index = Long.parseLong(line.substring(6).trim());
            } catch (NumberFormatException e) {
                return;
            }
            if (index >= firstIndex && index - firstIndex < Integer.MAX_VALUE) {
                synchronized (acknowledged) {
                    acknowledged.set((int) (index - firstIndex));
                }
            }
        }
    }

    /** Whether the writer opened the engine within the timeout (false also when it exited first). */
    boolean awaitOpen(long timeoutNanos) {
        try {
            return opened.await(timeoutNanos, TimeUnit.NANOSECONDS) && seenOpen;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    long acknowledgedCount() {
        synchronized (acknowledged) {
            return acknowledged.cardinality();
        }
    }

    /** The indices of the acknowledged writes. */
    long[] acknowledged() {
        synchronized (acknowledged) {
            return acknowledged.stream().mapToLong(i -> firstIndex + i).toArray();
        }
    }
}
