package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.CassandraKeys.KIND_READ;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.cairn.store.ChunkStream;
import dev.cairn.store.ContentRead;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Reading content: one chunk at once into memory, more lazily chunk by chunk under a lease (a
 * reference of kind {@link CassandraKeys#KIND_READ} with a TTL) that keeps the generation from
 * being reclaimed until the read is closed. Takes no lock. Thread-safe; each read it returns is
 * used by one thread.
 */
final class CassandraReaders {
    /** A reader's lease on multi-chunk content expires after this if the reader never closes. */
    static final int READ_LEASE_TTL_SECONDS = 24 * 3600;
    /** While a reclaimer withdraws its doom mark, a reader holding a lease waits this long between looks. */
    private static final long DOOM_WAIT_MILLIS = 20;
    private static final int DOOM_WAITS = 100;

    private final CassandraTables t;
    private final CassandraContent content;

    CassandraReaders(CassandraTables t, CassandraContent content) {
        this.t = t;
        this.content = content;
    }

    /** Content by digest: the first usable generation that can be opened, or null. */
    ContentRead content(String sha256) {
        if (!Hex.isSha256(sha256) || !isHeld(sha256)) {
            return null;
        }
        for (Row r : t.session.execute(t.protocol(t.q.selectGenerations.bind(sha256)))) {
            if (CassandraContent.usable(r)) {
                ChunkedContent c = open(sha256, r.getUuid("generation"), r.getLong("size"));
                if (c != null) {
                    return c;
                }
            }
        }
        return null;
    }

    private boolean isHeld(String sha256) {
        return t.session.execute(t.protocol(t.q.selectHolder.bind(sha256))).one() != null;
    }

    /** The object's content at its generation, or null when the generation is gone or doomed. */
    ObjectRead object(ObjectInfo info, UUID gen) {
        ChunkedContent c = open(info.sha256(), gen, info.size());
        return c == null ? null : new StoredObject(info, c);
    }

    /** The whole content of a generation, or null when it is gone or doomed. */
    InputStream openAll(String sha, UUID gen, long size) throws IOException {
        ChunkedContent c = open(sha, gen, size);
        return c == null ? null : c.openAll();
    }

    /**
     * Opens a generation of content. One chunk is read at once; larger content is read lazily
     * under a lease so that it is not reclaimed while open. Null when the generation is gone or
     * doomed.
     */
    private ChunkedContent open(String sha, UUID gen, long size) {
        if (size <= CassandraSchema.CHUNK_BYTES) {
            if (size == 0) {
                return new ChunkedContent(sha, gen, size, new byte[0], null);
            }
            byte[] first = readChunk(sha, gen, 0, size, t.readCl);
            if (first == null) {
                first = readChunk(sha, gen, 0, size, t.protocolCl);
            }
            return first == null ? null : new ChunkedContent(sha, gen, size, first, null);
        }
        String leaseSlot = Hex.encode(Uuids.timeBased().toString().getBytes(StandardCharsets.US_ASCII));
        WriteId lease = t.ids.next();
        t.session.execute(t.write(t.q.insertLease.bind(sha, leaseSlot, lease.buffer(), READ_LEASE_TTL_SECONDS)));
        // A doom mark seen now belongs to a reclaimer that will see the lease and withdraw it,
        // or that passed its check before the lease and deletes the generation.
        for (int i = 0; i < DOOM_WAITS; i++) {
            Row g = t.session.execute(t.protocol(t.q.selectGeneration.bind(sha, gen))).one();
            if (g == null || g.isNull("size") || g.isNull("complete") || !g.getBoolean("complete")) {
                break;
            }
            if (g.getSet("dooms", UUID.class).isEmpty()) {
                return new ChunkedContent(sha, gen, size, null, new Lease(leaseSlot, lease));
            }
            pause(1);
        }
        releaseLease(sha, leaseSlot, lease);
        return null;
    }

    /** Waits {@code attempt} times the doom wait. */
    static void pause(int attempt) {
        try {
            Thread.sleep(DOOM_WAIT_MILLIS * attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading content", e);
        }
    }

    private record Lease(String slot, WriteId id) {
    }

    private void releaseLease(String sha, String slot, WriteId lease) {
        t.session.execute(t.write(t.q.deleteRef.bind(sha, KIND_READ, "", slot, lease.buffer())));
        content.reclaim(sha);
    }

    /** A chunk's bytes, or null when absent; throws when present with the wrong length. */
    private byte[] readChunk(String sha, UUID gen, int index, long size, ConsistencyLevel cl) {
        Row r = t.session.execute(t.q.selectChunk.bind(sha, gen, index).setConsistencyLevel(cl).setIdempotent(true)).one();
        if (r == null) {
            return null;
        }
        ByteBuffer b = r.getByteBuffer("data");
        long expected = Math.min(CassandraSchema.CHUNK_BYTES, size - (long) index * CassandraSchema.CHUNK_BYTES);
        if (b == null || b.remaining() != expected) {
            throw new IllegalStateException("chunk " + index + " of " + sha + " has "
                    + (b == null ? 0 : b.remaining()) + " bytes, expected " + expected);
        }
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    /** Content of one generation; the first chunk in memory or a lease for lazy reads. Not thread-safe. */
    private class ChunkedContent implements ContentRead {
        private final String sha;
        private final UUID gen;
        private final long size;
        private final byte[] whole;
        private Lease lease;

        ChunkedContent(String sha, UUID gen, long size, byte[] whole, Lease lease) {
            this.sha = sha;
            this.gen = gen;
            this.size = size;
            this.whole = whole;
            this.lease = lease;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public InputStream open(long offset, long length) throws IOException {
            if (offset < 0 || length < 0 || offset + length > size) {
                throw new IllegalArgumentException("range [" + offset + ", " + (offset + length) + ") outside " + size);
            }
            if (whole != null) {
                return new ByteArrayInputStream(whole, (int) offset, (int) length);
            }
            return new ChunkStream(CassandraSchema.CHUNK_BYTES, offset, offset + length, this::fetch);
        }

        @Override
        public void close() {
            if (lease != null) {
                Lease l = lease;
                lease = null;
                try {
                    releaseLease(sha, l.slot(), l.id());
                } catch (DriverException e) {
                    // The lease expires by itself; reclamation then happens at the next release.
                }
            }
        }

        private byte[] fetch(int index) throws IOException {
            try {
                byte[] c = readChunk(sha, gen, index, size, t.readCl);
                if (c == null) {
                    c = readChunk(sha, gen, index, size, t.protocolCl);
                }
                if (c == null) {
                    throw new IOException("chunk " + index + " of content " + sha + " generation " + gen + " is missing");
                }
                return c;
            } catch (DriverException e) {
                throw CassandraTables.unavailable(e);
            }
        }
    }

    private final class StoredObject extends ChunkedContent implements ObjectRead {
        private final ObjectInfo info;

        StoredObject(ObjectInfo info, ChunkedContent c) {
            super(c.sha, c.gen, c.size, c.whole, c.lease);
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
