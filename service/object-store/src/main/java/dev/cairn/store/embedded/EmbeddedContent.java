package dev.cairn.store.embedded;

import static dev.cairn.store.embedded.EmbeddedKeys.REF_OBJECT;
import static dev.cairn.store.embedded.EmbeddedKeys.SHA_BYTES;
import static dev.cairn.store.embedded.EmbeddedKeys.bytes;
import static dev.cairn.store.embedded.EmbeddedKeys.chunkKey;
import static dev.cairn.store.embedded.EmbeddedKeys.concat;
import static dev.cairn.store.embedded.EmbeddedObjectStore.CHUNK_BYTES;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.WriteBatch;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Content and its reference counts: tables {@code blobs} (sha256 → size), {@code chunks} and
 * {@code refs} (sha256, kind, bucket → count); content is reclaimed in the batch that drops its
 * last reference, and {@link #sweep()} undoes what dead writers left (journaled in
 * {@link Intents}).
 *
 * <p>Locks: a lock per content digest (striped, {@link #lock}) serialises the digest's reference
 * counts, its {@code blobs} row and its chunks; it is the last lock taken, after the bucket's and
 * the key's or upload's, several digests in stripe order. {@link #sweep()} is synchronized, so
 * sweeps run one at a time. Thread-safe.
 */
final class EmbeddedContent {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EmbeddedContent.class);

    private final EmbeddedTables t;
    private final EmbeddedBuckets buckets;
    private final StripedLocks locks = new StripedLocks(1024);
    private volatile ScheduledExecutorService sweeper;

    EmbeddedContent(EmbeddedTables t, EmbeddedBuckets buckets) {
        this.t = t;
        this.buckets = buckets;
    }

    /** Locks the content locks of the digests given (nulls ignored); close to unlock. */
    StripedLocks.Held lock(String... sha256s) {
        return locks.lock((Object[]) sha256s);
    }

    boolean exists(String sha) throws IOException {
        return t.blobs.get(Hex.decode(sha)) != null;
    }

    /**
     * Undoes what writers that died left half done (journaled in table {@code intents}): chunks
     * of content whose size row was never written are deleted, and references counted for rows
     * that were never written (or were deleted before their reference was dropped) are dropped,
     * reclaiming content left without any. Never touches the work of a writer alive in this
     * process.
     */
    synchronized EmbeddedObjectStore.SweepReport sweep() throws IOException {
        int contents = 0;
        long bytes = 0;
        int references = 0;
        Intents intents = t.intents;
        for (Intents.Intent i : intents.all()) {
            if (intents.isLive(i.token())) {
                continue;
            }
            try (StripedLocks.Held c = lock(i.sha256())) {
                if (!intents.exists(i.token())) {
                    continue;
                }
                WriteBatch batch = new WriteBatch();
                if (i.kind() == Intents.CONTENT) {
                    if (!exists(i.sha256())) {
                        deleteChunks(batch, i.sha256(), i.size());
                        contents++;
                        bytes += i.size();
                    }
                } else {
                    RefChanges changes = new RefChanges();
                    changes.add(i.sha256(), i.kind(), i.bucket(), -1);
                    changes.apply(batch);
                    references++;
                }
                intents.delete(batch, i.token());
                t.engine.write(batch);
            }
        }
        return new EmbeddedObjectStore.SweepReport(contents, bytes, references);
    }

    /** Sweeps every {@code interval} on a background thread until {@link #close()}. */
    synchronized void sweepEvery(Duration interval) {
        if (sweeper != null || interval.isZero() || interval.isNegative()) {
            return;
        }
        sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread th = new Thread(r, "cairn-sweep");
            th.setDaemon(true);
            return th;
        });
        long millis = interval.toMillis();
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                EmbeddedObjectStore.SweepReport r = sweep();
                if (r.abandonedContents() + r.danglingReferences() > 0) {
                    LOG.info("sweep: {}", r);
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("sweep failed: {}", e.toString());
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Stops the background sweep, waiting for one in progress. */
    void close() {
        ScheduledExecutorService s = sweeper;
        if (s == null) {
            return;
        }
        s.shutdown();
        try {
            s.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a row of a public-read bucket holds this content. */
    boolean isPublic(String sha256) throws IOException {
        byte[] prefix = concat(Hex.decode(sha256), new byte[] {REF_OBJECT});
        try (EntryIterator it = t.refs.scan(KeyRange.prefix(prefix))) {
            while (it.hasNext()) {
                Entry e = it.next();
                String bucket = new String(e.key(), prefix.length, e.key().length - prefix.length, StandardCharsets.UTF_8);
                if (buckets.isPublic(bucket)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Takes a reference on content of any size, storing it first if it is new, and journals the
     * reference under {@code intent} until the caller's row holds it (or it is released). New
     * content's chunks are written one by one, journaled, before the size row that makes them
     * reachable; if that fails they are deleted. True when the content was stored now.
     */
    boolean acquireLarge(String sha, byte kind, String bucket, ContentSource content, byte[] intent)
            throws IOException {
        Intents intents = t.intents;
        try (StripedLocks.Held c = lock(sha)) {
            WriteBatch batch = new WriteBatch();
            RefChanges changes = new RefChanges();
            byte[] writing = null;
            try {
                if (!exists(sha)) {
                    writing = intents.begin();
                    WriteBatch start = new WriteBatch();
                    intents.putContent(start, writing, sha, content.size());
                    t.engine.write(start);
                    writeChunks(sha, content);
                    changes.newContentWritten(sha, content.size());
                    intents.delete(batch, writing);
                }
                changes.add(sha, kind, bucket, +1);
                changes.apply(batch);
                intents.putReference(batch, intent, kind, sha, bucket);
                t.engine.write(batch);
                return writing != null;
            } catch (IOException | RuntimeException e) {
                if (writing != null) {
                    try {
                        WriteBatch undo = new WriteBatch();
                        deleteChunks(undo, sha, content.size());
                        intents.delete(undo, writing);
                        t.engine.write(undo);
                    } catch (IOException | RuntimeException undoFailed) {
                        e.addSuppressed(undoFailed);
                    }
                }
                throw e;
            } finally {
                intents.end(writing);
            }
        }
    }

    /** Drops a reference and the intent that journals it. */
    void release(String sha, byte kind, String bucket, byte[] intent) throws IOException {
        try (StripedLocks.Held c = lock(sha)) {
            WriteBatch batch = new WriteBatch();
            RefChanges changes = new RefChanges();
            changes.add(sha, kind, bucket, -1);
            changes.apply(batch);
            t.intents.delete(batch, intent);
            t.engine.write(batch);
        }
    }

    /** Deletes every chunk content of this size can have. */
    private void deleteChunks(WriteBatch batch, String sha, long size) {
        for (int i = 0; (long) i * CHUNK_BYTES < size; i++) {
            batch.delete(t.chunks, chunkKey(sha, i));
        }
    }

    private void writeChunks(String sha, ContentSource content) throws IOException {
        long size = content.size();
        long written = 0;
        int index = 0;
        try (InputStream in = content.open()) {
            while (written < size) {
                int n = (int) Math.min(CHUNK_BYTES, size - written);
                byte[] chunk = in.readNBytes(n);
                if (chunk.length != n) {
                    throw new IOException("content " + sha + " ended after " + (written + chunk.length)
                            + " of " + size + " bytes");
                }
                t.chunks.put(chunkKey(sha, index++), chunk);
                written += n;
            }
        }
    }

    /** The bytes of content of at most one chunk. */
    static byte[] readSmall(ContentSource content) throws IOException {
        byte[] held = content.inMemory();
        if (held != null && held.length == content.size()) {
            return held;
        }
        try (InputStream in = content.open()) {
            byte[] b = in.readNBytes((int) content.size());
            if (b.length != content.size()) {
                throw new IOException("content " + content.sha256() + " ended after " + b.length
                        + " of " + content.size() + " bytes");
            }
            return b;
        }
    }

    /**
     * Reference count changes for some digests, turned into batch operations. REQUIRES: the
     * content lock of every digest named is held while it is built and until the batch is written.
     */
    final class RefChanges {
        private final Map<String, Map<String, Integer>> deltas = new LinkedHashMap<>();
        private final Map<String, byte[]> newSmall = new HashMap<>();
        private final Map<String, Long> written = new HashMap<>();

        void add(String sha, byte kind, String bucket, int delta) {
            String refKey = (char) kind + bucket;
            deltas.computeIfAbsent(sha, s -> new LinkedHashMap<>()).merge(refKey, delta, Integer::sum);
        }

        /** Content of at most one chunk that is not stored yet: written in the same batch. */
        void newContent(String sha, byte[] data) {
            newSmall.put(sha, data);
        }

        /** Content whose chunks were just written: its size row goes into the batch. */
        void newContentWritten(String sha, long size) {
            written.put(sha, size);
        }

        void apply(WriteBatch batch) throws IOException {
            for (Map.Entry<String, Map<String, Integer>> d : deltas.entrySet()) {
                String sha = d.getKey();
                byte[] shaBytes = Hex.decode(sha);
                Map<String, Long> counts = new HashMap<>();
                boolean isNew = newSmall.containsKey(sha) || written.containsKey(sha);
                // New content has no reference yet: nothing to read.
                try (EntryIterator it = isNew ? null : t.refs.scan(KeyRange.prefix(shaBytes))) {
                    while (it != null && it.hasNext()) {
                        Entry e = it.next();
                        String refKey = new String(e.key(), SHA_BYTES, e.key().length - SHA_BYTES, StandardCharsets.UTF_8);
                        counts.put(refKey, EmbeddedRows.decodeCount(e.value(), "refs/" + sha));
                    }
                }
                for (Map.Entry<String, Integer> change : d.getValue().entrySet()) {
                    if (change.getValue() == 0) {
                        continue;
                    }
                    long now = counts.getOrDefault(change.getKey(), 0L) + change.getValue();
                    if (now < 0) {
                        throw new CorruptionException("refs/" + sha + "/" + change.getKey() + ": count below zero");
                    }
                    byte[] k = concat(shaBytes, bytes(change.getKey()));
                    if (now == 0) {
                        counts.remove(change.getKey());
                        batch.delete(t.refs, k);
                    } else {
                        counts.put(change.getKey(), now);
                        batch.put(t.refs, k, EmbeddedRows.encodeCount(now));
                    }
                }
                byte[] data = newSmall.get(sha);
                if (counts.isEmpty()) {
                    if (data == null && !written.containsKey(sha)) {
                        reclaim(batch, sha, shaBytes);
                    }
                } else if (data != null) {
                    batch.put(t.blobs, shaBytes, EmbeddedRows.encodeCount(data.length));
                    if (data.length > 0) {
                        batch.put(t.chunks, chunkKey(sha, 0), data);
                    }
                } else if (written.containsKey(sha)) {
                    batch.put(t.blobs, shaBytes, EmbeddedRows.encodeCount(written.get(sha)));
                }
            }
        }

        private void reclaim(WriteBatch batch, String sha, byte[] shaBytes) throws IOException {
            byte[] sizeRow = t.blobs.get(shaBytes);
            if (sizeRow == null) {
                return;
            }
            long size = EmbeddedRows.decodeCount(sizeRow, "blobs/" + sha);
            batch.delete(t.blobs, shaBytes);
            deleteChunks(batch, sha, size);
        }
    }
}
