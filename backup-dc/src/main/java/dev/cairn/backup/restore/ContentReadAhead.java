package dev.cairn.backup.restore;

import dev.cairn.store.ContentSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * Reads the contents of a key's versions from the archive at once, into memory, while the store
 * writes them one after the other: a store given a key's versions together
 * ({@link dev.cairn.store.ObjectStore#restoreVersions}; Cassandra under one lease of the key)
 * stores their contents in turn, so each version's archive read and hash check would otherwise
 * wait for the previous version's write. Up to {@link #READERS} reads at once for all keys of a
 * restore, each content up to {@link #MAX_CONTENT_BYTES} (a larger one streams from the archive
 * as before), within {@link #BUFFER_BYTES} of buffers for all keys together; a content that finds
 * no room streams as before, so a key never waits for another's buffers. Thread-safe.
 */
final class ContentReadAhead implements AutoCloseable {
    /** Archive reads in flight for all keys together. */
    static final int READERS = 8;
    /** Bytes of read-ahead buffers held at once by all keys of a restore. */
    static final int BUFFER_BYTES = 64 << 20;
    /** Larger contents are streamed, not held in memory. */
    static final int MAX_CONTENT_BYTES = 4 << 20;

    private final Semaphore bufferKiB = new Semaphore(BUFFER_BYTES >> 10);
    private final ExecutorService readers = Executors.newFixedThreadPool(READERS, r -> {
        Thread t = new Thread(r, "restore-read-ahead");
        t.setDaemon(true);
        return t;
    });

    /** The key's contents, those with room read ahead; hand them to the store, then {@link Held#close()}. */
    Held readAhead(List<ContentSource> contents) {
        List<ContentSource> out = new ArrayList<>(contents.size());
        Held held = new Held(out);
        for (ContentSource c : contents) {
            int kib = c == null || c.size() > MAX_CONTENT_BYTES ? 0 : (int) ((c.size() + 1023) >> 10);
            if (kib == 0 || !bufferKiB.tryAcquire(kib)) {
                out.add(c);
                continue;
            }
            held.kib += kib;
            CompletableFuture<byte[]> bytes = CompletableFuture.supplyAsync(() -> {
                try (InputStream in = c.open()) {
                    return in.readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, readers);
            held.reads.add(bytes);
            out.add(new ReadAhead(c, bytes));
        }
        return held;
    }

    /** A key's contents as read ahead; closing waits for their reads and frees their buffers. */
    final class Held implements AutoCloseable {
        final List<ContentSource> contents;
        private final List<CompletableFuture<byte[]>> reads = new ArrayList<>();
        private int kib;

        private Held(List<ContentSource> contents) {
            this.contents = contents;
        }

        @Override
        public void close() {
            // A read still under way (the store failed before it) holds its buffer until it ends.
            CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                    .whenComplete((ok, failed) -> bufferKiB.release(kib));
        }
    }

    /** One content whose bytes are being read ahead; a failed read fails the store's open. */
    private record ReadAhead(ContentSource source, CompletableFuture<byte[]> bytes) implements ContentSource {
        @Override
        public String sha256() {
            return source.sha256();
        }

        @Override
        public long size() {
            return source.size();
        }

        @Override
        public String md5() {
            return source.md5();
        }

        @Override
        public InputStream open() throws IOException {
            try {
                return new ByteArrayInputStream(bytes.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("reading " + source.sha256() + " from the archive was interrupted");
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
                if (cause instanceof CompletionException ce && ce.getCause() != null) {
                    cause = ce.getCause();
                }
                throw cause instanceof IOException io ? io : new IOException(cause);
            }
        }
    }

    @Override
    public void close() {
        readers.shutdownNow();
    }
}
