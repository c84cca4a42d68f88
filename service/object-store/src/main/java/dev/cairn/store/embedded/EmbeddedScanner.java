package dev.cairn.store.embedded;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Engine;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.StorageOrder;
import dev.cairn.engine.Table;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ChunkStream;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRecordCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the embedded store's tables for full traversals such as backups, typically on an engine
 * checkpoint opened read-only: the buckets, each bucket's object rows in key order, and content
 * by digest; a multipart object's row comes with its part sizes. Uses the store's own key layout ({@link EmbeddedKeys}) and row decoders
 * ({@link EmbeddedRows}, {@link ObjectRow}, {@link ObjectRecordCodec}); writes nothing, so it works on {@link Engine#openReadOnly}. Every read uses the
 * {@link ReadOptions} given — {@link ReadOptions#SCAN} keeps the traversal out of every cache.
 *
 * <p>Thread-safety: safe for concurrent use when the engine is.
 */
public final class EmbeddedScanner {
    private final Table buckets;
    private final Table objects;
    private final Table blobs;
    private final Table chunks;
    private final ReadOptions read;

    /** Receives object rows in key order, each with its part sizes. */
    @FunctionalInterface
    public interface RowVisitor {
        /**
         * @param partSizes of a multipart object, as recorded for this version of it; null when it
         *                  is not multipart or no layout of it is recorded. Not checked against the row.
         */
        void visit(ObjectInfo row, long[] partSizes) throws IOException;
    }

    /** Decides on one content before its bytes are read. */
    @FunctionalInterface
    public interface ContentFilter {
        boolean wants(String sha256, int size);
    }

    /**
     * Receives one content; {@code buffer} is only valid during the call, unless the visitor
     * supplied it ({@link dev.cairn.engine.StorageOrder.Visitor#spanBuffer}, whose contract the
     * two default methods share).
     */
    @FunctionalInterface
    public interface ContentVisitor {
        void visit(String sha256, byte[] buffer, int offset, int length) throws IOException;

        default byte[] spanBuffer(int length) throws IOException {
            return null;
        }

        default void spanVisited() throws IOException {
        }
    }

    private final PartLayouts layouts;

    public EmbeddedScanner(Engine engine, ReadOptions read) throws IOException {
        this.buckets = engine.table("buckets");
        this.objects = engine.table("objects");
        this.blobs = engine.table("blobs");
        this.chunks = engine.table("chunks");
        this.layouts = new PartLayouts(engine.table("layouts"));
        this.read = read;
    }

    /** Every bucket, in UTF-8 order of names. */
    public List<BucketInfo> buckets() throws IOException {
        List<BucketInfo> out = new ArrayList<>();
        try (EntryIterator it = buckets.scan(KeyRange.all(), read)) {
            while (it.hasNext()) {
                Entry e = it.next();
                String name = new String(e.key(), StandardCharsets.UTF_8);
                out.add(EmbeddedRows.decodeBucket(name, e.value()));
            }
        }
        return out;
    }

    /**
     * Visits the object rows of {@code bucket} in UTF-8 key order, after {@code afterKey} when not
     * null, each with its part sizes (one more read per multipart object).
     */
    public void scan(String bucket, String afterKey, RowVisitor visitor) throws IOException {
        byte[] prefix = EmbeddedKeys.bucketPrefix(bucket);
        byte[] start = afterKey == null ? prefix
                : EmbeddedKeys.concat(EmbeddedKeys.objectKey(bucket, afterKey), new byte[] {0});
        byte[] end = EmbeddedKeys.successor(prefix);
        try (EntryIterator it = objects.scan(new KeyRange(start, end), read)) {
            while (it.hasNext()) {
                Entry e = it.next();
                String key = new String(e.key(), prefix.length, e.key().length - prefix.length, StandardCharsets.UTF_8);
                ObjectInfo row = decodeObject(key, e.value());
                visitor.visit(row, layouts.ofScanned(bucket, row, null, read));
            }
        }
    }

    private ObjectInfo decodeObject(String key, byte[] value) throws CorruptionException {
        if (ObjectRecordCodec.isRecord(value)) {
            return ObjectRecordCodec.decode(key, value, "objects/" + key);
        }
        return ObjectRow.fromRow(key, objects.decodeRow(value));
    }

    /**
     * Visits every content of one to {@code CHUNK_BYTES - 1} bytes (a single chunk) that
     * {@code filter} wants, in the order the engine stores the bytes
     * ({@link Table#scanInStorageOrder}): for a full traversal, one sequential pass over the value
     * files instead of two lookups per content. The bytes are the chunk's, checked by the engine's
     * checksum only: the caller checks them against the digest. Empty content and content of
     * several chunks are not visited; {@link #openContent} reads them.
     */
    public void scanSmallContent(ContentFilter filter, ContentVisitor visitor) throws IOException {
        int keyBytes = EmbeddedKeys.SHA_BYTES + 4;
        chunks.scanInStorageOrder(KeyRange.all(), read,
                (key, length) -> key.length == keyBytes && isFirstChunk(key) && length > 0
                        && length < EmbeddedObjectStore.CHUNK_BYTES
                        && filter.wants(Hex.encode(Arrays.copyOf(key, EmbeddedKeys.SHA_BYTES)), length),
                new StorageOrder.Visitor() {
                    @Override
                    public void visit(byte[] key, byte[] buffer, int offset, int length) throws IOException {
                        visitor.visit(Hex.encode(Arrays.copyOf(key, EmbeddedKeys.SHA_BYTES)), buffer, offset, length);
                    }

                    @Override
                    public byte[] spanBuffer(int length) throws IOException {
                        return visitor.spanBuffer(length);
                    }

                    @Override
                    public void spanVisited() throws IOException {
                        visitor.spanVisited();
                    }
                });
    }

    private static boolean isFirstChunk(byte[] chunkKey) {
        for (int i = EmbeddedKeys.SHA_BYTES; i < chunkKey.length; i++) {
            if (chunkKey[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** The content with this digest, read chunk by chunk as consumed; null when the store holds none. */
    public InputStream openContent(String sha256) throws IOException {
        byte[] sizeRow = blobs.get(Hex.decode(sha256), read);
        if (sizeRow == null) {
            return null;
        }
        long size = EmbeddedRows.decodeCount(sizeRow, "blobs/" + sha256);
        if (size == 0) {
            return new ByteArrayInputStream(new byte[0]);
        }
        return new ChunkStream(EmbeddedObjectStore.CHUNK_BYTES, 0, size, index -> {
            byte[] key = EmbeddedKeys.chunkKey(sha256, index);
            byte[] data = chunks.get(key, read);
            long expected = Math.min(EmbeddedObjectStore.CHUNK_BYTES, size - (long) index * EmbeddedObjectStore.CHUNK_BYTES);
            if (data == null || data.length != expected) {
                throw new CorruptionException("chunks/" + sha256 + "/" + index + ": "
                        + (data == null ? "missing" : data.length + " bytes, expected " + expected));
            }
            return data;
        });
    }
}
