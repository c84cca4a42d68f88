package dev.cairn.engine.fs;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file read around the page cache ({@code O_DIRECT}): the device writes straight into an
 * aligned buffer of this reader, nothing enters or leaves the page cache, and the kernel copies
 * nothing. Each {@link #read} widens the request to whole blocks of the file store
 * ({@link java.nio.file.FileStore#getBlockSize()}), reads them in one call of up to
 * {@link #MAX_READ_BYTES}, and copies the bytes asked for into the caller's buffer (for a heap
 * buffer, the JDK would make that copy itself through a temporary direct buffer). Meant for one
 * reader's long sequential reads, such as a backup's traversal: there is no read-ahead, so small
 * reads would each wait for the device.
 *
 * <p>Thread-safe: reads are serialised on the one aligned buffer.
 */
final class DirectReadableFile implements ReadableFile {
    /** The longest device read one {@link #read} makes. */
    static final int MAX_READ_BYTES = 4 << 20;
    /**
     * Aligned buffers of closed readers, for the next ones: a traversal opens a value file again
     * for each batch, and a direct buffer is freed only by the collector.
     */
    private static final java.util.concurrent.ConcurrentLinkedQueue<ByteBuffer> SPARE =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private static final int MAX_SPARE = 4;
    /** Block sizes up to this are honoured; a file store that reports more is read through the page cache. */
    private static final long MAX_ALIGNMENT = 64 << 10;

    private final FileChannel channel;
    private final int alignment;
    private ByteBuffer aligned; // guarded by this

    private DirectReadableFile(FileChannel channel, int alignment) {
        this.channel = channel;
        this.alignment = alignment;
    }

    /**
     * Opens {@code path} with {@code O_DIRECT}; null when the file system or platform refuses it
     * (tmpfs before Linux 6.6 did), so that the caller reads it the ordinary way.
     */
    static DirectReadableFile openOrNull(Path path) throws IOException {
        return openOrNull(path, p -> FileChannel.open(p, StandardOpenOption.READ, ExtendedOpenOption.DIRECT));
    }

    /** How the channel is opened with {@code O_DIRECT}: tests stand in a file system that refuses it. */
    @FunctionalInterface
    interface DirectOpener {
        FileChannel open(Path path) throws IOException;
    }

    static DirectReadableFile openOrNull(Path path, DirectOpener opener) throws IOException {
        long blockSize;
        try {
            blockSize = Files.getFileStore(path).getBlockSize();
        } catch (UnsupportedOperationException e) {
            CLibrary.logOnce("direct-block-size", "reads around the page cache need the file store's block size, which "
                    + path + " does not tell; reading through the page cache");
            return null;
        }
        if (blockSize <= 0 || blockSize > MAX_ALIGNMENT || Long.bitCount(blockSize) != 1) {
            CLibrary.logOnce("direct-block-size", "file store block size " + blockSize + " of " + path
                    + " is not one reads around the page cache can align to; reading through the page cache");
            return null;
        }
        if (!Files.isRegularFile(path)) {
            throw new java.nio.file.NoSuchFileException(path.toString());
        }
        FileChannel channel;
        try {
            channel = opener.open(path);
        } catch (IOException | UnsupportedOperationException e) {
            CLibrary.logOnce("direct-refused", "O_DIRECT refused for " + path + " (" + e.getMessage()
                    + "); reading through the page cache");
            return null;
        }
        return new DirectReadableFile(channel, (int) blockSize);
    }

    int alignment() {
        return alignment;
    }

    @Override
    public synchronized int read(long position, ByteBuffer dst) throws IOException {
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        long start = position - position % alignment;
        int skip = (int) (position - start);
        long want = Math.min((long) dst.remaining(), MAX_READ_BYTES - (long) alignment);
        int span = (int) roundUp(skip + want);
        ByteBuffer buffer = buffer(span);
        buffer.clear().limit(span);
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, start + buffer.position());
            if (n <= 0 || buffer.position() % alignment != 0) {
                break; // end of file: the last block is short
            }
        }
        int available = buffer.position() - skip;
        if (available <= 0) {
            return -1;
        }
        int n = (int) Math.min(available, want);
        buffer.limit(skip + n).position(skip);
        dst.put(buffer);
        return n;
    }

    private long roundUp(long n) {
        return (n + alignment - 1) / alignment * alignment;
    }

    private ByteBuffer buffer(int span) {
        if (aligned == null) {
            ByteBuffer spare = SPARE.poll();
            if (spare != null && spare.alignmentOffset(0, alignment) == 0) {
                aligned = spare;
            }
        }
        if (aligned == null || aligned.capacity() < span) {
            int capacity = (int) roundUp(Math.max(span, MAX_READ_BYTES));
            aligned = ByteBuffer.allocateDirect(capacity + alignment).alignedSlice(alignment);
        }
        return aligned;
    }

    @Override
    public long size() throws IOException {
        return channel.size();
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (aligned != null && SPARE.size() < MAX_SPARE) {
                SPARE.offer(aligned);
            }
            aligned = null;
        }
        channel.close();
    }
}
