package dev.cairn.store;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Engine;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Snapshot;
import dev.cairn.engine.Table;
import dev.cairn.engine.WriteBatch;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The object store on Cairn's embedded engine. Row layouts are in docs/service.md ("Embedded
 * layout"): tables {@code buckets}, {@code objects} (bucket 0x00 key), {@code blobs} (sha256 →
 * size), {@code chunks} (sha256 + chunk index → at most {@link #CHUNK_BYTES} bytes), {@code refs}
 * (sha256 + kind + bucket → count), {@code uploads} and {@code parts}.
 *
 * <p>Concurrency: a bucket's read/write lock keeps it from being deleted under a write; a lock
 * per (bucket, key) serialises writes to one key; a lock per content digest serialises its
 * reference count. Locks are taken in that order, digests in stripe order. Content is written
 * and its reference counted before the object row names it, in one atomic batch when the
 * content fits one chunk; a replaced row's reference is dropped in the batch that replaces it,
 * and content left without reference is deleted in that same batch. Readers of content larger
 * than one chunk read at an engine snapshot; single-chunk readers retry if the content they
 * were about to read was reclaimed, so no reader sees a mix of two writes.
 *
 * <p>Thread-safety: safe for concurrent use. The engine is the caller's; {@link #close()}
 * leaves it open.
 */
public final class EmbeddedObjectStore implements ObjectStore {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EmbeddedObjectStore.class);

    /** Content is stored in chunks of this size, so no read or write holds an object whole. */
    public static final int CHUNK_BYTES = 1 << 20;

    /** DO NOT CHANGE: embedded in on-disk data (refs table). */
    private static final byte REF_OBJECT = 'o';
    /** DO NOT CHANGE: embedded in on-disk data (refs table). */
    private static final byte REF_PART = 'p';
    private static final int SHA_BYTES = 32;
    private static final int UPLOAD_ID_CHARS = 32;
    /** Lock-free tries of a small object before reading it at a snapshot; a miss needs a racing overwrite. */
    private static final int UNPINNED_READS = 2;

    private final Engine engine;
    private final Table buckets;
    private final Table objects;
    private final Table blobs;
    private final Table chunks;
    private final Table refs;
    private final Table uploads;
    private final Table parts;
    private final Intents intents;
    private final PartLayouts layouts;
    private volatile java.util.concurrent.ScheduledExecutorService sweeper;
    private final ConcurrentHashMap<String, BucketInfo> bucketCache = new ConcurrentHashMap<>();
    private final ReadWriteLock[] bucketLocks = new ReadWriteLock[64];
    private final StripedLocks keyLocks = new StripedLocks(1024);
    private final StripedLocks uploadLocks = new StripedLocks(256);
    private final StripedLocks contentLocks = new StripedLocks(1024);
    private final SecureRandom random = new SecureRandom();
    private final AtomicLong logicalBytes = new AtomicLong();
    private final AtomicLong physicalBytes = new AtomicLong();

    public EmbeddedObjectStore(Engine engine) throws IOException {
        this.engine = engine;
        buckets = engine.table("buckets");
        objects = engine.table("objects");
        blobs = engine.table("blobs");
        chunks = engine.table("chunks");
        refs = engine.table("refs");
        uploads = engine.table("uploads");
        parts = engine.table("parts");
        intents = new Intents(engine.table("intents"));
        layouts = new PartLayouts(engine.table("layouts"));
        for (int i = 0; i < bucketLocks.length; i++) {
            bucketLocks[i] = new ReentrantReadWriteLock();
        }
        try (EntryIterator it = buckets.scan(KeyRange.all())) {
            while (it.hasNext()) {
                Entry e = it.next();
                String name = utf8(e.key());
                bucketCache.put(name, RowCodec.decodeBucket(name, e.value()));
            }
        }
        sweep();
    }

    /** What one {@link #sweep()} undid. */
    public record SweepReport(int abandonedContents, long abandonedBytes, int danglingReferences) {
    }

    /**
     * Undoes what writers that died left half done (journaled in table {@code intents}): chunks
     * of content whose size row was never written are deleted, and references counted for rows
     * that were never written (or were deleted before their reference was dropped) are dropped,
     * reclaiming content left without any. Runs on open and then whenever called; never touches
     * the work of a writer alive in this process.
     */
    public synchronized SweepReport sweep() throws IOException {
        int contents = 0;
        long bytes = 0;
        int references = 0;
        for (Intents.Intent i : intents.all()) {
            if (intents.isLive(i.token())) {
                continue;
            }
            try (StripedLocks.Held c = contentLocks.lock(i.sha256())) {
                if (!intents.exists(i.token())) {
                    continue;
                }
                WriteBatch batch = new WriteBatch();
                if (i.kind() == Intents.CONTENT) {
                    if (blobs.get(Hex.decode(i.sha256())) == null) {
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
                engine.write(batch);
            }
        }
        return new SweepReport(contents, bytes, references);
    }

    /** Sweeps every {@code interval} on a background thread until {@link #close()}. */
    public synchronized void sweepEvery(java.time.Duration interval) {
        if (sweeper != null || interval.isZero() || interval.isNegative()) {
            return;
        }
        sweeper = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cairn-sweep");
            t.setDaemon(true);
            return t;
        });
        long millis = interval.toMillis();
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                SweepReport r = sweep();
                if (r.abandonedContents() + r.danglingReferences() > 0) {
                    LOG.info("sweep: {}", r);
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("sweep failed: {}", e.toString());
            }
        }, millis, millis, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    // ---- buckets

    @Override
    public BucketInfo createBucket(String bucket, BucketAcl acl) throws IOException {
        ReadWriteLock lock = bucketLock(bucket);
        lock.writeLock().lock();
        try {
            if (bucketCache.containsKey(bucket)) {
                throw new StoreException(StoreException.Reason.BUCKET_EXISTS, bucket);
            }
            BucketInfo info = new BucketInfo(bucket, System.currentTimeMillis(), acl);
            buckets.put(bytes(bucket), RowCodec.encodeBucket(info));
            bucketCache.put(bucket, info);
            return info;
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public BucketInfo bucket(String bucket) {
        return bucketCache.get(bucket);
    }

    @Override
    public List<BucketInfo> listBuckets() {
        return List.copyOf(new TreeMap<>(bucketCache).values());
    }

    @Override
    public void setBucketAcl(String bucket, BucketAcl acl) throws IOException {
        ReadWriteLock lock = bucketLock(bucket);
        lock.writeLock().lock();
        try {
            BucketInfo b = requireBucket(bucket);
            BucketInfo info = new BucketInfo(bucket, b.createdMillis(), acl);
            buckets.put(bytes(bucket), RowCodec.encodeBucket(info));
            bucketCache.put(bucket, info);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        ReadWriteLock lock = bucketLock(bucket);
        lock.writeLock().lock();
        try {
            requireBucket(bucket);
            try (EntryIterator it = objects.scan(KeyRange.prefix(bucketPrefix(bucket)))) {
                if (it.hasNext()) {
                    throw new StoreException(StoreException.Reason.BUCKET_NOT_EMPTY, bucket);
                }
            }
            for (UploadInfo u : listUploads(bucket, "", null, null, Integer.MAX_VALUE)) {
                abortUpload(bucket, u.key(), u.uploadId());
            }
            buckets.delete(bytes(bucket));
            bucketCache.remove(bucket);
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ---- objects

    @Override
    public ObjectInfo putObject(String bucket, String key, ObjectAttributes attributes, ContentSource content,
                                String etag, int partCount, Map<String, String> checksums, boolean onlyIfAbsent)
            throws IOException {
        return write(bucket, key, attributes, content, etag, partCount, checksums, onlyIfAbsent, null, null);
    }

    @Override
    public ObjectInfo putObjectIfMatch(String bucket, String key, ObjectAttributes attributes, ContentSource content,
                                       String etag, int partCount, Map<String, String> checksums, String expectedEtag)
            throws IOException {
        return write(bucket, key, attributes, content, etag, partCount, checksums, false, expectedEtag, null);
    }

    /** The condition is checked under the key's lock, in the critical section that writes the row. */
    private ObjectInfo write(String bucket, String key, ObjectAttributes attributes, ContentSource content,
                             String etag, int partCount, Map<String, String> checksums, boolean onlyIfAbsent,
                             String expectedEtag, long[] partSizes) throws IOException {
        ReadWriteLock bucketLock = bucketLock(bucket);
        bucketLock.readLock().lock();
        try {
            requireBucket(bucket);
            byte[] rowKey = objectKey(bucket, key);
            String sha = content.sha256();
            byte[] small = null;
            boolean large = content.size() > CHUNK_BYTES;
            boolean stored = false;
            byte[] intent = large ? intents.begin() : null;
            boolean acquired = false;
            boolean done = false;
            try {
                if (large) {
                    stored = acquireLarge(sha, REF_OBJECT, bucket, content, intent);
                    acquired = true;
                }
                try (StripedLocks.Held k = keyLocks.lock(new String(rowKey, StandardCharsets.ISO_8859_1))) {
                    ObjectInfo old = decodeObjectOrNull(key, objects.get(rowKey));
                    WriteConditions.check(key, old, onlyIfAbsent, expectedEtag);
                    ObjectInfo info = new ObjectInfo(key, sha, content.size(), etag, attributes,
                            System.currentTimeMillis(), partCount, checksums);
                    try (StripedLocks.Held c = contentLocks.lock(sha, old == null ? null : old.sha256())) {
                        WriteBatch batch = new WriteBatch();
                        RefChanges changes = new RefChanges();
                        if (!large) {
                            if (blobs.get(Hex.decode(sha)) == null) {
                                small = readSmall(content);
                                changes.newContent(sha, small);
                                stored = true;
                            }
                            changes.add(sha, REF_OBJECT, bucket, +1);
                        }
                        if (old != null) {
                            changes.add(old.sha256(), REF_OBJECT, bucket, -1);
                        }
                        changes.apply(batch);
                        batch.putRow(objects, rowKey, ObjectRow.toRow(info));
                        if (partSizes != null) {
                            layouts.put(batch, rowKey, etag, partSizes);
                        } else if (old != null && old.partCount() > 0) {
                            layouts.delete(batch, rowKey);
                        }
                        if (intent != null) {
                            intents.delete(batch, intent);
                        }
                        engine.write(batch);
                        logicalBytes.addAndGet(content.size());
                        if (stored) {
                            physicalBytes.addAndGet(content.size());
                        }
                        done = true;
                        return info;
                    }
                }
            } finally {
                try {
                    if (acquired && !done) {
                        release(sha, REF_OBJECT, bucket, intent);
                    }
                } finally {
                    intents.end(intent);
                }
            }
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    @Override
    public long[] partSizes(String bucket, String key, ObjectInfo info) throws IOException {
        requireBucket(bucket);
        return info.partCount() == 0 ? null : layouts.read(objectKey(bucket, key), info);
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) throws IOException {
        requireBucket(bucket);
        return decodeObjectOrNull(key, objects.get(objectKey(bucket, key)));
    }

    @Override
    public ObjectRead getObject(String bucket, String key) throws IOException {
        requireBucket(bucket);
        byte[] rowKey = objectKey(bucket, key);
        for (int attempt = 0; attempt < UNPINNED_READS; attempt++) {
            ObjectInfo info = decodeObjectOrNull(key, objects.get(rowKey));
            if (info == null) {
                return null;
            }
            if (info.size() > CHUNK_BYTES) {
                break;
            }
            byte[] data = info.size() == 0 ? new byte[0] : chunks.get(chunkKey(info.sha256(), 0));
            if (data != null) {
                checkChunk(info.sha256(), 0, info.size(), data);
                return new SmallRead(info, data);
            }
            // The content was reclaimed after the row was read: the row changed; read it again.
        }
        return pinnedRead(key, rowKey);
    }

    /**
     * Reads the row and its content at one snapshot. A row change and the reclamation of the
     * content it released are one batch, so at a snapshot the content of the row is always there.
     */
    private ObjectRead pinnedRead(String key, byte[] rowKey) throws IOException {
        Snapshot snap = engine.snapshot();
        boolean handedOver = false;
        try {
            ReadOptions at = ReadOptions.at(snap);
            ObjectInfo pinned = decodeObjectOrNull(key, objects.get(rowKey, at));
            if (pinned == null) {
                return null;
            }
            if (pinned.size() > CHUNK_BYTES) {
                handedOver = true;
                return new ChunkedRead(pinned, snap);
            }
            byte[] data = pinned.size() == 0 ? new byte[0] : chunks.get(chunkKey(pinned.sha256(), 0), at);
            if (data == null) {
                throw new CorruptionException("chunks/" + pinned.sha256() + "/0: missing for objects/" + key);
            }
            checkChunk(pinned.sha256(), 0, pinned.size(), data);
            return new SmallRead(pinned, data);
        } finally {
            if (!handedOver) {
                snap.close();
            }
        }
    }

    @Override
    public ObjectInfo deleteObject(String bucket, String key) throws IOException {
        ReadWriteLock bucketLock = bucketLock(bucket);
        bucketLock.readLock().lock();
        try {
            requireBucket(bucket);
            byte[] rowKey = objectKey(bucket, key);
            try (StripedLocks.Held k = keyLocks.lock(new String(rowKey, StandardCharsets.ISO_8859_1))) {
                ObjectInfo old = decodeObjectOrNull(key, objects.get(rowKey));
                if (old == null) {
                    return null;
                }
                try (StripedLocks.Held c = contentLocks.lock(old.sha256())) {
                    WriteBatch batch = new WriteBatch();
                    RefChanges changes = new RefChanges();
                    changes.add(old.sha256(), REF_OBJECT, bucket, -1);
                    changes.apply(batch);
                    batch.delete(objects, rowKey);
                    if (old.partCount() > 0) {
                        layouts.delete(batch, rowKey);
                    }
                    engine.write(batch);
                }
                return old;
            }
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    @Override
    public ListPage listObjects(String bucket, ListQuery query) throws IOException {
        requireBucket(bucket);
        byte[] base = bucketPrefix(bucket);
        byte[] end = successor(concat(base, bytes(query.prefix())));
        return Listing.page(query, (key, from) -> {
            byte[] start = concat(base, bytes(key));
            if (from == Listing.From.AFTER) {
                start = concat(start, new byte[] {0});
            } else if (from == Listing.From.PAST_PREFIX) {
                start = successor(start);
            }
            if (start == null || (end != null && Arrays.compareUnsigned(start, end) >= 0)) {
                return emptyCursor();
            }
            EntryIterator it = objects.scan(new KeyRange(start, end));
            return new Listing.Cursor() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public ObjectInfo next() {
                    Entry e = it.next();
                    String k = new String(e.key(), base.length, e.key().length - base.length, StandardCharsets.UTF_8);
                    try {
                        return decodeObject(k, e.value());
                    } catch (CorruptionException ex) {
                        throw new java.io.UncheckedIOException(ex);
                    }
                }

                @Override
                public void close() {
                    it.close();
                }
            };
        });
    }

    // ---- content

    @Override
    public ContentRead getContent(String sha256) throws IOException {
        byte[] sha = Hex.decode(sha256);
        byte[] sizeRow = blobs.get(sha);
        if (sizeRow == null) {
            return null;
        }
        long size = RowCodec.decodeCount(sizeRow, "blobs/" + sha256);
        if (size <= CHUNK_BYTES) {
            byte[] data = size == 0 ? new byte[0] : chunks.get(chunkKey(sha256, 0));
            if (data == null) {
                return null;
            }
            checkChunk(sha256, 0, size, data);
            return new SmallRead(null, data);
        }
        Snapshot snap = engine.snapshot();
        try {
            if (blobs.get(sha, ReadOptions.at(snap)) == null) {
                snap.close();
                return null;
            }
            return new ChunkedContent(sha256, size, snap);
        } catch (IOException | RuntimeException e) {
            snap.close();
            throw e;
        }
    }

    @Override
    public boolean isContentPublic(String sha256) throws IOException {
        byte[] prefix = concat(Hex.decode(sha256), new byte[] {REF_OBJECT});
        try (EntryIterator it = refs.scan(KeyRange.prefix(prefix))) {
            while (it.hasNext()) {
                Entry e = it.next();
                String bucket = new String(e.key(), prefix.length, e.key().length - prefix.length, StandardCharsets.UTF_8);
                BucketInfo b = bucketCache.get(bucket);
                if (b != null && b.acl() == BucketAcl.PUBLIC_READ) {
                    return true;
                }
            }
        }
        return false;
    }

    // ---- multipart

    @Override
    public UploadInfo createUpload(String bucket, String key, ObjectAttributes attributes) throws IOException {
        ReadWriteLock bucketLock = bucketLock(bucket);
        bucketLock.readLock().lock();
        try {
            requireBucket(bucket);
            byte[] id = new byte[UPLOAD_ID_CHARS / 2];
            random.nextBytes(id);
            UploadInfo u = new UploadInfo(bucket, key, Hex.encode(id), attributes, System.currentTimeMillis());
            uploads.put(uploadKey(bucket, key, u.uploadId()), RowCodec.encodeUpload(u));
            return u;
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    @Override
    public UploadInfo upload(String bucket, String key, String uploadId) throws IOException {
        requireBucket(bucket);
        if (!isUploadId(uploadId)) {
            throw new StoreException(StoreException.Reason.NO_SUCH_UPLOAD, uploadId);
        }
        byte[] row = uploads.get(uploadKey(bucket, key, uploadId));
        if (row == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_UPLOAD, uploadId);
        }
        return RowCodec.decodeUpload(bucket, key, uploadId, row);
    }

    @Override
    public PartInfo putPart(String bucket, String key, String uploadId, int partNumber, ContentSource content)
            throws IOException {
        ReadWriteLock bucketLock = bucketLock(bucket);
        bucketLock.readLock().lock();
        try {
            upload(bucket, key, uploadId);
            String etag = ContentSource.md5Of(content);
            byte[] intent = intents.begin();
            try {
                acquireLarge(content.sha256(), REF_PART, bucket, content, intent);
            } catch (IOException | RuntimeException e) {
                intents.end(intent);
                throw e;
            }
            boolean done = false;
            try (StripedLocks.Held u = uploadLocks.lock(uploadId)) {
                upload(bucket, key, uploadId);
                byte[] rowKey = partKey(uploadId, partNumber);
                byte[] oldRow = parts.get(rowKey);
                PartInfo part = new PartInfo(partNumber, content.sha256(), content.size(), etag, System.currentTimeMillis());
                PartInfo old = oldRow == null ? null : RowCodec.decodePart(partNumber, oldRow, "parts/" + uploadId);
                try (StripedLocks.Held c = contentLocks.lock(old == null ? null : old.sha256())) {
                    WriteBatch batch = new WriteBatch();
                    if (old != null) {
                        RefChanges changes = new RefChanges();
                        changes.add(old.sha256(), REF_PART, bucket, -1);
                        changes.apply(batch);
                    }
                    batch.put(parts, rowKey, RowCodec.encodePart(part));
                    intents.delete(batch, intent);
                    engine.write(batch);
                }
                done = true;
                return part;
            } finally {
                try {
                    if (!done) {
                        release(content.sha256(), REF_PART, bucket, intent);
                    }
                } finally {
                    intents.end(intent);
                }
            }
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    @Override
    public List<PartInfo> listParts(String bucket, String key, String uploadId, int afterPart, int maxParts)
            throws IOException {
        upload(bucket, key, uploadId);
        List<PartInfo> out = new ArrayList<>();
        byte[] idBytes = bytes(uploadId);
        try (EntryIterator it = parts.scan(new KeyRange(partKey(uploadId, afterPart + 1), successor(idBytes)))) {
            while (it.hasNext() && out.size() < maxParts) {
                Entry e = it.next();
                int number = ByteBuffer.wrap(e.key(), idBytes.length, 4).getInt();
                out.add(RowCodec.decodePart(number, e.value(), "parts/" + uploadId));
            }
        }
        return out;
    }

    @Override
    public List<UploadInfo> listUploads(String bucket, String prefix, String keyMarker, String uploadIdMarker, int max)
            throws IOException {
        requireBucket(bucket);
        byte[] base = bucketPrefix(bucket);
        byte[] start = concat(base, bytes(prefix == null ? "" : prefix));
        byte[] end = successor(start);
        if (keyMarker != null) {
            byte[] marker = concat(concat(base, bytes(keyMarker)), new byte[] {0});
            marker = uploadIdMarker == null ? successor(marker) : concat(concat(marker, bytes(uploadIdMarker)), new byte[] {0});
            if (marker != null && Arrays.compareUnsigned(marker, start) > 0) {
                start = marker;
            }
        }
        List<UploadInfo> out = new ArrayList<>();
        try (EntryIterator it = uploads.scan(new KeyRange(start, end))) {
            while (it.hasNext() && out.size() < max) {
                Entry e = it.next();
                byte[] k = e.key();
                String key = new String(k, base.length, k.length - base.length - 1 - UPLOAD_ID_CHARS, StandardCharsets.UTF_8);
                String id = new String(k, k.length - UPLOAD_ID_CHARS, UPLOAD_ID_CHARS, StandardCharsets.US_ASCII);
                out.add(RowCodec.decodeUpload(bucket, key, id, e.value()));
            }
        }
        return out;
    }

    @Override
    public ObjectInfo completeUpload(String bucket, String key, String uploadId, List<CompletedPart> requested,
                                     long minPartSize) throws IOException {
        return completeUpload(bucket, key, uploadId, requested, minPartSize, false, null);
    }

    @Override
    public ObjectInfo completeUpload(String bucket, String key, String uploadId, List<CompletedPart> requested,
                                     long minPartSize, boolean onlyIfAbsent, String ifMatch) throws IOException {
        return completeUpload(bucket, key, uploadId, requested, minPartSize, onlyIfAbsent, ifMatch, null, Map.of());
    }

    @Override
    public ObjectInfo completeUpload(String bucket, String key, String uploadId, List<CompletedPart> requested,
                                     long minPartSize, boolean onlyIfAbsent, String ifMatch,
                                     ObjectAttributes attributes, Map<String, String> checksums) throws IOException {
        ReadWriteLock bucketLock = bucketLock(bucket);
        bucketLock.readLock().lock();
        try (StripedLocks.Held u = uploadLocks.lock(uploadId)) {
            UploadInfo upload = upload(bucket, key, uploadId);
            Map<Integer, PartInfo> stored = new HashMap<>();
            for (PartInfo p : listParts(bucket, key, uploadId, 0, Integer.MAX_VALUE)) {
                stored.put(p.partNumber(), p);
            }
            List<PartInfo> chosen = MultipartAssembly.select(requested, stored, minPartSize);
            ContentSource whole = MultipartAssembly.concatenate(chosen, (sha, size) -> openStable(sha, size));
            long[] sizes = chosen.stream().mapToLong(PartInfo::size).toArray();
            ObjectInfo info = write(bucket, key, attributes == null ? upload.attributes() : attributes, whole,
                    MultipartAssembly.etag(chosen), chosen.size(), checksums, onlyIfAbsent, ifMatch, sizes);
            dropUpload(upload);
            return info;
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    @Override
    public void abortUpload(String bucket, String key, String uploadId) throws IOException {
        ReadWriteLock bucketLock = bucketLock(bucket);
        bucketLock.readLock().lock();
        try (StripedLocks.Held u = uploadLocks.lock(uploadId)) {
            dropUpload(upload(bucket, key, uploadId));
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    @Override
    public StoreStats stats() {
        return new StoreStats(logicalBytes.get(), physicalBytes.get());
    }

    /** Stops the background sweep, waiting for one in progress; the engine stays open. */
    @Override
    public void close() {
        java.util.concurrent.ScheduledExecutorService s = sweeper;
        if (s == null) {
            return;
        }
        s.shutdown();
        try {
            s.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- internals

    /** REQUIRES: the upload's lock is held. */
    private void dropUpload(UploadInfo upload) throws IOException {
        List<PartInfo> held = listParts(upload.bucket(), upload.key(), upload.uploadId(), 0, Integer.MAX_VALUE);
        WriteBatch batch = new WriteBatch();
        batch.delete(uploads, uploadKey(upload.bucket(), upload.key(), upload.uploadId()));
        // Each part's reference outlives its row until released: journaled, so a crash cannot leak it.
        List<byte[]> releasing = new ArrayList<>(held.size());
        try {
            for (PartInfo p : held) {
                batch.delete(parts, partKey(upload.uploadId(), p.partNumber()));
                byte[] intent = intents.begin();
                releasing.add(intent);
                intents.putReference(batch, intent, REF_PART, p.sha256(), upload.bucket());
            }
            engine.write(batch);
            for (int i = 0; i < held.size(); i++) {
                release(held.get(i).sha256(), REF_PART, upload.bucket(), releasing.get(i));
            }
        } finally {
            releasing.forEach(intents::end);
        }
    }

    /**
     * Takes a reference on content of any size, storing it first if it is new, and journals the
     * reference under {@code intent} until the caller's row holds it (or it is released). New
     * content's chunks are written one by one, journaled, before the size row that makes them
     * reachable; if that fails they are deleted.
     */
    private boolean acquireLarge(String sha, byte kind, String bucket, ContentSource content, byte[] intent)
            throws IOException {
        try (StripedLocks.Held c = contentLocks.lock(sha)) {
            WriteBatch batch = new WriteBatch();
            RefChanges changes = new RefChanges();
            byte[] writing = null;
            try {
                if (blobs.get(Hex.decode(sha)) == null) {
                    writing = intents.begin();
                    WriteBatch start = new WriteBatch();
                    intents.putContent(start, writing, sha, content.size());
                    engine.write(start);
                    writeChunks(sha, content);
                    changes.newContentWritten(sha, content.size());
                    intents.delete(batch, writing);
                }
                changes.add(sha, kind, bucket, +1);
                changes.apply(batch);
                intents.putReference(batch, intent, kind, sha, bucket);
                engine.write(batch);
                return writing != null;
            } catch (IOException | RuntimeException e) {
                if (writing != null) {
                    try {
                        WriteBatch undo = new WriteBatch();
                        deleteChunks(undo, sha, content.size());
                        intents.delete(undo, writing);
                        engine.write(undo);
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
    private void release(String sha, byte kind, String bucket, byte[] intent) throws IOException {
        try (StripedLocks.Held c = contentLocks.lock(sha)) {
            WriteBatch batch = new WriteBatch();
            RefChanges changes = new RefChanges();
            changes.add(sha, kind, bucket, -1);
            changes.apply(batch);
            intents.delete(batch, intent);
            engine.write(batch);
        }
    }

    /** Deletes every chunk content of this size can have. */
    private void deleteChunks(WriteBatch batch, String sha, long size) {
        for (int i = 0; (long) i * CHUNK_BYTES < size; i++) {
            batch.delete(chunks, chunkKey(sha, i));
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
                chunks.put(chunkKey(sha, index++), chunk);
                written += n;
            }
        }
    }

    private static byte[] readSmall(ContentSource content) throws IOException {
        try (InputStream in = content.open()) {
            byte[] b = in.readNBytes((int) content.size());
            if (b.length != content.size()) {
                throw new IOException("content " + content.sha256() + " ended after " + b.length
                        + " of " + content.size() + " bytes");
            }
            return b;
        }
    }

    /** Content held by a reference the caller keeps for the whole read (upload parts). */
    private InputStream openStable(String sha, long size) throws IOException {
        ContentRead read = getContent(sha);
        if (read == null) {
            throw new CorruptionException("blobs/" + sha + ": referenced content is missing");
        }
        InputStream in = read.open(0, size);
        return new java.io.FilterInputStream(in) {
            @Override
            public void close() throws IOException {
                try {
                    super.close();
                } finally {
                    read.close();
                }
            }
        };
    }

    /**
     * Reference count changes for some digests, turned into batch operations. REQUIRES: the
     * content lock of every digest named is held while it is built and until the batch is written.
     */
    private final class RefChanges {
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
                try (EntryIterator it = isNew ? null : refs.scan(KeyRange.prefix(shaBytes))) {
                    while (it != null && it.hasNext()) {
                        Entry e = it.next();
                        String refKey = new String(e.key(), SHA_BYTES, e.key().length - SHA_BYTES, StandardCharsets.UTF_8);
                        counts.put(refKey, RowCodec.decodeCount(e.value(), "refs/" + sha));
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
                        batch.delete(refs, k);
                    } else {
                        counts.put(change.getKey(), now);
                        batch.put(refs, k, RowCodec.encodeCount(now));
                    }
                }
                byte[] data = newSmall.get(sha);
                if (counts.isEmpty()) {
                    if (data == null && !written.containsKey(sha)) {
                        reclaim(batch, sha, shaBytes);
                    }
                } else if (data != null) {
                    batch.put(blobs, shaBytes, RowCodec.encodeCount(data.length));
                    if (data.length > 0) {
                        batch.put(chunks, chunkKey(sha, 0), data);
                    }
                } else if (written.containsKey(sha)) {
                    batch.put(blobs, shaBytes, RowCodec.encodeCount(written.get(sha)));
                }
            }
        }

        private void reclaim(WriteBatch batch, String sha, byte[] shaBytes) throws IOException {
            byte[] sizeRow = blobs.get(shaBytes);
            if (sizeRow == null) {
                return;
            }
            long size = RowCodec.decodeCount(sizeRow, "blobs/" + sha);
            batch.delete(blobs, shaBytes);
            deleteChunks(batch, sha, size);
        }
    }

    /** Content of at most one chunk, already in memory. */
    private static final class SmallRead implements ObjectRead {
        private final ObjectInfo info;
        private final byte[] data;

        SmallRead(ObjectInfo info, byte[] data) {
            this.info = info;
            this.data = data;
        }

        @Override
        public ObjectInfo info() {
            return info;
        }

        @Override
        public long size() {
            return data.length;
        }

        @Override
        public InputStream open(long offset, long length) {
            return new java.io.ByteArrayInputStream(data, (int) offset, (int) length);
        }

        @Override
        public void close() {
        }
    }

    /** Content of several chunks, read lazily at a snapshot that {@link #close()} releases. */
    private class ChunkedContent implements ContentRead {
        private final String sha;
        private final long size;
        private final Snapshot snapshot;

        ChunkedContent(String sha, long size, Snapshot snapshot) {
            this.sha = sha;
            this.size = size;
            this.snapshot = snapshot;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public InputStream open(long offset, long length) {
            return new ChunkStream(CHUNK_BYTES, offset, offset + length, index -> {
                byte[] chunk = chunks.get(chunkKey(sha, index), new ReadOptions(snapshot, false));
                if (chunk == null) {
                    throw new CorruptionException("chunks/" + sha + "/" + index + ": missing");
                }
                checkChunk(sha, index, size, chunk);
                return chunk;
            });
        }

        @Override
        public void close() {
            snapshot.close();
        }
    }

    private final class ChunkedRead extends ChunkedContent implements ObjectRead {
        private final ObjectInfo info;

        ChunkedRead(ObjectInfo info, Snapshot snapshot) {
            super(info.sha256(), info.size(), snapshot);
            this.info = info;
        }

        @Override
        public ObjectInfo info() {
            return info;
        }

        @Override
        public long size() {
            return info.size();
        }
    }

    private static final Listing.Cursor EMPTY = new Listing.Cursor() {
        @Override
        public boolean hasNext() {
            return false;
        }

        @Override
        public ObjectInfo next() {
            throw new java.util.NoSuchElementException();
        }

        @Override
        public void close() {
        }
    };

    private static Listing.Cursor emptyCursor() {
        return EMPTY;
    }

    private static void checkChunk(String sha, int index, long size, byte[] data) throws CorruptionException {
        long expected = Math.min(CHUNK_BYTES, size - (long) index * CHUNK_BYTES);
        if (data.length != expected) {
            throw new CorruptionException("chunks/" + sha + "/" + index + ": " + data.length
                    + " bytes, expected " + expected);
        }
    }

    private ObjectInfo decodeObjectOrNull(String key, byte[] row) throws CorruptionException {
        return row == null ? null : decodeObject(key, row);
    }

    /** An engine row; or, from a store written before objects were rows, the service's own layout (version 1). */
    private ObjectInfo decodeObject(String key, byte[] value) throws CorruptionException {
        if (value.length > 0 && value[0] == RowCodec.FORMAT_VERSION) {
            return RowCodec.decodeObject(key, value);
        }
        return ObjectRow.fromRow(key, objects.decodeRow(value));
    }

    private BucketInfo requireBucket(String bucket) throws StoreException {
        BucketInfo b = bucketCache.get(bucket);
        if (b == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
        return b;
    }

    private ReadWriteLock bucketLock(String bucket) {
        return bucketLocks[(bucket.hashCode() & 0x7FFFFFFF) % bucketLocks.length];
    }

    private static boolean isUploadId(String id) {
        if (id == null || id.length() != UPLOAD_ID_CHARS) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bucketPrefix(String bucket) {
        return concat(bytes(bucket), new byte[] {0});
    }

    private static byte[] objectKey(String bucket, String key) {
        return concat(bucketPrefix(bucket), bytes(key));
    }

    private static byte[] uploadKey(String bucket, String key, String uploadId) {
        return concat(concat(objectKey(bucket, key), new byte[] {0}), bytes(uploadId));
    }

    private static byte[] partKey(String uploadId, int partNumber) {
        return ByteBuffer.allocate(UPLOAD_ID_CHARS + 4).put(bytes(uploadId)).putInt(partNumber).array();
    }

    private static byte[] chunkKey(String sha, int index) {
        return ByteBuffer.allocate(SHA_BYTES + 4).put(Hex.decode(sha)).putInt(index).array();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** The smallest key greater than every key starting with {@code prefix}; null if none. */
    static byte[] successor(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xFF) {
                byte[] next = Arrays.copyOf(prefix, i + 1);
                next[i]++;
                return next;
            }
        }
        return null;
    }
}
