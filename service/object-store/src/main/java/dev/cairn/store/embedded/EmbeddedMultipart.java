package dev.cairn.store.embedded;

import static dev.cairn.store.embedded.EmbeddedKeys.REF_PART;
import static dev.cairn.store.embedded.EmbeddedKeys.UPLOAD_ID_CHARS;
import static dev.cairn.store.embedded.EmbeddedKeys.bucketPrefix;
import static dev.cairn.store.embedded.EmbeddedKeys.bytes;
import static dev.cairn.store.embedded.EmbeddedKeys.concat;
import static dev.cairn.store.embedded.EmbeddedKeys.isUploadId;
import static dev.cairn.store.embedded.EmbeddedKeys.partKey;
import static dev.cairn.store.embedded.EmbeddedKeys.successor;
import static dev.cairn.store.embedded.EmbeddedKeys.uploadKey;

import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.WriteBatch;
import dev.cairn.store.CompleteRequest;
import dev.cairn.store.CompletedPart;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import dev.cairn.store.MultipartAssembly;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.PartInfo;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreException;
import dev.cairn.store.UploadInfo;
import java.time.Clock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * Multipart uploads: tables {@code uploads} (bucket, 0x00, key, 0x00, upload id) and
 * {@code parts} (upload id, part number). A part holds a reference of kind {@code p} on its
 * content until its upload is completed or aborted.
 *
 * <p>Locks: a change takes its bucket's read lock, then the upload's lock (striped), then content
 * locks; completing an upload then takes the key's lock to write the object
 * ({@link EmbeddedObjects#write}). Listing takes no lock. Thread-safe.
 */
final class EmbeddedMultipart {
    private final EmbeddedTables t;
    private final EmbeddedBuckets buckets;
    private final EmbeddedContent content;
    private final EmbeddedReaders readers;
    private final EmbeddedObjects objects;
    private final StripedLocks uploadLocks = new StripedLocks(256);
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;

    EmbeddedMultipart(EmbeddedTables t, EmbeddedBuckets buckets, EmbeddedContent content, EmbeddedReaders readers,
                      EmbeddedObjects objects, Clock clock) {
        this.t = t;
        this.clock = clock;
        this.buckets = buckets;
        this.content = content;
        this.readers = readers;
        this.objects = objects;
    }

    UploadInfo create(String bucket, String key, ObjectAttributes attributes) throws IOException {
        ReadWriteLock bucketLock = buckets.lock(bucket);
        bucketLock.readLock().lock();
        try {
            buckets.require(bucket);
            byte[] id = new byte[UPLOAD_ID_CHARS / 2];
            random.nextBytes(id);
            UploadInfo u = new UploadInfo(bucket, key, Hex.encode(id), attributes, clock.millis());
            t.uploads.put(uploadKey(bucket, key, u.uploadId()), EmbeddedRows.encodeUpload(u));
            return u;
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    UploadInfo upload(String bucket, String key, String uploadId) throws IOException {
        buckets.require(bucket);
        if (!isUploadId(uploadId)) {
            throw new StoreException(StoreException.Reason.NO_SUCH_UPLOAD, uploadId);
        }
        byte[] row = t.uploads.get(uploadKey(bucket, key, uploadId));
        if (row == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_UPLOAD, uploadId);
        }
        return EmbeddedRows.decodeUpload(bucket, key, uploadId, row);
    }

    PartInfo putPart(String bucket, String key, String uploadId, int partNumber, ContentSource source)
            throws IOException {
        ReadWriteLock bucketLock = buckets.lock(bucket);
        bucketLock.readLock().lock();
        try {
            upload(bucket, key, uploadId);
            String etag = ContentSource.md5Of(source);
            Intents intents = t.intents;
            byte[] intent = intents.begin();
            try {
                content.acquireLarge(source.sha256(), REF_PART, bucket, source, intent);
            } catch (IOException | RuntimeException e) {
                intents.end(intent);
                throw e;
            }
            boolean done = false;
            try (StripedLocks.Held u = uploadLocks.lock(uploadId)) {
                upload(bucket, key, uploadId);
                byte[] rowKey = partKey(uploadId, partNumber);
                byte[] oldRow = t.parts.get(rowKey);
                PartInfo part = new PartInfo(partNumber, source.sha256(), source.size(), etag, clock.millis());
                PartInfo old = oldRow == null ? null : EmbeddedRows.decodePart(partNumber, oldRow, "parts/" + uploadId);
                try (StripedLocks.Held c = content.lock(old == null ? null : old.sha256())) {
                    WriteBatch batch = new WriteBatch();
                    if (old != null) {
                        EmbeddedContent.RefChanges changes = content.new RefChanges();
                        changes.add(old.sha256(), REF_PART, bucket, -1);
                        changes.apply(batch);
                    }
                    batch.put(t.parts, rowKey, EmbeddedRows.encodePart(part));
                    intents.delete(batch, intent);
                    t.engine.write(batch);
                }
                done = true;
                return part;
            } finally {
                try {
                    if (!done) {
                        content.release(source.sha256(), REF_PART, bucket, intent);
                    }
                } finally {
                    intents.end(intent);
                }
            }
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    List<PartInfo> listParts(String bucket, String key, String uploadId, int afterPart, int maxParts)
            throws IOException {
        upload(bucket, key, uploadId);
        List<PartInfo> out = new ArrayList<>();
        byte[] idBytes = bytes(uploadId);
        try (EntryIterator it = t.parts.scan(new KeyRange(partKey(uploadId, afterPart + 1), successor(idBytes)))) {
            while (it.hasNext() && out.size() < maxParts) {
                Entry e = it.next();
                int number = ByteBuffer.wrap(e.key(), idBytes.length, 4).getInt();
                out.add(EmbeddedRows.decodePart(number, e.value(), "parts/" + uploadId));
            }
        }
        return out;
    }

    List<UploadInfo> listUploads(String bucket, String prefix, String keyMarker, String uploadIdMarker, int max)
            throws IOException {
        buckets.require(bucket);
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
        try (EntryIterator it = t.uploads.scan(new KeyRange(start, end))) {
            while (it.hasNext() && out.size() < max) {
                Entry e = it.next();
                byte[] k = e.key();
                String key = new String(k, base.length, k.length - base.length - 1 - UPLOAD_ID_CHARS, StandardCharsets.UTF_8);
                String id = new String(k, k.length - UPLOAD_ID_CHARS, UPLOAD_ID_CHARS, StandardCharsets.US_ASCII);
                out.add(EmbeddedRows.decodeUpload(bucket, key, id, e.value()));
            }
        }
        return out;
    }

    /** {@code attributes} null: the upload's own; {@code checksums}: those the service computed over the parts. */
    ObjectInfo complete(CompleteRequest request) throws IOException {
        String bucket = request.bucket();
        String key = request.key();
        String uploadId = request.uploadId();
        List<CompletedPart> requested = request.parts();
        long minPartSize = request.minPartSize();
        ObjectAttributes attributes = request.attributes();
        Map<String, String> checksums = request.checksums();
        boolean onlyIfAbsent = request.onlyIfAbsent();
        String ifMatch = request.ifMatch();
        ReadWriteLock bucketLock = buckets.lock(bucket);
        bucketLock.readLock().lock();
        try (StripedLocks.Held u = uploadLocks.lock(uploadId)) {
            UploadInfo upload = upload(bucket, key, uploadId);
            Map<Integer, PartInfo> stored = new HashMap<>();
            for (PartInfo p : listParts(bucket, key, uploadId, 0, Integer.MAX_VALUE)) {
                stored.put(p.partNumber(), p);
            }
            List<PartInfo> chosen = MultipartAssembly.select(requested, stored, minPartSize);
            ContentSource whole = MultipartAssembly.concatenate(chosen, readers::openStable);
            long[] sizes = chosen.stream().mapToLong(PartInfo::size).toArray();
            PutRequest put = PutRequest.of(bucket, key, whole, MultipartAssembly.etag(chosen))
                    .withAttributes(attributes == null ? upload.attributes() : attributes).withPartCount(chosen.size())
                    .withChecksums(checksums).withOnlyIfAbsent(onlyIfAbsent).withIfMatch(ifMatch);
            ObjectInfo info = objects.write(put, sizes);
            drop(upload);
            return info;
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    void abort(String bucket, String key, String uploadId) throws IOException {
        ReadWriteLock bucketLock = buckets.lock(bucket);
        bucketLock.readLock().lock();
        try (StripedLocks.Held u = uploadLocks.lock(uploadId)) {
            drop(upload(bucket, key, uploadId));
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    /** Aborts every upload of the bucket. REQUIRES: the bucket's write lock is held. */
    void abortAll(String bucket) throws IOException {
        for (UploadInfo u : listUploads(bucket, "", null, null, Integer.MAX_VALUE)) {
            abort(bucket, u.key(), u.uploadId());
        }
    }

    /** REQUIRES: the upload's lock is held. */
    private void drop(UploadInfo upload) throws IOException {
        Intents intents = t.intents;
        List<PartInfo> held = listParts(upload.bucket(), upload.key(), upload.uploadId(), 0, Integer.MAX_VALUE);
        WriteBatch batch = new WriteBatch();
        batch.delete(t.uploads, uploadKey(upload.bucket(), upload.key(), upload.uploadId()));
        // Each part's reference outlives its row until released: journaled, so a crash cannot leak it.
        List<byte[]> releasing = new ArrayList<>(held.size());
        try {
            for (PartInfo p : held) {
                batch.delete(t.parts, partKey(upload.uploadId(), p.partNumber()));
                byte[] intent = intents.begin();
                releasing.add(intent);
                intents.putReference(batch, intent, REF_PART, p.sha256(), upload.bucket());
            }
            t.engine.write(batch);
            for (int i = 0; i < held.size(); i++) {
                content.release(held.get(i).sha256(), REF_PART, upload.bucket(), releasing.get(i));
            }
        } finally {
            releasing.forEach(intents::end);
        }
    }
}
