package dev.cairn.store.embedded;

import static dev.cairn.store.embedded.EmbeddedKeys.chunkKey;
import static dev.cairn.store.embedded.EmbeddedObjectStore.CHUNK_BYTES;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Snapshot;
import dev.cairn.store.ChunkStream;
import dev.cairn.store.ContentRead;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reading content: one chunk at once into memory ({@link SmallRead}), more lazily chunk by chunk
 * at an engine snapshot that the read holds until closed ({@link ChunkedContent}), so a read
 * never sees a mix of two writes. Takes no lock. Thread-safe; each read it returns is used by one
 * thread.
 */
final class EmbeddedReaders {
    private final EmbeddedTables t;

    EmbeddedReaders(EmbeddedTables t) {
        this.t = t;
    }

    /** Content by digest, or null when none is stored. */
    ContentRead content(String sha256) throws IOException {
        byte[] sha = Hex.decode(sha256);
        byte[] sizeRow = t.blobs.get(sha);
        if (sizeRow == null) {
            return null;
        }
        long size = EmbeddedRows.decodeCount(sizeRow, "blobs/" + sha256);
        if (size <= CHUNK_BYTES) {
            byte[] data = size == 0 ? new byte[0] : t.chunks.get(chunkKey(sha256, 0));
            if (data == null) {
                return null;
            }
            checkChunk(sha256, 0, size, data);
            return new SmallRead(null, data);
        }
        Snapshot snap = t.engine.snapshot();
        try {
            if (t.blobs.get(sha, ReadOptions.at(snap)) == null) {
                snap.close();
                return null;
            }
            return new ChunkedContent(sha256, size, snap);
        } catch (IOException | RuntimeException e) {
            snap.close();
            throw e;
        }
    }

    /** Content held by a reference the caller keeps for the whole read (upload parts). */
    InputStream openStable(String sha, long size) throws IOException {
        ContentRead read = content(sha);
        if (read == null) {
            throw new CorruptionException("blobs/" + sha + ": referenced content is missing");
        }
        InputStream in = read.open(0, size);
        return new FilterInputStream(in) {
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

    /** The object's content of at most one chunk, or null when it is gone (reclaimed). */
    ObjectRead small(ObjectInfo info, ReadOptions at) throws IOException {
        byte[] data = info.size() == 0 ? new byte[0] : t.chunks.get(chunkKey(info.sha256(), 0), at);
        if (data == null) {
            return null;
        }
        checkChunk(info.sha256(), 0, info.size(), data);
        return new SmallRead(info, data);
    }

    /** The object's content of more than one chunk, read at {@code snapshot}, which the read now owns. */
    ObjectRead chunked(ObjectInfo info, Snapshot snapshot) {
        return new ChunkedRead(info, snapshot);
    }

    static void checkChunk(String sha, int index, long size, byte[] data) throws CorruptionException {
        long expected = Math.min(CHUNK_BYTES, size - (long) index * CHUNK_BYTES);
        if (data.length != expected) {
            throw new CorruptionException("chunks/" + sha + "/" + index + ": " + data.length
                    + " bytes, expected " + expected);
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
            return new ByteArrayInputStream(data, (int) offset, (int) length);
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
                byte[] chunk = t.chunks.get(chunkKey(sha, index), new ReadOptions(snapshot, false));
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
}
