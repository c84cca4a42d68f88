package dev.cairn.backup.archive;

import dev.cairn.backup.target.Target;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Packs small blobs: appends each to the open pack (a staged file of the target), and seals a
 * pack once it reaches {@link #targetBytes} or when {@link #flush()} is called: end tag, the pack
 * committed (durable), then its index committed. Only then are its blobs part of the archive, and
 * {@link BlobLocations} learns them. A pack never sealed (the job killed, the run failed) leaves
 * nothing an index names.
 *
 * <p>Thread-safety: safe for concurrent use. {@link #append} fills one open pack shared by its
 * callers, under that pack's lock (a copy into the file's buffer); {@link #appendToOwnPack} fills
 * an open pack of the calling thread's own, so that threads appending side by side all the time
 * (the content phase's hashing threads) never wait for each other's copies and writes, at the
 * cost of one partly filled pack more per such thread at each flush. A pack's lock otherwise only
 * keeps {@link #flush()} and {@link #close()} from taking it mid-append.
 * Sealing (the syncs) happens outside it while appends fill the next pack. Which pack a blob lands
 * in does not matter to the archive: every pack and index has the same format
 * ({@code docs/format/}).
 */
public final class PackWriter implements AutoCloseable {
    /** A pack is sealed once it holds this many bytes. */
    public static final long PACK_BYTES = 64L << 20;
    /** Blobs of this size or more are stored alone: their own file costs little next to their bytes. */
    public static final long LOOSE_FROM_BYTES = 1L << 20;

    private final Target target;
    private final BlobLocations locations;
    private final long targetBytes;
    /** Guards opening a pack, {@link #toSeal} and {@link #closed}; taken inside a pack's own lock, never around it. */
    private final Object appendLock = new Object();
    private final Object sealLock = new Object();
    private final ArrayDeque<OpenPack> toSeal = new ArrayDeque<>(); // guarded by appendLock
    /** The open packs, the shared one under {@link #SHARED} and the others under their thread; a pack leaves it once retired, under its own lock. */
    private final java.util.concurrent.ConcurrentHashMap<Object, OpenPack> open = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Object SHARED = new Object();
    private volatile IOException sealFailure;
    private volatile java.util.concurrent.Executor sealer;
    private long sealedPacks; // guarded by sealLock
    private long sealedBytes; // guarded by sealLock
    private long sealedBlobs; // guarded by sealLock
    private long sealedBlobBytes; // guarded by sealLock
    private boolean closed; // guarded by appendLock

    public PackWriter(Target target, BlobLocations locations, long targetBytes) {
        this.target = target;
        this.locations = locations;
        this.targetBytes = targetBytes;
    }

    /** Whether a blob of this size goes into a pack rather than a file of its own. */
    public static boolean packs(long size) {
        return size < LOOSE_FROM_BYTES;
    }

    /**
     * A pack being filled. Appends gather in a buffer written out a mebibyte at a time: one write
     * per blob, and one for its 41-byte entry header, would cost a system call per few kilobytes.
     * The buffer is direct, so that a file target writes it without a copy; it goes back to
     * {@link #spareBuffers} when the pack is closed.
     */
    private final class OpenPack {
        final String id = PackFormat.newPackId();
        final Object owner;
        final Target.Staged file;
        final List<PackFormat.IndexEntry> entries = new ArrayList<>();
        final byte[] entryHeader = new byte[PackFormat.ENTRY_HEADER_BYTES];
        ByteBuffer buffer = takeBuffer();
        long size;
        /** No more appends: the pack is full, waiting to be sealed, or abandoned. Guarded by this pack. */
        boolean retired;

        OpenPack(Object owner) throws IOException {
            this.owner = owner;
            Target.Staged staged = null;
            boolean ok = false;
            try {
                staged = target.stage(ArchiveLayout.pack(id));
                file = staged;
                put(PackFormat.header(id), PackFormat.HEADER_BYTES);
                ok = true;
            } finally {
                if (!ok) {
                    if (staged != null) {
                        staged.close();
                    }
                    giveBack(buffer);
                }
            }
        }

        void add(String sha256, byte[] bytes, int from, int length) throws IOException {
            PackFormat.entryHeader(entryHeader, sha256, length);
            put(entryHeader, entryHeader.length);
            long offset = size;
            put(bytes, from, length);
            entries.add(new PackFormat.IndexEntry(sha256, offset, length));
        }

        private void put(byte[] bytes, int length) throws IOException {
            put(bytes, 0, length);
        }

        private void put(byte[] bytes, int from, int length) throws IOException {
            if (length > buffer.remaining()) {
                drain();
            }
            if (length >= buffer.capacity()) {
                file.write(bytes, from, length);
            } else {
                buffer.put(bytes, from, length);
            }
            size += length;
        }

        void drain() throws IOException {
            if (buffer.position() > 0) {
                buffer.flip();
                file.write(buffer);
                buffer.clear();
            }
        }

        /** Closes the file (abandoning it unless committed) and gives the buffer back. */
        void close() throws IOException {
            try {
                file.close();
            } finally {
                giveBack(buffer);
                buffer = null;
            }
        }
    }

    /** Buffers of closed packs, for the next ones (a direct buffer is costly to allocate and is freed only by the collector). */
    private final java.util.concurrent.ConcurrentLinkedQueue<ByteBuffer> spareBuffers = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private ByteBuffer takeBuffer() {
        ByteBuffer b = spareBuffers.poll();
        return b != null ? b : ByteBuffer.allocateDirect(WRITE_BYTES);
    }

    private void giveBack(ByteBuffer b) {
        if (b != null) {
            b.clear();
            spareBuffers.add(b);
        }
    }

    /** Bytes gathered before each write to an open pack. */
    static final int WRITE_BYTES = 1 << 20;

    /**
     * Appends a blob whose bytes were checked against {@code sha256}. It is part of the archive
     * after the next {@link #flush()} returns (or earlier, when its pack fills).
     */
    public void append(String sha256, byte[] bytes, int length) throws IOException {
        append(sha256, bytes, 0, length);
    }

    /** {@link #append(String, byte[], int)} of {@code bytes[from, from + length)}. */
    public void append(String sha256, byte[] bytes, int from, int length) throws IOException {
        append(SHARED, sha256, bytes, from, length);
    }

    /** {@link #append(String, byte[], int, int)} into an open pack of the calling thread's own. */
    public void appendToOwnPack(String sha256, byte[] bytes, int from, int length) throws IOException {
        append(Thread.currentThread(), sha256, bytes, from, length);
    }

    private void append(Object me, String sha256, byte[] bytes, int from, int length) throws IOException {
        if (sealer != null && sealFailure != null) {
            throw new IOException("a pack could not be written: " + sealFailure.getMessage(), sealFailure);
        }
        while (true) {
            OpenPack pack = open.get(me);
            if (pack == null) {
                pack = openPack(me);
            }
            boolean full;
            synchronized (pack) {
                if (pack.retired) {
                    continue; // flushed or closed by another thread meanwhile
                }
                try {
                    pack.add(sha256, bytes, from, length);
                } catch (IOException | RuntimeException e) {
                    // A half-written entry: the pack is abandoned, and with it blobs already counted as
                    // copied, so every later flush fails rather than let rows name them.
                    pack.retired = true;
                    open.remove(me, pack);
                    IOException failure = e instanceof IOException io ? io : new IOException(e);
                    if (sealFailure == null) {
                        sealFailure = failure;
                    }
                    pack.close();
                    throw failure;
                }
                full = pack.size >= targetBytes;
                if (full) {
                    retireToSeal(pack);
                }
            }
            if (full) {
                java.util.concurrent.Executor background = sealer;
                if (background == null) {
                    sealPending();
                } else {
                    background.execute(this::sealPendingQuietly);
                }
            }
            return;
        }
    }

    private OpenPack openPack(Object owner) throws IOException {
        synchronized (appendLock) {
            if (closed) {
                throw new IOException("pack writer closed");
            }
            OpenPack opened = open.get(owner); // the shared pack, opened by another caller meanwhile
            if (opened != null) {
                return opened;
            }
            OpenPack pack = new OpenPack(owner);
            open.put(owner, pack);
            return pack;
        }
    }

    /**
     * REQUIRES: the pack's lock is held and it is not retired. Moves it from the open packs to
     * those waiting to be sealed in one step, so that a flush finds it in one or the other.
     */
    private void retireToSeal(OpenPack pack) {
        pack.retired = true;
        open.remove(pack.owner, pack);
        synchronized (appendLock) {
            toSeal.add(pack);
        }
    }

    /**
     * Seals full packs on {@code executor} (null: on the appending thread, the default), so that
     * a single appending thread does not wait for each pack's sync. A failure there is recorded and
     * thrown by the next {@link #flush()}.
     */
    public void sealInBackground(java.util.concurrent.Executor executor) {
        sealer = executor;
    }

    private void sealPendingQuietly() {
        try {
            sealPending();
        } catch (IOException e) {
            // recorded in sealFailure; the next flush throws it
        }
    }

    /** Seals the open pack and every pack waiting to be sealed: when this returns, every blob appended before it is durable and indexed. */
    public void flush() throws IOException {
        for (OpenPack pack : open.values()) {
            synchronized (pack) {
                if (!pack.retired) {
                    retireToSeal(pack);
                }
            }
        }
        sealPending();
    }

    private void sealPending() throws IOException {
        synchronized (sealLock) {
            while (true) {
                OpenPack pack;
                synchronized (appendLock) {
                    pack = toSeal.poll();
                }
                if (pack == null) {
                    break;
                }
                try {
                    seal(pack);
                } catch (IOException | RuntimeException e) {
                    IOException failure = e instanceof IOException io ? io : new IOException(e);
                    if (sealFailure == null) {
                        sealFailure = failure;
                    }
                    throw failure;
                } finally {
                    pack.close();
                }
            }
            // A pack another thread failed to seal held blobs this caller may have counted on.
            if (sealFailure != null) {
                throw new IOException("a pack could not be written: " + sealFailure.getMessage(), sealFailure);
            }
        }
    }

    private void seal(OpenPack pack) throws IOException {
        pack.put(PackFormat.end(pack.entries.size()), 9);
        pack.drain();
        long size = pack.size;
        if (size != pack.file.size()) {
            throw new IllegalStateException("pack " + pack.id + ": " + pack.file.size() + " bytes written of " + size);
        }
        pack.file.commit();
        PackFormat.Index index = new PackFormat.Index(pack.id, size, pack.entries);
        byte[] bytes = PackFormat.encodeIndex(index);
        try (Target.Staged idx = target.stage(ArchiveLayout.packIndex(pack.id))) {
            idx.write(bytes, 0, bytes.length);
            idx.commit();
        }
        locations.addPack(index);
        sealedPacks++;
        sealedBytes += size;
        sealedBlobs += pack.entries.size();
        for (PackFormat.IndexEntry e : pack.entries) {
            sealedBlobBytes += e.length();
        }
    }

    /** The blobs in the packs sealed so far (durable and indexed) and their bytes. */
    public long[] sealedBlobs() {
        synchronized (sealLock) {
            return new long[] {sealedBlobs, sealedBlobBytes};
        }
    }

    public long sealedPacks() {
        synchronized (sealLock) {
            return sealedPacks;
        }
    }

    public long sealedBytes() {
        synchronized (sealLock) {
            return sealedBytes;
        }
    }

    /** Abandons the packs not sealed: their blobs were never part of the archive. */
    @Override
    public void close() throws IOException {
        List<OpenPack> abandoned = new ArrayList<>();
        synchronized (appendLock) {
            closed = true; // no pack opens after this
        }
        for (OpenPack pack : open.values()) {
            synchronized (pack) {
                if (!pack.retired) {
                    pack.retired = true;
                    open.remove(pack.owner, pack);
                    abandoned.add(pack);
                }
            }
        }
        synchronized (appendLock) {
            abandoned.addAll(toSeal);
            toSeal.clear();
        }
        for (OpenPack p : abandoned) {
            p.close();
        }
    }
}
