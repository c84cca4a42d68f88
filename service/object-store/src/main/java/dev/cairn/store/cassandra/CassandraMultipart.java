package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.CassandraKeys.KIND_PART;
import static dev.cairn.store.cassandra.CassandraKeys.partSlot;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
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
import dev.cairn.store.Utf8Order;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Multipart uploads: tables {@code uploads} ((bucket, key, upload id) → blob) and {@code parts}
 * ((upload id, part number) → one blob cell, {@link RowFormat}). A part's write is recorded as a
 * reference under slot {@link CassandraKeys#partSlot} until its upload is completed or aborted,
 * as an object's is.
 *
 * <p>Takes no lock: a part written while its upload is aborted or completed finds the upload
 * gone afterwards and drops itself. Thread-safe.
 */
final class CassandraMultipart {
    private final CassandraTables t;
    private final CassandraBuckets buckets;
    private final CassandraContent content;
    private final CassandraReaders readers;
    private final CassandraObjects objects;
    private final SecureRandom random = new SecureRandom();

    CassandraMultipart(CassandraTables t, CassandraBuckets buckets, CassandraContent content, CassandraReaders readers,
                       CassandraObjects objects) {
        this.t = t;
        this.buckets = buckets;
        this.content = content;
        this.readers = readers;
        this.objects = objects;
    }

    UploadInfo create(String bucket, String key, ObjectAttributes attributes) throws StoreException {
        buckets.require(bucket);
        byte[] id = new byte[16];
        random.nextBytes(id);
        UploadInfo u = new UploadInfo(bucket, key, Hex.encode(id), attributes, t.clock.millis());
        t.session.execute(t.write(t.q.insertUpload.bind(bucket, key, u.uploadId(),
                RowFormat.encodeUpload(attributes, u.initiatedMillis()))));
        return u;
    }

    UploadInfo upload(String bucket, String key, String uploadId) throws StoreException {
        buckets.require(bucket);
        Row r = t.session.execute(t.protocol(t.q.selectUpload.bind(bucket, key, uploadId))).one();
        if (r == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_UPLOAD, uploadId);
        }
        RowFormat.UploadRow u = RowFormat.decodeUpload(r.getByteBuffer("row"));
        return new UploadInfo(bucket, key, uploadId, u.attributes(), u.initiatedMillis());
    }

    PartInfo putPart(String bucket, String key, String uploadId, int partNumber, ContentSource source)
            throws IOException {
        upload(bucket, key, uploadId);
        String slot = partSlot(uploadId, partNumber);
        WriteId wid = t.ids.next();
        content.recordWrite(bucket, KIND_PART, slot, wid, source.sha256());
        CassandraContent.Stored stored = content.store(source);
        String md5 = source.md5() != null ? source.md5() : stored.md5() != null ? stored.md5() : ContentSource.md5Of(source);
        PartInfo part = new PartInfo(partNumber, source.sha256(), source.size(), md5, wid.timestampMicros() / 1000);
        List<com.datastax.oss.driver.api.core.cql.Statement<?>> writes = new ArrayList<>();
        writes.add(t.write(t.q.insertPart.bind(uploadId, partNumber,
                RowFormat.encodePart(wid, stored.generation(), part))).setQueryTimestamp(wid.timestampMicros()));
        if (stored.fresh()) {
            writes.add(content.complete(source.sha256(), stored));
        }
        t.all(writes);
        Row current = t.session.execute(t.protocol(t.q.selectPart.bind(uploadId, partNumber))).one();
        if (current == null) {
            content.releaseWrites(bucket, KIND_PART, slot, w -> w.timestampMicros() <= wid.timestampMicros());
        } else {
            WriteId winner = RowFormat.writeIdOf(current.getByteBuffer("row"));
            content.releaseWrites(bucket, KIND_PART, slot, w -> w.compareTo(winner) < 0);
        }
        if (t.session.execute(t.protocol(t.q.selectUpload.bind(bucket, key, uploadId))).one() == null) {
            // Aborted or completed meanwhile: this part must not stay referenced.
            dropPart(bucket, uploadId, partNumber);
            throw new StoreException(StoreException.Reason.NO_SUCH_UPLOAD, uploadId);
        }
        return part;
    }

    List<PartInfo> listParts(String bucket, String key, String uploadId, int afterPart, int maxParts)
            throws StoreException {
        upload(bucket, key, uploadId);
        List<PartInfo> out = new ArrayList<>();
        for (Row r : t.session.execute(t.protocol(t.q.selectPartsAfter.bind(uploadId, afterPart, maxParts)))) {
            out.add(RowFormat.decodePart(r.getInt("part_number"), r.getByteBuffer("row")).value());
        }
        return List.copyOf(out);
    }

    List<UploadInfo> listUploads(String bucket, String prefix, String keyMarker, String uploadIdMarker, int max)
            throws StoreException {
        buckets.require(bucket);
        String p = prefix == null ? "" : prefix;
        BoundStatement st;
        if (keyMarker != null && uploadIdMarker != null) {
            st = t.q.selectUploadsAfterId.bind(bucket, keyMarker, uploadIdMarker);
        } else if (keyMarker != null && Utf8Order.compare(keyMarker, p) >= 0) {
            st = t.q.selectUploadsAfterKey.bind(bucket, keyMarker);
        } else {
            st = t.q.selectUploadsFrom.bind(bucket, p);
        }
        List<UploadInfo> out = new ArrayList<>();
        for (Row r : t.session.execute(t.protocol(st))) {
            String k = r.getString("key");
            if (Utf8Order.compare(k, p) < 0) {
                continue;
            }
            if (!k.startsWith(p) || out.size() == max) {
                break;
            }
            RowFormat.UploadRow u = RowFormat.decodeUpload(r.getByteBuffer("row"));
            out.add(new UploadInfo(bucket, k, r.getString("upload_id"), u.attributes(), u.initiatedMillis()));
        }
        return List.copyOf(out);
    }

    /**
     * {@code attributes} null: the upload's own; {@code checksums}: those the service computed over
     * the parts; {@code onlyIfAbsent}, {@code ifMatch}: the condition on the object replaced (the
     * upload stays when it fails).
     */
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
        UploadInfo u = upload(bucket, key, uploadId);
        Map<Integer, PartInfo> parts = new TreeMap<>();
        Map<String, UUID> generations = new HashMap<>();
        for (Row r : t.session.execute(t.protocol(t.q.selectParts.bind(uploadId)))) {
            RowFormat.Stored<PartInfo> p = RowFormat.decodePart(r.getInt("part_number"), r.getByteBuffer("row"));
            parts.put(p.value().partNumber(), p.value());
            generations.put(p.value().sha256(), p.generation());
        }
        List<PartInfo> chosen = MultipartAssembly.select(requested, parts, minPartSize);
        ContentSource whole = MultipartAssembly.concatenate(chosen, (sha, size) -> {
            InputStream in = readers.openAll(sha, generations.get(sha), size);
            if (in == null) {
                throw new StoreException(StoreException.Reason.CONTENT_GONE, "part content " + sha);
            }
            return in;
        });
        upload(bucket, key, uploadId);
        PutRequest put = PutRequest.of(bucket, key, whole, MultipartAssembly.etag(chosen))
                .withAttributes(attributes == null ? u.attributes() : attributes).withPartCount(chosen.size())
                .withChecksums(checksums).withOnlyIfAbsent(onlyIfAbsent).withIfMatch(ifMatch);
        ObjectInfo info = objects.write(put, chosen.stream().mapToLong(PartInfo::size).toArray(), -1);
        drop(bucket, key, uploadId);
        return info;
    }

    void abort(String bucket, String key, String uploadId) throws IOException {
        upload(bucket, key, uploadId);
        drop(bucket, key, uploadId);
    }

    /** Drops every upload of the bucket. */
    void abortAll(String bucket) throws IOException {
        for (Row r : t.session.execute(t.protocol(t.q.selectUploads.bind(bucket)))) {
            drop(bucket, r.getString("key"), r.getString("upload_id"));
        }
    }

    private void drop(String bucket, String key, String uploadId) throws IOException {
        t.session.execute(t.write(t.q.deleteUpload.bind(bucket, key, uploadId)));
        for (Row r : t.session.execute(t.protocol(t.q.selectParts.bind(uploadId)))) {
            dropPart(bucket, uploadId, r.getInt("part_number"));
        }
    }

    private void dropPart(String bucket, String uploadId, int partNumber) throws IOException {
        long ts = t.ids.nextMicros();
        t.session.execute(t.write(t.q.deletePart.bind(uploadId, partNumber)).setQueryTimestamp(ts));
        content.releaseWrites(bucket, KIND_PART, partSlot(uploadId, partNumber), w -> w.timestampMicros() <= ts);
    }
}
